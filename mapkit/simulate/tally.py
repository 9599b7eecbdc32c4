"""Streaming statistics of a simulation: counts that grow with the map, not with the games.

A :class:`Tally` takes games a batch at a time (per-game arrays: scores, rounds, completion
rounds, ``first`` bonuses, empty and boxed stations) and keeps only counts: a histogram of
each seat's scores, win shares by tie size, places by tie size, per line completions and
their rounds, per station empty and boxed counts. Every figure of the report is computed
from those counts exactly as from the full list of games (``math.fsum`` is exactly rounded,
so a sum over a histogram equals the sum over the games it counts; quantiles are read from
the cumulative histogram). Tallies of disjoint games merge, in any order, to the same
report: what makes ``--jobs`` irrelevant to the result.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import repeat
from typing import Any

import numpy as np

from mapkit.engine.scoring import paying_units
from mapkit.mapfile.model import CityMap


def _fsum_counts(counts: dict[Any, int], value: Any) -> float:
    """``math.fsum`` over every counted item's value, each repeated by its count."""
    return math.fsum(x for key, c in counts.items() for x in repeat(value(key), c))


class Tally:
    """The running counts of a simulation of one map and seating."""

    def __init__(self, city: CityMap, bots: tuple[str, ...], engine: str = "") -> None:
        self.city = city
        self.bots = bots
        self.engine = engine
        """The engine that played the games (``GameRunner.engine``; empty: not said)."""
        self.n = seats = len(bots)
        L, S = len(city.units), len(city.stations)
        self.games = 0
        self.scores = [Counter() for _ in range(seats)]  # type: list[Counter[int]]
        self.wins = [Counter() for _ in range(seats)]  # type: list[Counter[int]]
        """seat -> {tie size k of the winners: games won with k winners}."""
        self.places = [Counter() for _ in range(seats)]  # type: list[Counter[tuple[int, int]]]
        """seat -> {(rank, size of its tie group): games}."""
        self.rounds: Counter[int] = Counter()
        self.done = np.zeros(L, np.int64)
        self.done_rounds = np.zeros(L, np.int64)
        self.firsts = np.zeros(L, np.int64)
        self.points = np.zeros(L, np.int64)
        self.finish: list[Counter[tuple[int, int]]] = [Counter() for _ in range(L)]
        """line -> {(completion round, game rounds): player-games}."""
        self.empty = np.zeros(S, np.int64)
        self.boxed = np.zeros(S, np.int64)
        self.first = np.array([u.first for u in city.units], np.int64)
        self.others = np.array([u.others for u in city.units], np.int64)
        units = [u for u, unit in enumerate(city.units) if len(city.lines[unit.line].units) > 1]
        self._shared = [
            [u for u in units if city.units[u].line == li]
            for li in dict.fromkeys(city.units[u].line for u in units)
        ]
        """The units of each line with several (a branching line's), whose completions
        ``scoring.paying_units`` may not all pay."""

    def add(
        self,
        scores: np.ndarray,
        rounds: np.ndarray,
        when: np.ndarray,
        firsts: np.ndarray,
        empty: np.ndarray,
        boxed: np.ndarray,
        rank: np.ndarray | None = None,
    ) -> None:
        """Count a batch of ``G`` games: ``scores[G, n]``, ``rounds[G]``, ``when[G, n, L]``
        (completion round, 0: not completed), ``firsts[G, n, L]``, ``empty``/``boxed[G, n, S]``;
        ``rank[G, n]`` when given, else the engine's ranks (``scoring.ranks``)."""
        G, n = scores.shape
        if not G:
            return
        self.games += G
        if rank is None:
            empties = empty.sum(axis=2)
            # 1 + the players with a higher score, or the same score and fewer empty stations
            # (scoring.ranks, vectorised; a ruleset whose ties are shared splits none)
            split = self.city.ruleset.tie_break == "fewer-empty"
            better = (scores[:, None, :] > scores[:, :, None]) | (
                (scores[:, None, :] == scores[:, :, None])
                & (empties[:, None, :] < empties[:, :, None])
                & split
            )
            rank = 1 + better.sum(axis=2)
        tie = (rank[:, None, :] == rank[:, :, None]).sum(axis=2)
        winners = (rank == 1).sum(axis=1)
        for p in range(n):
            self.scores[p].update(_counts(scores[:, p]))
            won = rank[:, p] == 1
            self.wins[p].update(_counts(winners[won]))
            self.places[p].update(dict(_counts(rank[:, p] * 64 + tie[:, p], 64)))
        self.rounds.update(_counts(rounds))
        comp = when > 0
        self.done += comp.sum(axis=(0, 1))
        self.done_rounds += when.sum(axis=(0, 1))
        fl = (firsts > 0) & comp
        self.firsts += fl.sum(axis=(0, 1))
        self.points += self._paid(comp, fl).sum(axis=(0, 1))
        R = np.broadcast_to(rounds[:, None], when.shape[:2])
        for li in range(when.shape[2]):
            w = when[:, :, li]
            m = w > 0
            if m.any():
                self.finish[li].update(dict(_counts(w[m] * 1024 + R[m], 1024)))
        self.empty += empty.sum(axis=(0, 1))
        self.boxed += boxed.sum(axis=(0, 1))

    def _paid(self, comp: np.ndarray, fl: np.ndarray) -> np.ndarray:
        """``[G, n, U]`` what each completed unit paid: ``first`` or ``others``, and of a
        branching line only what ``scoring.paying_units`` says pays (its best branch, under
        ``branch_scoring`` best), asked once per distinct way a player ran the line."""
        value = np.where(fl, self.first, self.others) * comp
        units = self.city.units
        for us in self._shared:
            codes = (comp[:, :, us] * (2 - fl[:, :, us])).reshape(-1, len(us))
            ways, inverse = np.unique(codes, axis=0, return_inverse=True)
            keep = np.zeros(ways.shape, bool)
            for w, way in enumerate(ways):
                done = {
                    units[u].label: units[u].first if c == 1 else units[u].others
                    for u, c in zip(us, way.tolist(), strict=True)
                    if c
                }
                pays = paying_units(self.city, done)
                keep[w] = [units[u].label in pays for u in us]
            value[:, :, us] *= keep[inverse.reshape(-1)].reshape((*comp.shape[:2], len(us)))
        return value

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the map (a worker's tally is merged into one that has it)."""
        return {**self.__dict__, "city": None}

    def merge(self, other: Tally) -> None:
        """Add the counts of a tally of other games (the order of merging does not matter)."""
        self.games += other.games
        for mine, theirs in (
            *zip(self.scores, other.scores, strict=True),
            *zip(self.wins, other.wins, strict=True),
            *zip(self.places, other.places, strict=True),
            *zip(self.finish, other.finish, strict=True),
            (self.rounds, other.rounds),
        ):
            mine.update(theirs)
        for name in ("done", "done_rounds", "firsts", "points", "empty", "boxed"):
            getattr(self, name).__iadd__(getattr(other, name))


def _counts(values: np.ndarray, base: int = 0) -> Any:
    """``{value: count}`` of an int array; with ``base``, keys are ``(v // base, v % base)``."""
    vals, cnt = np.unique(values, return_counts=True)
    if base:
        return [((int(v) // base, int(v) % base), int(c)) for v, c in zip(vals, cnt, strict=True)]
    return {int(v): int(c) for v, c in zip(vals, cnt, strict=True)}
