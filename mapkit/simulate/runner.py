"""The one way to play games: N games of a map with given seats, by a named engine.

Game ``i`` of a run with seed ``S`` uses the deck seed ``game_seed(S, i)`` and seat ``p``'s bot
reseeded with ``seat_seed(game_seed(S, i), p)``, so its result depends only on ``(S, i)``:
the same run gives the same outcomes whatever the number of processes, merged in game order.

Two engines play the very same games (``tests/test_kernel_agrees.py`` proves it, records
included): the **kernel** (``mapkit.engine.kernel``: random, greedy and lookahead seats with
their default options, whole batches of games in compiled code) and the **checked** engine
(``State``, every rule checked, any bot). ``RunConfig.engine`` chooses: ``auto`` takes the kernel
whenever it can play the seating, ``kernel`` refuses a seating it cannot play, ``checked``
plays seat by seat. :class:`GameRunner` says which one played (``engine``), and so does every
:class:`GameOutcome` and the report.
"""

from __future__ import annotations

import hashlib
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from mapkit import workers
from mapkit.engine.playout import Seat, drawn, play_out
from mapkit.engine.seats import seat_names, seat_seed
from mapkit.mapfile.model import CityMap
from mapkit.simulate.outcome import GameOutcome, SeatOutcome

if TYPE_CHECKING:
    from mapkit.engine import State
    from mapkit.engine.kernel import Batch
    from mapkit.rulesets import Ruleset
    from mapkit.simulate.tally import Tally

ENGINES = ("auto", "kernel", "checked")
KERNEL_CHUNK = 2048
"""Games per kernel batch (and per task of a pool)."""
CHECKED_CHUNK = 256
"""Games per task of the checked engine (slower games: smaller tasks)."""


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
    """Keep each game's history in its outcome (what its record is written from)."""
    bot_options: tuple[tuple[str, Any], ...] = ()
    engine: str = "auto"
    """``auto``, ``kernel`` or ``checked`` (see the module's docstring)."""


def check_seating(bots: Sequence[str], ruleset: Ruleset | None = None) -> None:
    """ValueError unless ``bots`` names a known bot for each of 1 to 6 seats (and, given a
    ruleset, as many seats as it is played by: ``Ruleset.check_players``)."""
    from mapkit.bots import BOTS
    from mapkit.engine.seats import PLAYER_RANGE, valid_player_count

    unknown = [b for b in bots if b not in BOTS]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; known: {', '.join(BOTS)}")
    if not valid_player_count(len(bots)):
        raise ValueError(f"{PLAYER_RANGE} bots, one per seat, not {len(bots)}")
    if ruleset is not None:
        ruleset.check_players(len(bots))


def choose_engine(cfg: RunConfig) -> str:
    """The engine that plays ``cfg``: ValueError for a seating :func:`check_seating` refuses,
    an unknown engine or a kernel asked to play seats it cannot (another bot, or bot
    options)."""
    from mapkit.engine.kernel import BOT_CODES

    check_seating(cfg.bots)
    if cfg.engine not in ENGINES:
        raise ValueError(f"unknown engine {cfg.engine!r}; known: {', '.join(ENGINES)}")
    others = [b for b in cfg.bots if b not in BOT_CODES]
    if cfg.engine == "checked" or (cfg.engine == "auto" and (others or cfg.bot_options)):
        return "checked"
    if others or cfg.bot_options:
        why = f"the {others[0]} bot" if others else "bot options"
        raise ValueError(
            f"the kernel plays {', '.join(BOT_CODES)} seats with their default options, not"
            f" {why}: use the checked engine (or auto)"
        )
    return "kernel"


def playout(state: State, bots: Sequence[Any], rng: random.Random) -> list[int]:
    """The final scores of ``state`` played out by ``bots`` (all drawing on ``rng``) with
    cards drawn afresh: one sample of a position's value (tension, decisions)."""
    for bot in bots:
        bot.rng = rng
    return play_out(state, bots, drawn(rng)).scores()


_WATCHING: list[set[str]] = []
"""The open :func:`engines_used` blocks: each collects the engines of the runners made in it."""


