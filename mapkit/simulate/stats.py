"""Aggregate many game outcomes into the simulation report (see docs/simulate.md).

Every figure is a plain function of the outcomes, in game order, so a report
does not depend on how the games were spread over processes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mapkit.mapfile.model import CityMap
from mapkit.simulate.outcome import GameOutcome

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


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (n - 1; 0 for a single value)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    m = math.fsum(values) / n
    if n == 1:
        return m, 0.0
    return m, math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))


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
    balance: float | None
    rounds_mean: float
    rounds_min: int
    rounds_max: int
    lines: list[LineStats]
    stations: list[StationStats]
    extra: dict[str, Any] = field(default_factory=dict)


def win_shares(outcome: GameOutcome) -> list[float]:
    """1/k to each of the k players ranked first, 0 to the others."""
    winners = [s.rank == 1 for s in outcome.seats]
    k = sum(winners)
    return [1.0 / k if w else 0.0 for w in winners]


def partial_wins(outcome: GameOutcome) -> list[float]:
    """Ludii's partial win: 1 - (r - 1)/(n - 1), r the mean place of a player's tie group.

    Ranks are competition ranks (1, 1, 3); a tie group of size k starting at
    rank r occupies places r .. r+k-1, and Ludii scores it at their mean.
    """
    n = len(outcome.seats)
    if n == 1:
        return [1.0]
    out = []
    for s in outcome.seats:
        k = sum(1 for o in outcome.seats if o.rank == s.rank)
        place = s.rank + (k - 1) / 2
        out.append(1.0 - (place - 1) / (n - 1))
    return out


def ludii_balance(rates: Sequence[float]) -> float | None:
    """Ludii's Balance: 1 - the largest difference between two seats' partial-win rates."""
    if len(rates) < 2:
        return None
    return 1.0 - (max(rates) - min(rates))


def difficulty(city: CityMap, outcomes: Sequence[GameOutcome], line_id: str) -> float:
    """Mean over player-games of round/(rounds+1) when completed, 1 when not (0 easy .. 1 never)."""
    total, n = 0.0, 0
    for g in outcomes:
        for s in g.seats:
            done = s.completed.get(line_id)
            total += done[0] / (g.rounds + 1) if done else 1.0
            n += 1
    return total / n if n else math.nan


def suggest(city: CityMap, difficulties: dict[str, float]) -> dict[str, tuple[int, int]]:
    """Stretch measured difficulty linearly over the printed range of ``first`` values.

    The easiest line gets the smallest printed ``first``, the hardest the largest;
    ``others`` keeps the map's printed overall others/first ratio (at least 1, at
    most ``first``). With no spread in difficulty the printed values stand.
    """
    firsts = [ln.first for ln in city.lines]
    lo, hi = min(firsts), max(firsts)
    if lo == hi:
        lo, hi = FALLBACK_RANGE
    ratio = sum(ln.others for ln in city.lines) / max(1, sum(firsts))
    ds = [d for d in difficulties.values() if not math.isnan(d)]
    out = {}
    for ln in city.lines:
        d = difficulties[ln.id]
        if not ds or max(ds) - min(ds) < 1e-9 or math.isnan(d):
            out[ln.id] = (ln.first, ln.others)
            continue
        first = round(lo + (hi - lo) * (d - min(ds)) / (max(ds) - min(ds)))
        others = min(first, max(1 if first else 0, round(first * ratio)))
        out[ln.id] = (first, others)
    return out


def summarize(
    city: CityMap,
    outcomes: Sequence[GameOutcome],
    *,
    variant: str = "standard",
    seed: int | None = None,
) -> Report:
    """The report over outcomes (all with the same seating)."""
    if not outcomes:
        raise ValueError("no games to summarize")
    n_seats = len(outcomes[0].seats)
    seats = []
    partial_rates = []
    n = len(outcomes)
    shares = [win_shares(g) for g in outcomes]
    partial = [partial_wins(g) for g in outcomes]
    for i in range(n_seats):
        scores = [g.seats[i].score for g in outcomes]
        m, sd = mean_sd(scores)
        ordered = sorted(scores)
        pw = math.fsum(p[i] for p in partial) / n
        partial_rates.append(pw)
        seats.append(
            SeatStats(
                bot=outcomes[0].seats[i].bot,
                mean=m,
                sd=sd,
                se=sd / math.sqrt(n),
                p10=quantile(ordered, 0.1),
                p50=quantile(ordered, 0.5),
                p90=quantile(ordered, 0.9),
                win_rate=math.fsum(s[i] for s in shares) / n,
                partial_win_rate=pw,
            )
        )
    rounds = [g.rounds for g in outcomes]
    player_games = n * n_seats

    diffs = {ln.id: difficulty(city, outcomes, ln.id) for ln in city.lines}
    suggested = suggest(city, diffs)
    lines = []
    for ln in city.lines:
        done = [s.completed[ln.id] for g in outcomes for s in g.seats if ln.id in s.completed]
        firsts = sum(1 for g in outcomes for s in g.seats if ln.id in s.first)
        lines.append(
            LineStats(
                id=ln.id,
                first=ln.first,
                others=ln.others,
                completion_rate=len(done) / player_games,
                mean_round=math.fsum(r for r, _ in done) / len(done) if done else None,
                first_rate=firsts / len(done) if done else None,
                points=math.fsum(p for _, p in done) / player_games,
                difficulty=diffs[ln.id],
                suggested_first=suggested[ln.id][0],
                suggested_others=suggested[ln.id][1],
            )
        )
    empty = dict.fromkeys((st.id for st in city.stations), 0)
    inter = dict.fromkeys(empty, 0)
    for g in outcomes:
        for s in g.seats:
            for sid in s.empty:
                empty[sid] += 1
            for sid in s.interchanges:
                inter[sid] += 1
    stations = [
        StationStats(
            id=st.id,
            lines=city.intersection_count(st.id),
            empty_rate=empty[st.id] / player_games,
            interchange_rate=inter[st.id] / player_games,
        )
        for st in city.stations
    ]
    return Report(
        map_id=city.id,
        map_name=city.name,
        games=n,
        variant=variant,
        seed=seed,
        seats=seats,
        balance=ludii_balance(partial_rates),
        rounds_mean=math.fsum(rounds) / n,
        rounds_min=min(rounds),
        rounds_max=max(rounds),
        lines=lines,
        stations=stations,
    )
