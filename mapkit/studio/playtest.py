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


class PlaytestStopped(Exception):
    """The play-test process ended (killed, or the server is stopping) before answering."""


def _serve(conn: Any, parent: int) -> None:
    """The play-test process: run each ``(fn, args)`` it is sent and send back the result.

    Ctrl-C in a terminal reaches the whole process group: the server decides, so SIGINT is
    ignored here. A watchdog thread ends the process as soon as the server is gone, however
    it went (kill -9 too), so no play-test outlives it.
    """
    import os
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        import time

        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(0)

    threading.Thread(target=watch, name="studio-watchdog", daemon=True).start()
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply = ("ok", fn(*args))
        except Exception as exc:  # sent back to the server, which answers the request with it
            reply = ("error", exc)
        conn.send(reply)


class Worker:
    """One play-test process (started on first use), its jobs one at a time, and a cache
    of the reference figures. ``close`` kills the process: a running play-test stops."""

    def __init__(self) -> None:
        self._proc: Any = None
        self._conn: Any = None
        self._lock = threading.Lock()
        self._jobs: Any = None
        self.references: dict[PlaytestConfig, list[dict[str, Any]]] = {}

    @property
    def pid(self) -> int | None:
        proc = self._proc
        return proc.pid if proc is not None else None

    def _run(self, fn: Callable[..., Any], args: tuple) -> Any:
        import multiprocessing
        import os

        with self._lock:
            if self._proc is None or not self._proc.is_alive():
                ctx = multiprocessing.get_context("spawn")
                self._conn, child = ctx.Pipe()
                self._proc = ctx.Process(
                    target=_serve, args=(child, os.getpid()), name="mapkit-playtest", daemon=True
                )
                self._proc.start()
                child.close()
            conn = self._conn
        try:
            conn.send((fn, args))
            kind, value = conn.recv()
        except (EOFError, OSError):
            self.kill()
            raise PlaytestStopped() from None
        if kind == "error":
            raise value
        return value

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` in the play-test process; a ``concurrent.futures.Future``."""
        import concurrent.futures

        with self._lock:
            if self._jobs is None:
                self._jobs = concurrent.futures.ThreadPoolExecutor(1, "studio-playtest")
            return self._jobs.submit(self._run, fn, args)

    def kill(self) -> None:
        """Kill the process now (safe in a signal handler: no lock, no wait)."""
        proc = self._proc
        if proc is not None and proc.pid is not None:
            import contextlib
            import os
            import signal

            with contextlib.suppress(OSError):
                os.kill(proc.pid, signal.SIGKILL)

    def close(self) -> None:
        self.kill()
        with self._lock:
            proc, self._proc = self._proc, None
            jobs, self._jobs = self._jobs, None
        if proc is not None:
            proc.join(5)
        if jobs is not None:
            jobs.shutdown(wait=False, cancel_futures=True)