@contextmanager
def engines_used() -> Iterator[set[str]]:
    """The engines (``kernel``, ``checked``) of every :class:`GameRunner` made inside the
    block, so a measure made of several runs can say who played its games."""
    used: set[str] = set()
    _WATCHING.append(used)
    try:
        yield used
    finally:
        _WATCHING.remove(used)


class GameRunner:
    """Plays games of one map with one seating (``cfg``) by one engine (``engine``).

    :meth:`outcomes` gives games ``lo .. hi-1`` as :class:`GameOutcome`, :meth:`chunk` their
    streaming counts and records, :meth:`record` an outcome's record; :func:`run` and
    :func:`simulate` spread a whole run over processes."""

    def __init__(self, city: CityMap, cfg: RunConfig) -> None:
        from mapkit.engine import Game, GameOptions

        self.city = city
        self.cfg = cfg
        self.engine = choose_engine(cfg)
        for used in _WATCHING:
            used.add(self.engine)
        opts = GameOptions(players=len(cfg.bots), special_stations=cfg.special_stations)
        self.game = Game(city, opts)
        self.names = seat_names(list(cfg.bots))
        if self.engine == "kernel":
            self._kernel = kernel_for(self.game, cfg.bots)
            warn_if_kernel_stale()
        else:
            from mapkit.bots import make_bot

            options = dict(cfg.bot_options)
            self.bots = [make_bot(name, 0, **options.get(name, {})) for name in cfg.bots]
            """The checked engine's bots, one per seat (reseeded for every game)."""

    def seeds(self, lo: int, hi: int) -> list[int]:
        return [game_seed(self.cfg.seed, i) for i in range(lo, hi)]

    def play(self, seeds: Sequence[int]) -> tuple[Batch, list[tuple[list[int], list[int]]]]:
        """The games of deck ``seeds``: their per-game arrays (the kernel's ``Batch``, from
        either engine) and, with ``records`` on, each one's history and who played each
        entry (``Kernel.play_turns``), else no histories."""
        import numpy as np

        from mapkit.engine.record import history_turns

        if self.engine == "kernel":
            b = self._kernel.play_batch(np.array(seeds, np.int64))
            if not self.cfg.records:
                return b, []
            return b, [self._kernel.play_turns(s) for s in seeds]
        states = [self.play_checked(s) for s in seeds]
        if not self.cfg.records:
            return batch_of(self.game, states), []
        hists = [st.history() for st in states]
        turns = [history_turns(self.game, h, s) for h, s in zip(hists, seeds, strict=True)]
        return batch_of(self.game, states), list(zip(hists, turns, strict=True))

    def play_checked(
        self,
        seed: int,
        deal: Callable[[State], object] | None = None,
        seats: Sequence[Seat] | None = None,
    ) -> State:
        """The finished state of the game of deck ``seed`` through the checked engine, its
        bots seeded for it; ``deal`` and ``seats`` (wrapping :attr:`bots`) may watch it."""
        if self.engine == "kernel":
            raise RuntimeError("the kernel plays this run: GameRunner.play, outcomes, chunk")
        for p, bot in enumerate(self.bots):
            bot.rng = random.Random(seat_seed(seed, p))
        return play_out(self.game.new_initial_state(seed), seats or self.bots, deal)

    def outcomes(self, lo: int, hi: int) -> list[GameOutcome]:
        """Games ``lo .. hi-1``; with ``records`` on, each keeps its history."""
        seeds = self.seeds(lo, hi)
        b, hists = self.play(seeds)
        out = outcomes_of(self.game, b, lo, seeds, self.cfg.bots, self.engine)
        return [o.with_history(*h) for o, h in zip(out, hists, strict=True)] if hists else out

    def outcome(self, index: int, state: State) -> GameOutcome:
        """The outcome of this run's game ``index`` from its finished checked-engine state."""
        b = batch_of(self.game, [state])
        seeds = [game_seed(self.cfg.seed, index)]
        return outcomes_of(self.game, b, index, seeds, self.cfg.bots, self.engine)[0]

    def chunk(self, lo: int, hi: int) -> tuple[Tally, list[tuple[int, dict[str, Any]]]]:
        """Games ``lo .. hi-1`` as streaming counts (the batch goes straight into them: no
        per-game objects) and, with ``records`` on, ``(index, record)`` of each."""
        from mapkit.engine.record import record_from_turns
        from mapkit.simulate.tally import Tally

        seeds = self.seeds(lo, hi)
        b, hists = self.play(seeds)
        tally = Tally(self.city, self.cfg.bots, self.engine)
        tally.add(b.scores, b.rounds, b.when, b.firsts, b.empty, b.boxed)
        if not hists:
            return tally, []
        records = [
            (i, record_from_turns(self.game, h, t, self.names, seed))
            for i, seed, (h, t) in zip(range(lo, hi), seeds, hists, strict=True)
        ]
        return tally, records

    def record(self, outcome: GameOutcome) -> dict[str, Any]:
        """The game record (``mapkit-game/1``) of an outcome kept with its history."""
        from mapkit.engine.record import record_from_turns

        if not outcome.history:
            raise ValueError("the outcome has no history: play with RunConfig(records=True)")
        history, turns = list(outcome.history), list(outcome.turns)
        return record_from_turns(self.game, history, turns, self.names, outcome.seed)


