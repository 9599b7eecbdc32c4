"""Per line: the race as a curve, who finishes first, and the points it really pays.

From greedy games with the report's seating (kernel-played): ``curve[r]`` is the share of
player-games in which the line was completed by round ``r + 1``; ``first_share`` the share of
games in which some player completed it for the ``first`` bonus; ``expected`` the mean bonus
points it paid per player-game, beside the printed ``first``/``others``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mapkit.design.intervals import (
    Estimate,
    clustered_mean_ci,
    clustered_proportion_ci,
    proportion_ci,
)
from mapkit.mapfile.model import CityMap
from mapkit.simulate import GameOutcome


@dataclass
class LineRace:
    line: str
    windows: int
    first: int
    others: int
    completion: Estimate
    first_share: Estimate
    expected: Estimate
    curve: list[float]

    def to_dict(self) -> dict[str, object]:
        return {
            "line": self.line,
            "windows": self.windows,
            "printed": {"first": self.first, "others": self.others},
            "completion": self.completion.to_dict(),
            "first_share": self.first_share.to_dict(),
            "expected_points": self.expected.to_dict(),
            "curve": [round(x, 4) for x in self.curve],
        }


def measure_races(
    city: CityMap, players: int, games: int, seed: int, special: bool = False, jobs: int = 1
) -> list[LineRace]:
    from mapkit.simulate import RunConfig, simulate

    cfg = RunConfig(("greedy",) * players, games, seed, special_stations=special)
    return races_of(city, simulate(city, cfg, jobs))


def races_of(city: CityMap, played: Sequence[GameOutcome]) -> list[LineRace]:
    """The line races of some games (all with the same seating)."""
    games, players = len(played), len(played[0].seats)
    horizon = max(o.rounds for o in played)
    n = games * players
    out = []
    for unit in city.units:  # a line, or a branch of a branching line
        uid = unit.label
        rounds = [s.completed[uid][0] for o in played for s in o.seats if uid in s.completed]
        done = [sum(uid in s.completed for s in o.seats) for o in played]
        pts = [[s.completed.get(uid, (0, 0))[1] for s in o.seats] for o in played]
        firsts = sum(any(uid in s.first for s in o.seats) for o in played)
        curve = [sum(1 for x in rounds if x <= r) / n for r in range(1, horizon + 1)]
        out.append(
            LineRace(
                uid,
                city.lines[unit.line].windows,
                unit.first,
                unit.others,
                clustered_proportion_ci(done, players),
                proportion_ci(firsts, games),
                clustered_mean_ci(pts),
                curve,
            )
        )
    return out
