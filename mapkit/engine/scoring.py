"""Final scoring and ranking (rules-notes 14-15); the solo rating (16) is the rulebook's table
in :mod:`mapkit.rating`."""

from __future__ import annotations

from dataclasses import dataclass, field

from mapkit.engine.kernel import penalty
from mapkit.rating import solo_band, solo_rating


@dataclass(frozen=True)
class Breakdown:
    """One player's four scoring boxes and what went into them."""

    completed: dict[str, int] = field(default_factory=dict)
    interchanges: tuple[int, ...] = ()
    empty_stations: int = 0
    solo: bool = False

    @property
    def line_points(self) -> int:
        return sum(self.completed.values())

    @property
    def interchange_points(self) -> int:
        return 2 * sum(self.interchanges)

    @property
    def penalty(self) -> int:
        return penalty(self.empty_stations, 1 if self.solo else 2)

    @property
    def score(self) -> int:
        return self.line_points + self.interchange_points - self.penalty


def ranks(scores: list[int], empty: list[int]) -> list[int]:
    """1 for the winner; equal scores split by fewer empty stations; still equal: shared rank."""
    keys = [(-s, e) for s, e in zip(scores, empty, strict=True)]
    return [1 + sum(1 for other in keys if other < k) for k in keys]


__all__ = ["Breakdown", "ranks", "solo_band", "solo_rating"]