def kernel_for(game: Any, bots: Sequence[str]) -> Any:
    """The game kernel for ``game`` (its map, variant and ruleset) with ``bots`` seated, the
    bots at their default weights: what ``GameRunner`` plays and the harness checks."""
    from mapkit.bots import make_bot
    from mapkit.bots.greedy import EXTRA_ACTION
    from mapkit.bots.lookahead import LookaheadBot
    from mapkit.engine.kernel import Kernel, bot_params

    la = make_bot("lookahead")
    assert isinstance(la, LookaheadBot)
    params = bot_params(la.weights, la.noise, EXTRA_ACTION, la.width, la.discount)
    return Kernel(game.tables.kernel, tuple(bots), game.special_stations, params, game.ruleset)


def batch_of(game: Any, states: Sequence[State]) -> Batch:
    """The kernel's per-game arrays (``Batch``) of finished checked-engine states."""
    import numpy as np

    from mapkit.engine.kernel import Batch

    t = game.tables
    L, S = t.n_units, t.n_stations
    n = game.num_players()
    stations = np.arange(S, dtype=object)
    lines = range(L)
    rows = []
    for st in states:
        marked = [st.marked(p) for p in range(n)]
        rows.append(
            (
                st.scores(),
                st.round(),
                [[st.completion_round(p, li) for li in lines] for p in range(n)],
                [[st.completed_first(p) >> li & 1 for li in lines] for p in range(n)],
                [(~marked[p] >> stations & 1).tolist() for p in range(n)],
                [(st.boxed(p) >> stations & 1).tolist() for p in range(n)],
                [st.all_lines_bonus(p) for p in range(n)],
            )
        )
    cols = list(zip(*rows, strict=True)) if rows else [[] for _ in range(7)]
    shapes = ((0, n), (0,), (0, n, L), (0, n, L), (0, n, S), (0, n, S), (0, n))
    types = (np.int64, np.int64, np.int64, np.int8, np.int8, np.int8, np.int64)
    return Batch(
        *(
            np.array(c, dt) if len(c) else np.zeros(shape, dt)
            for c, dt, shape in zip(cols, types, shapes, strict=True)
        )
    )


def outcomes_of(
    game: Any, b: Batch, lo: int, seeds: Sequence[int], bots: Sequence[str], engine: str
) -> list[GameOutcome]:
    """The one outcome builder: a batch of games (either engine's) as :class:`GameOutcome`."""
    from mapkit.engine.scoring import paying_units, ranks

    t = game.tables
    out = []
    for g, seed in enumerate(seeds):
        scores = b.scores[g].tolist()
        empties = b.empty[g].sum(axis=1).tolist()
        rk = ranks(scores, empties, game.ruleset.tie_break) if len(scores) > 1 else [1]
        seats = []
        for p, name in enumerate(bots):
            when = b.when[g, p].tolist()
            firsts = b.firsts[g, p].tolist()
            earned = {
                t.unit_ids[u]: t.units[u].first if firsts[u] else t.units[u].others
                for u, r in enumerate(when)
                if r
            }
            pays = paying_units(t.city, earned)
            completed = {
                t.unit_ids[u]: (r, pays.get(t.unit_ids[u], 0)) for u, r in enumerate(when) if r
            }
            seats.append(
                SeatOutcome(
                    name,
                    scores[p],
                    rk[p],
                    completed,
                    frozenset(t.unit_ids[u] for u, f in enumerate(firsts) if f),
                    {
                        t.station_ids[s]: t.intersections[s]
                        for s in b.boxed[g, p].nonzero()[0].tolist()
                    },
                    frozenset(t.station_ids[s] for s in b.empty[g, p].nonzero()[0].tolist()),
                    int(b.bonus[g, p]),
                )
            )
        out.append(
            GameOutcome(lo + g, seed, int(b.rounds[g]), tuple(seats), engine, ruleset=game.ruleset)
        )
    return out


