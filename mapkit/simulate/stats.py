"""Aggregate many game outcomes into the simulation report (see docs/simulate.md).

Every figure is a plain function of the outcomes, in game order, so a report
does not depend on how the games were spread over processes.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain, repeat
from typing import Any

from mapkit.mapfile.model import CityMap
from mapkit.simulate.outcome import GameOutcome
from mapkit.simulate.tally import Tally, _fsum_counts

FALLBACK_RANGE = (2, 7)
"""Bonus range for suggestions when every printed ``first`` is equal (the published spread)."""


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default, Hyndman-Fan type 7)."""
    n = len(sorted_values)
    if n == 0:
        return math.nan
    pos = (n - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, n - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


@dataclass
class SeatStats:
    bot: str
    mean: float
    sd: float
    se: float
    p10: float
    p50: float
    p90: float
    win_rate: float
    partial_win_rate: float


@dataclass
class LineStats:
    id: str
    first: int
    others: int
    completion_rate: float
    mean_round: float | None
    first_rate: float | None
    points: float
    difficulty: float
    suggested_first: int
    suggested_others: int


@dataclass
class StationStats:
    id: str
    lines: int
    empty_rate: float
    interchange_rate: float


@dataclass
class Report:
    map_id: str
    map_name: str
    games: int
    variant: str
    seed: int | None
    seats: list[SeatStats]
    ruleset: str
    balance: float | None
    rounds_mean: float
    rounds_min: int
    rounds_max: int
    lines: list[LineStats]
    stations: list[StationStats]
    engine: str = ""
    """The engine that played the games (``kernel`` or ``checked``; empty: not said)."""
    extra: dict[str, Any] = field(default_factory=dict)


def partial_win(rank: int, tied: int, players: int) -> float:
    """Ludii's partial win: 1 - (r - 1)/(n - 1), r the mean place of a player's tie group.

    Ranks are competition ranks (1, 1, 3); a tie group of size k starting at
    rank r occupies places r .. r+k-1, and Ludii scores it at their mean.
    """
    if players == 1:
        return 1.0
    place = rank + (tied - 1) / 2
    return 1.0 - (place - 1) / (players - 1)


def partial_wins(outcome: GameOutcome) -> list[float]:
    """:func:`partial_win` of every seat of a game."""
    n = len(outcome.seats)
    return [
        partial_win(s.rank, sum(1 for o in outcome.seats if o.rank == s.rank), n)
        for s in outcome.seats
    ]


def ludii_balance(rates: Sequence[float]) -> float | None:
    """Ludii's Balance: 1 - the largest difference between two seats' partial-win rates."""
    if len(rates) < 2:
        return None
    return 1.0 - (max(rates) - min(rates))


def suggest(city: CityMap, difficulties: dict[str, float]) -> dict[str, tuple[int, int]]:
    """Stretch measured difficulty linearly over the printed range of ``first`` values.

    The easiest line gets the smallest printed ``first``, the hardest the largest;
    ``others`` keeps the map's printed overall others/first ratio (at least 1, at
    most ``first``). With no spread in difficulty the printed values stand.
    """
    units = city.units  # the lines, and a branching line's branches
    firsts = [u.first for u in units]
    lo, hi = min(firsts), max(firsts)
    if lo == hi:
        lo, hi = FALLBACK_RANGE
    ratio = sum(u.others for u in units) / max(1, sum(firsts))
    ds = [d for d in difficulties.values() if not math.isnan(d)]
    out = {}
    for u in units:
        d = difficulties[u.label]
        if not ds or max(ds) - min(ds) < 1e-9 or math.isnan(d):
            out[u.label] = (u.first, u.others)
            continue
        first = round(lo + (hi - lo) * (d - min(ds)) / (max(ds) - min(ds)))
        others = min(first, max(1 if first else 0, round(first * ratio)))
        out[u.label] = (first, others)
    return out


def summarize(
    city: CityMap,
    played: Tally | Sequence[GameOutcome],
    *,
    variant: str = "standard",
    seed: int | None = None,
) -> Report:
    """The report of a run's games, all with the same seating: their streaming counts
    (``run``'s tally, any number of games) or their outcomes (``simulate``'s list)."""
    if not isinstance(played, Tally):
        if not played:
            raise ValueError("no games to summarize")
        played = tally_of(city, played)
    return report(played, variant=variant, seed=seed)


def tally_of(city: CityMap, outcomes: Sequence[GameOutcome]) -> Tally:
    """The streaming counts of a list of outcomes (their own ranks kept)."""
    import numpy as np

    n = len(outcomes[0].seats)
    G = len(outcomes)
    line_index = {u.label: i for i, u in enumerate(city.units)}
    station_index = {st.id: i for i, st in enumerate(city.stations)}
    L, S = len(line_index), len(station_index)
    scores = np.zeros((G, n), np.int64)
    rank = np.zeros((G, n), np.int64)
    rounds = np.zeros(G, np.int64)
    when = np.zeros((G, n, L), np.int64)
    firsts = np.zeros((G, n, L), np.int8)
    empty = np.zeros((G, n, S), np.int8)
    boxed = np.zeros((G, n, S), np.int8)
    for g, o in enumerate(outcomes):
        rounds[g] = o.rounds
        for p, s in enumerate(o.seats):
            scores[g, p] = s.score
            rank[g, p] = s.rank
            for lid, (r, _) in s.completed.items():
                when[g, p, line_index[lid]] = r
            for lid in s.first:
                firsts[g, p, line_index[lid]] = 1
            for sid in s.empty:
                empty[g, p, station_index[sid]] = 1
            for sid in s.interchanges:
                boxed[g, p, station_index[sid]] = 1
    tally = Tally(city, tuple(s.bot for s in outcomes[0].seats), outcomes[0].engine)
    tally.add(scores, rounds, when, firsts, empty, boxed, rank)
    return tally


class _Sorted(Sequence[int]):
    """The sorted values a histogram counts, as a read-only sequence (for :func:`quantile`)."""

    def __init__(self, hist: dict[int, int]) -> None:
        self.keys = sorted(hist)
        self.ends = list(accumulate(hist[k] for k in self.keys))

    def __len__(self) -> int:
        return self.ends[-1] if self.ends else 0

    def __getitem__(self, i: int) -> int:  # type: ignore[override]
        return self.keys[bisect_right(self.ends, i)]


def report(tally: Tally, *, variant: str = "standard", seed: int | None = None) -> Report:
    """The report of a tally: every figure as ``summarize`` defines it (docs/simulate.md)."""
    city = tally.city
    n = tally.games
    n_seats = tally.n
    seats = []
    partial_rates = []
    for i in range(n_seats):
        hist = tally.scores[i]
        m = _fsum_counts(hist, float) / n
        sd = 0.0 if n == 1 else math.sqrt(_fsum_counts(hist, lambda v, m=m: (v - m) ** 2) / (n - 1))
        ordered = _Sorted(hist)
        p10, p50, p90 = (quantile(ordered, q) for q in (0.1, 0.5, 0.9))
        pw = _fsum_counts(tally.places[i], lambda rk: partial_win(*rk, n_seats)) / n
        partial_rates.append(pw)
        seats.append(
            SeatStats(
                bot=tally.bots[i],
                mean=m,
                sd=sd,
                se=sd / math.sqrt(n),
                p10=p10,
                p50=p50,
                p90=p90,
                win_rate=_fsum_counts(tally.wins[i], lambda k: 1.0 / k) / n,
                partial_win_rate=pw,
            )
        )
    player_games = n * n_seats
    diffs = {}
    for li, ln in enumerate(city.units):
        rest = repeat(1.0, player_games - int(tally.done[li]))
        finish = tally.finish[li]
        done = (x for (r, rr), c in finish.items() for x in repeat(r / (rr + 1), c))
        diffs[ln.label] = math.fsum(chain(done, rest)) / player_games
    suggested = suggest(city, diffs)
    lines = []
    for li, ln in enumerate(city.units):
        done = int(tally.done[li])
        lines.append(
            LineStats(
                id=ln.label,
                first=ln.first,
                others=ln.others,
                completion_rate=done / player_games,
                mean_round=int(tally.done_rounds[li]) / done if done else None,
                first_rate=int(tally.firsts[li]) / done if done else None,
                points=int(tally.points[li]) / player_games,
                difficulty=diffs[ln.label],
                suggested_first=suggested[ln.label][0],
                suggested_others=suggested[ln.label][1],
            )
        )
    stations = [
        StationStats(
            id=st.id,
            lines=city.intersection_count(st.id),
            empty_rate=int(tally.empty[si]) / player_games,
            interchange_rate=int(tally.boxed[si]) / player_games,
        )
        for si, st in enumerate(city.stations)
    ]
    rounds = tally.rounds
    return Report(
        map_id=city.id,
        map_name=city.name,
        games=n,
        variant=variant,
        seed=seed,
        seats=seats,
        ruleset=city.ruleset.id,
        balance=ludii_balance(partial_rates),
        rounds_mean=_fsum_counts(rounds, float) / n,
        rounds_min=min(rounds),
        rounds_max=max(rounds),
        lines=lines,
        stations=stations,
        engine=tally.engine,
    )
