"""Play many games with bots through the engine, in one process or several.

Game ``i`` of a run with seed ``S`` uses the deck seed ``game_seed(S, i)`` and
bots reseeded from it, so its result depends only on ``(S, i)``: the same run
gives the same outcomes whatever the number of processes, merged in game order.
"""

from __future__ import annotations

import _random
import functools
import hashlib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from mapkit import workers
from mapkit.engine.cards import CHANCE
from mapkit.engine.seats import seat_names, seat_seed
from mapkit.mapfile.model import CityMap
from mapkit.simulate.outcome import GameOutcome, SeatOutcome

CHUNK = 16

_reseed = _random.Random.seed
"""``random.Random.seed`` for an int, without the Python-level wrapper (hot per game)."""


def game_seed(seed: int, index: int) -> int:
    """A 63-bit seed for game ``index`` of a run: stable across versions and platforms."""
    digest = hashlib.blake2b(f"mapkit-simulate:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class RunConfig:
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    special_stations: bool = False
    records: bool = False
    bot_options: tuple[tuple[str, Any], ...] = ()


class Player:
    """Plays games of one map with a fixed seating; bots are built once and reseeded per game."""

    def __init__(self, city: CityMap, cfg: RunConfig) -> None:
        from mapkit.bots import make_bot
        from mapkit.bots.simple import RandomBot
        from mapkit.engine import Game, GameOptions

        self.city = city
        self.cfg = cfg
        opts = GameOptions(players=len(cfg.bots), special_stations=cfg.special_stations)
        self.game = Game(city, opts)
        options = dict(cfg.bot_options)
        self.bots = [make_bot(name, 0, **options.get(name, {})) for name in cfg.bots]
        self.all_random = all(type(bot) is RandomBot for bot in self.bots)
        self._rngs = [bot.rng for bot in self.bots]
        """All-random seats keep their generators and reseed them: ``Random(x)``'s stream."""
        ids = self.game.tables.station_ids
        self._lines: dict[int, tuple[int, ...]] = {}
        self._firsts: dict[int, frozenset[str]] = {}
        self._bytes = [
            [
                tuple(ids[i + j] for j in range(8) if b >> j & 1 and i + j < len(ids))
                for b in range(256)
            ]
            for i in range(0, len(ids), 8)
        ]

    def play(self, index: int) -> tuple[GameOutcome, dict[str, Any] | None]:
        import random

        seed = game_seed(self.cfg.seed, index)
        bots = self.bots
        if self.all_random:
            rngs = self._rngs
            for seat, rng in enumerate(rngs):
                _reseed(rng, seat_seed(seed, seat))
                rng.gauss_next = None
            state = self.game.new_initial_state(seed).seeded_playout(rngs)
        else:
            for seat, bot in enumerate(bots):
                bot.rng = random.Random(seat_seed(seed, seat))
            state = self.game.new_initial_state(seed)
            checked = [not bot.legal_only for bot in bots]
            while True:
                p = state.current_player()
                if p >= 0:
                    a = bots[p].choose(state)
                    if checked[p]:
                        state.apply_action(a)
                    else:
                        state.apply_legal(a)
                elif p == CHANCE:
                    state.deal()
                else:
                    break
        return self._outcome(index, seed, state), self._record(state, seed)

    def _outcome(self, index: int, seed: int, state: Any) -> GameOutcome:
        t = self.game.tables
        line_ids, first, others = t.line_ids, t.first, t.others
        bots = self.cfg.bots
        ranks = state.ranks() if len(bots) > 1 else (1,)
        firsts_of = self._firsts
        lines_of = self._lines
        all_mask = t.all_mask
        seats = []
        for p, name in enumerate(bots):
            marked, boxed, firsts = state.marked(p), state.boxed(p), state.completed_first(p)
            completed = {}
            done = state.completed(p)
            lines = lines_of.get(done)
            if lines is None:
                lines = lines_of[done] = tuple(_bits(done))
            for li in lines:
                pts = first[li] if firsts >> li & 1 else others[li]
                completed[line_ids[li]] = (state.completion_round(p, li), pts)
            fs = firsts_of.get(firsts)
            if fs is None:
                fs = firsts_of[firsts] = frozenset([line_ids[li] for li in _bits(firsts)])
            seats.append(
                SeatOutcome(
                    name,
                    state.score(p),
                    ranks[p],
                    completed,
                    fs,
                    {t.station_ids[s]: t.intersections[s] for s in _bits(boxed)},
                    frozenset(self._ids(~marked & all_mask)),
                )
            )
        return GameOutcome(index, seed, state.round(), tuple(seats))

    def _ids(self, mask: int) -> list[str]:
        """Station ids of a bitmask, a byte at a time (the outcome of every game needs it)."""
        out: list[str] = []
        for table in self._bytes:
            if mask & 255:
                out += table[mask & 255]
            mask >>= 8
        return out

    def _record(self, state: Any, seed: int) -> dict[str, Any] | None:
        if not self.cfg.records:
            return None
        from mapkit.engine.record import record_from_history

        names = seat_names(self.cfg.bots)
        return record_from_history(self.game, state.history(), names, seed)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@functools.cache
def warn_if_kernel_stale() -> None:
    """Say once per process (a tune builds hundreds of kernels) when the compiled kernel is not
    built from the current ``kernel.py``: Python would play the old one without a word."""
    from mapkit.kernel_build import kernel_status

    status = kernel_status()
    if not status.current:
        print(f"mapkit: warning: {status.message}", file=sys.stderr)


def kernel_plays(cfg: RunConfig) -> bool:
    """Does the game kernel play this run? Every seat a kernel bot (``random``, ``greedy``,
    ``lookahead``) with its default options; anything else is played seat by seat."""
    from mapkit.engine.kernel import BOT_CODES

    return all(b in BOT_CODES for b in cfg.bots) and not cfg.bot_options


class KernelPlayer:
    """Plays a run's games in the kernel (``mapkit.engine.kernel``), a batch of games at a time."""

    def __init__(self, city: CityMap, cfg: RunConfig) -> None:
        from mapkit.bots import make_bot
        from mapkit.bots.greedy import EXTRA_ACTION
        from mapkit.bots.lookahead import LookaheadBot
        from mapkit.engine import Game, GameOptions
        from mapkit.engine.kernel import Kernel, bot_params

        self.city = city
        self.cfg = cfg
        opts = GameOptions(players=len(cfg.bots), special_stations=cfg.special_stations)
        self.game = Game(city, opts)
        la = make_bot("lookahead")
        assert isinstance(la, LookaheadBot)
        params = bot_params(la.weights, la.noise, EXTRA_ACTION, la.width, la.discount)
        self.kernel = Kernel(
            self.game.tables.kernel, cfg.bots, cfg.special_stations, params, self.game.ruleset
        )
        warn_if_kernel_stale()

    def seeds(self, lo: int, hi: int) -> Any:
        import numpy as np

        return np.array([game_seed(self.cfg.seed, i) for i in range(lo, hi)], np.int64)

    def tally(self, lo: int, hi: int) -> tuple[Any, list[tuple[int, dict[str, Any]]]]:
        """The tally of games ``lo .. hi-1`` and, with records on, their records."""
        from mapkit.simulate.tally import Tally

        tally = Tally(self.city, self.cfg.bots)
        tally.add(*self.kernel.play_batch(self.seeds(lo, hi)))
        return tally, self.records(lo, hi)

    def records(self, lo: int, hi: int) -> list[tuple[int, dict[str, Any]]]:
        if not self.cfg.records:
            return []
        from mapkit.engine.record import record_from_history

        names = seat_names(self.cfg.bots)
        out = []
        for i in range(lo, hi):
            seed = game_seed(self.cfg.seed, i)
            hist = self.kernel.play_history(seed)
            out.append((i, record_from_history(self.game, hist, names, seed)))
        return out

    def outcomes(self, lo: int, hi: int) -> list[GameOutcome]:
        """Games ``lo .. hi-1`` as :class:`GameOutcome` (what ``Player.play`` returns)."""
        from mapkit.engine.scoring import ranks

        t = self.game.tables
        seeds = self.seeds(lo, hi)
        b = self.kernel.play_batch(seeds)
        out = []
        for g in range(hi - lo):
            scores = b.scores[g].tolist()
            empties = b.empty[g].sum(axis=1).tolist()
            rk = ranks(scores, empties) if len(scores) > 1 else [1]
            seats = []
            for p, name in enumerate(self.cfg.bots):
                when = b.when[g, p].tolist()
                firsts = b.firsts[g, p].tolist()
                completed = {
                    t.line_ids[li]: (r, t.first[li] if firsts[li] else t.others[li])
                    for li, r in enumerate(when)
                    if r
                }
                seats.append(
                    SeatOutcome(
                        name,
                        scores[p],
                        rk[p],
                        completed,
                        frozenset(t.line_ids[li] for li, f in enumerate(firsts) if f),
                        {
                            t.station_ids[s]: t.intersections[s]
                            for s in b.boxed[g, p].nonzero()[0].tolist()
                        },
                        frozenset(t.station_ids[s] for s in b.empty[g, p].nonzero()[0].tolist()),
                    )
                )
            out.append(GameOutcome(lo + g, int(seeds[g]), int(b.rounds[g]), tuple(seats)))
        return out


_worker: Player | None = None
_kworker: KernelPlayer | None = None


def _kernel_chunk(bounds: tuple[int, int]) -> tuple[Any, list[tuple[int, dict[str, Any]]]]:
    assert _kworker is not None
    return _kworker.tally(*bounds)


def _python_chunk(bounds: tuple[int, int]) -> tuple[Any, list[tuple[int, dict[str, Any]]]]:
    from mapkit.simulate.stats import tally_of

    assert _worker is not None
    played = [_worker.play(i) for i in range(*bounds)]
    records = [(o.index, r) for o, r in played if r is not None]
    return tally_of(_worker.city, [o for o, _ in played]), records


KERNEL_CHUNK = 2048


def run(
    city: CityMap,
    cfg: RunConfig,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    on_record: Callable[[int, dict[str, Any]], None] | None = None,
) -> Any:
    """Play the run and return its :class:`~mapkit.simulate.tally.Tally` (streaming: memory
    does not grow with the number of games). The kernel plays when :func:`kernel_plays`;
    other seatings are played seat by seat. The same tally for any ``jobs``."""
    global _worker, _kworker
    from mapkit.simulate.tally import Tally

    jobs = max(1, min(jobs or os.cpu_count() or 1, cfg.games))
    if kernel_plays(cfg):
        _kworker = KernelPlayer(city, cfg)
        _kworker.tally(0, 0)  # set the kernel up once, before any fork
        work, size = _kernel_chunk, KERNEL_CHUNK
    else:
        _worker = Player(city, cfg)
        work, size = _python_chunk, CHUNK * 16
    size = max(1, min(size, -(-cfg.games // (jobs * 4)) if jobs > 1 else size))
    bounds = _chunks(cfg.games, size)
    total = Tally(city, cfg.bots)
    done = 0
    if jobs == 1:
        results: Iterator[Any] = map(work, bounds)
        pool = None
    else:
        pool = workers.pool(jobs)
        results = workers.imap_bounded(pool, work, bounds, ahead=jobs * 2)
    try:
        for tally, records in results:
            total.merge(tally)
            for index, record in records:
                if on_record is not None:
                    on_record(index, record)
            done += tally.games
            if progress:
                progress(done)
    finally:
        if pool is not None:
            pool.terminate()
    return total


def _init(city: CityMap, cfg: RunConfig) -> None:
    global _worker
    _worker = Player(city, cfg)


def _play_chunk(bounds: tuple[int, int]) -> list[tuple[GameOutcome, dict[str, Any] | None]]:
    assert _worker is not None
    return [_worker.play(i) for i in range(*bounds)]


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    """The bounds of each chunk, made as they are needed (a huge run holds no list of them)."""
    return ((i, min(games, i + size)) for i in range(0, games, size))


def play_games(
    city: CityMap,
    cfg: RunConfig,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Iterator[tuple[GameOutcome, dict[str, Any] | None]]:
    """Yield ``(outcome, record or None)`` for games 0..N-1, in game order."""
    jobs = max(1, min(jobs or os.cpu_count() or 1, cfg.games))
    done = 0
    if jobs == 1:
        player = Player(city, cfg)
        for i in range(cfg.games):
            yield player.play(i)
            done += 1
            if progress and (done % CHUNK == 0 or done == cfg.games):
                progress(done)
        return
    size = max(1, min(CHUNK, cfg.games // (jobs * 4) or 1))
    with workers.pool(jobs, initializer=_init, initargs=(city, cfg)) as pool:
        for chunk in workers.imap_bounded(pool, _play_chunk, _chunks(cfg.games, size), jobs * 2):
            yield from chunk
            done += len(chunk)
            if progress:
                progress(done)


def simulate(
    city: CityMap,
    cfg: RunConfig,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    on_record: Callable[[int, dict[str, Any]], None] | None = None,
) -> list[GameOutcome]:
    """All outcomes in game order; with records on, ``on_record(index, record)`` per game.

    Keeps every outcome: for many games use :func:`run` (a streaming tally)."""
    if kernel_plays(cfg) and jobs == 1:
        player = KernelPlayer(city, cfg)
        outcomes = []
        for lo, hi in _chunks(cfg.games, KERNEL_CHUNK):
            outcomes += player.outcomes(lo, hi)
            for index, record in player.records(lo, hi):
                if on_record is not None:
                    on_record(index, record)
            if progress:
                progress(hi)
        return outcomes
    outcomes = []
    for outcome, record in play_games(city, cfg, jobs, progress):
        outcomes.append(outcome)
        if record is not None and on_record is not None:
            on_record(outcome.index, record)
    return outcomes