@cache
def warn_if_kernel_stale() -> None:
    """Say once per process (a tune builds hundreds of kernels) when the compiled kernel is not
    built from the current ``kernel.py``: Python would play the old one without a word."""
    from mapkit.kernel_build import kernel_status

    status = kernel_status()
    if not status.current:
        print(f"mapkit: warning: {status.message}", file=sys.stderr)


# ------------------------------------------------------------------ whole runs
_runner: GameRunner | None = None
"""The run's runner, set before the pool forks (its workers inherit it)."""


def _tally_chunk(bounds: tuple[int, int]) -> tuple[Tally, list[tuple[int, dict[str, Any]]]]:
    assert _runner is not None
    return _runner.chunk(*bounds)


def _outcome_chunk(bounds: tuple[int, int]) -> list[GameOutcome]:
    assert _runner is not None
    return _runner.outcomes(*bounds)


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    """The bounds of each chunk, made as they are needed (a huge run holds no list of them)."""
    return ((i, min(games, i + size)) for i in range(0, games, size))


def _spread(runner: GameRunner, work: Callable[[tuple[int, int]], Any], jobs: int) -> Iterator:
    """``work`` over the run's chunks in game order, in this process or ``jobs`` workers
    (closed at once when the run stops: the pool ends with it, not with the traceback)."""
    global _runner
    cfg = runner.cfg
    jobs = max(1, min(jobs or os.cpu_count() or 1, cfg.games))
    size = KERNEL_CHUNK if runner.engine == "kernel" else CHECKED_CHUNK
    if jobs > 1:
        size = max(1, min(size, -(-cfg.games // (jobs * 4))))
    bounds = _chunks(cfg.games, size)
    _runner = runner
    if jobs == 1:
        yield from map(work, bounds)
        return
    pool = workers.pool(jobs)
    try:
        yield from workers.imap_bounded(pool, work, bounds, ahead=jobs * 2)
    finally:
        workers.stop(pool)


def run(
    city: CityMap,
    cfg: RunConfig,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    on_record: Callable[[int, dict[str, Any]], None] | None = None,
) -> Tally:
    """Play the run and return its :class:`~mapkit.simulate.tally.Tally` (streaming: memory
    does not grow with the number of games; ``tally.engine`` says which engine played); with
    ``records`` on, ``on_record(index, record)`` per game. The same tally for any ``jobs``."""
    from mapkit.simulate.tally import Tally

    runner = GameRunner(city, cfg)
    total = Tally(city, cfg.bots, runner.engine)
    with closing(_spread(runner, _tally_chunk, jobs)) as chunks:
        for tally, records in chunks:
            total.merge(tally)
            for index, record in records:
                if on_record is not None:
                    on_record(index, record)
            if progress:
                progress(total.games)
    return total


def simulate(
    city: CityMap,
    cfg: RunConfig,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[GameOutcome]:
    """Every game's outcome, in game order (for many games :func:`run` keeps only counts);
    with ``records`` on each keeps its history (:meth:`GameRunner.record` writes it)."""
    outcomes: list[GameOutcome] = []
    with closing(_spread(GameRunner(city, cfg), _outcome_chunk, jobs)) as chunks:
        for chunk in chunks:
            outcomes += chunk
            if progress:
                progress(len(outcomes))
    return outcomes
