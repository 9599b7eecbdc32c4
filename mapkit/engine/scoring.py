"""Final scoring and ranking (rules-notes 14-15); the solo rating (16) is the rulebook's table
in :mod:`mapkit.rating`."""

from __future__ import annotations

from dataclasses import dataclass, field

from mapkit.rating import solo_band, solo_rating
from mapkit.rulesets import VOLL_VERPLANT, Ruleset


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


__all__ = ["Breakdown", "ranks", "solo_band", "solo_rating"]
