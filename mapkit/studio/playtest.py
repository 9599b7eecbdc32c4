"""Play-tests for the studio, run in a worker process so drawing never waits on them.

The functions here run in the worker: they receive the map as text (models do not
pickle) and return plain JSON data: the report ``mapkit simulate --format json``
prints, and the shipped cities' mean scores under the same settings, measured
rather than copied so the comparison is always like for like.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_GAMES = 5000


@dataclass(frozen=True)
class PlaytestConfig:
    games: int = 200
    bots: tuple[str, ...] = ("greedy",)
    seed: int = 1

    @classmethod
    def from_request(cls, body: Any) -> PlaytestConfig:
        """Read ``{"games", "bots", "seed"}``; ValueError with a message for bad values."""
        from mapkit.bots import BOTS
        from mapkit.engine.seats import PLAYER_RANGE, valid_player_count

        if not isinstance(body, dict):
            raise ValueError('expected a JSON object like {"games": 200, "bots": ["greedy"]}')
        games = body.get("games", cls.games)
        bots = body.get("bots", list(cls.bots))
        seed = body.get("seed", cls.seed)
        if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
            raise ValueError(f"games must be a whole number from 1 to {MAX_GAMES}")
        if not isinstance(bots, list) or not valid_player_count(len(bots)):
            raise ValueError(f"bots must be a list of {PLAYER_RANGE} bot names, one per seat")
        unknown = [b for b in bots if b not in BOTS]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r}; known: {', '.join(BOTS)}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed must be a whole number")
        return cls(games, tuple(bots), seed)


def run_report(text: str, cfg: PlaytestConfig) -> dict[str, Any]:
    """The ``mapkit simulate --format json`` report for the map ``text``."""
    from mapkit.mapfile import load_source
    from mapkit.simulate import RunConfig, simulate, summarize
    from mapkit.simulate.report import to_dict

    result = load_source(text)
    city = result.map
    if city is None:
        first = result.errors[0] if result.errors else None
        why = f": {first.code} {first.message}" if first else ""
        raise ValueError(f"the map is not playable yet{why}")
    run = RunConfig(bots=cfg.bots, games=cfg.games, seed=cfg.seed)
    return to_dict(summarize(city, simulate(city, run), seed=cfg.seed))


def shipped_means(cfg: PlaytestConfig) -> list[dict[str, Any]]:
    """Seat 1's mean score on each shipped city, with the same bots, games and seed."""
    from mapkit.mapfile import load_map
    from mapkit.resources import shipped_maps
    from mapkit.simulate import RunConfig, simulate

    out = []
    for path in shipped_maps():
        city = load_map(path)
        outcomes = simulate(city, RunConfig(bots=cfg.bots, games=cfg.games, seed=cfg.seed))
        mean = sum(g.seats[0].score for g in outcomes) / len(outcomes)
        out.append({"id": city.id, "name": city.name, "mean": round(mean, 2)})
    return out


class Worker:
    """One worker process (started on first use) and a cache of the reference figures."""

    def __init__(self) -> None:
        self._pool: Any = None
        self._lock = threading.Lock()
        self.references: dict[PlaytestConfig, list[dict[str, Any]]] = {}

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` in the worker process; a ``concurrent.futures.Future``."""
        import concurrent.futures
        import multiprocessing

        with self._lock:
            if self._pool is None:
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn")
                )
            return self._pool.submit(fn, *args)

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
