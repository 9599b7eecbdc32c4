"""Final scoring and ranking (rules-notes 14-15); the solo rating (16) is the rulebook's table
in :mod:`mapkit.rating`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mapkit.rating import solo_band, solo_rating
from mapkit.rulesets import VOLL_VERPLANT, Ruleset

if TYPE_CHECKING:
    from mapkit.mapfile.model import CityMap


@dataclass(frozen=True)
class Breakdown:
    """One player's four scoring boxes and what went into them."""

    completed: dict[str, int] = field(default_factory=dict)
    interchanges: tuple[int, ...] = ()
    empty_stations: int = 0
    players: int = 1
    ruleset: Ruleset = VOLL_VERPLANT
    all_lines: int = 0
    """The all-lines bonus scored: counted with the completed lines."""

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def line_points(self) -> int:
        return sum(self.completed.values()) + self.all_lines

    @property
    def interchange_points(self) -> int:
        return self.ruleset.interchange_points(self.interchanges)

    @property
    def penalty(self) -> int:
        return self.ruleset.penalty(self.empty_stations, self.players)

    @property
    def score(self) -> int:
        return self.line_points + self.interchange_points - self.penalty


def ranks(
    scores: list[int], empty: list[int], tie_break: str = VOLL_VERPLANT.tie_break
) -> list[int]:
    """1 for the winner; equal scores split by fewer empty stations (``tie_break``
    ``fewer-empty``, the rulebook's) or not at all (``shared``); still equal: shared rank."""
    split = tie_break == "fewer-empty"
    keys = [(-s, e if split else 0) for s, e in zip(scores, empty, strict=True)]
    return [1 + sum(1 for other in keys if other < k) for k in keys]


def paying_units(city: CityMap, completed: dict[str, int]) -> dict[str, int]:
    """Of the completed scoring units (label: what it pays), those that pay: all of them, but
    of a line that pays its best branch only (rules-notes 23) the best one (the first listed
    on a tie). The kernel compiles the same rule (``kernel.completion_points``); the engine's
    breakdowns and scores are held equal by tests/test_branching.py."""
    out: dict[str, int] = {}
    best: dict[int, str] = {}
    for unit in city.units:
        if unit.label not in completed:
            continue
        line = city.lines[unit.line]
        if line.branches and line.branch_scoring == "best":
            kept = best.get(unit.line)
            if kept is not None and completed[kept] >= completed[unit.label]:
                continue
            if kept is not None:
                del out[kept]
            best[unit.line] = unit.label
        out[unit.label] = completed[unit.label]
    return out


__all__ = ["Breakdown", "paying_units", "ranks", "solo_band", "solo_rating"]
