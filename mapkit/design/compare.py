"""``mapkit compare A B``: two versions of a map on the same decks, differences with intervals.

Both maps play decks ``0 .. N-1`` of the same seed, so solo scores pair deck by deck (common
random numbers: the paired difference's interval is far tighter than two separate ones).
Per line (matched by id) the completion share and the points paid are compared as independent
samples (Welch / two-proportion normal intervals). A difference is **significant** when its
95 % interval excludes 0. With ``decisions`` on, the decision share is measured on both (a
clustered interval each; the difference's standard error is the root sum of squares).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from mapkit.design.decisions import Decisions, measure_decisions
from mapkit.design.intervals import (
    Z95,
    Estimate,
    difference_ci,
    paired_difference_ci,
    significant,
)
from mapkit.design.profile import Profile, profile
from mapkit.mapfile.model import CityMap

LUCK_GAMES = 200
"""Decks on which lookahead plays for the luck share (about 0.4 s per 200 Berlin decks)."""


def _diff(a: Estimate, b: Estimate) -> Estimate:
    se = math.sqrt(a.se**2 + b.se**2)
    d = b.value - a.value
    return Estimate(d, d - Z95 * se, d + Z95 * se, se)


@dataclass
class Row:
    figure: str
    a: Estimate
    b: Estimate
    diff: Estimate

    @property
    def significant(self) -> bool:
        return significant(self.diff)

    def to_dict(self) -> dict[str, object]:
        return {
            "figure": self.figure,
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "difference": self.diff.to_dict(),
            "significant": self.significant,
        }


@dataclass
class Comparison:
    a: str
    b: str
    games: int
    seed: int
    rows: list[Row] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "seed": self.seed,
            "rows": [r.to_dict() for r in self.rows],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def to_text(self) -> str:
        out = [
            f"A = {self.a}, B = {self.b}: {self.games} decks, seed {self.seed} "
            "(95 % intervals; * = significant)",
            "",
        ]
        w = max(len(r.figure) for r in self.rows)
        out.append(f"{'figure':<{w}}  {'A':>24}  {'B':>24}  {'B - A':>26}")
        for r in self.rows:
            star = " *" if r.significant else ""
            f = (
                ".3f"
                if "share" in r.figure or "completed" in r.figure or "matters" in r.figure
                else ".2f"
            )
            out.append(
                f"{r.figure:<{w}}  {r.a.text(f):>24}  {r.b.text(f):>24}  {r.diff.text(f):>24}{star}"
            )
        return "\n".join(out) + "\n"


def compare_profiles(
    pa: Profile,
    pb: Profile,
    seed: int,
    da: Decisions | None = None,
    db: Decisions | None = None,
    names: tuple[str, str] | None = None,
) -> Comparison:
    from mapkit.design.intervals import mean_ci

    cmp = Comparison(*(names or (pa.map_id, pb.map_id)), pa.games, seed)
    cmp.rows.append(
        Row(
            "greedy solo mean",
            mean_ci(pa.greedy),
            mean_ci(pb.greedy),
            paired_difference_ci(pa.greedy, pb.greedy),
        )
    )
    ha, hb = pa.headroom, pb.headroom
    cmp.rows.append(Row("skill headroom (greedy - random)", ha, hb, _diff(ha, hb)))
    if pa.lookahead is not None and pb.lookahead is not None:
        la, lb = pa.luck_ci(), pb.luck_ci()
        cmp.rows.append(Row("luck share (greedy, lookahead)", la, lb, _diff(la, lb)))
    if da is not None and db is not None:
        cmp.rows.append(
            Row("decisions: choice matters", da.share, db.share, _diff(da.share, db.share))
        )
        cmp.rows.append(Row("decisions: regret", da.regret, db.regret, _diff(da.regret, db.regret)))
    for lid, a in pa.lines.items():
        b = pb.lines.get(lid)
        if b is None:
            continue
        cmp.rows.append(
            Row(
                f"line {lid} completed",
                a.completion,
                b.completion,
                _diff(a.completion, b.completion),
            )
        )
        cmp.rows.append(
            Row(
                f"line {lid} points paid",
                a.points,
                b.points,
                difference_ci(a.points_list, b.points_list),
            )
        )
    return cmp


def compare_maps(
    a: CityMap,
    b: CityMap,
    games: int,
    seed: int,
    players: int = 1,
    decision_games: int = 0,
    special: bool = False,
    jobs: int = 1,
    names: tuple[str, str] | None = None,
) -> Comparison:
    luck = min(games, LUCK_GAMES)
    pa = profile(a, games, seed, players, special, jobs, luck)
    pb = profile(b, games, seed, players, special, jobs, luck)
    da = db = None
    if decision_games:
        da = measure_decisions(a, decision_games, seed, special=special)
        db = measure_decisions(b, decision_games, seed, special=special)
    return compare_profiles(pa, pb, seed, da, db, names)
