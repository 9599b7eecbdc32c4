"""Final scoring, ranking and the solo rating (rules-notes 14-16)."""

from __future__ import annotations

from dataclasses import dataclass, field

from mapkit.engine.kernel import penalty

RATINGS: tuple[tuple[int, str], ...] = (
    (50, "WOW, you're either a genius or had incredible luck!"),
    (40, "Respect — you have professional planning talent!"),
    (30, "Congratulations, the plan worked out!"),
    (20, "Well done, you can do more than just make plans."),
    (10, "The plan didn't quite work out."),
    (5, "You're already pretty good at making plans."),
    (1, "Did you understand the rules correctly?"),
)
LOWEST_RATING = "Voll verplant?"


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


def solo_band(score: int) -> str:
    """The band of the rulebook's solo table: ``50+``, ``40-49`` ... ``<1``."""
    bounds = [50, 40, 30, 20, 10, 5, 1]
    for i, lo in enumerate(bounds):
        if score >= lo:
            return "50+" if i == 0 else f"{lo}-{bounds[i - 1] - 1}"
    return "<1"


def solo_rating(score: int) -> str:
    """The rulebook's verdict for a solo score (a score of 0 falls in the lowest band)."""
    for lo, text in RATINGS:
        if score >= lo:
            return text
    return LOWEST_RATING
