"""The rulebook's solo rating table: a solo score's band and verdict.

Below the engine, like the card table (:mod:`mapkit.cards`), so that the renderer prints the
table on a sheet's back without importing the engine; the engine's scoring reads it too.
"""

from __future__ import annotations

RATINGS: tuple[tuple[int, str], ...] = (
    (50, "WOW, you're either a genius or had incredible luck!"),
    (40, "Respect — you have professional planning talent!"),
    (30, "Congratulations, the plan worked out!"),
    (20, "Well done, you can do more than just make plans."),
    (10, "The plan didn't quite work out."),
    (5, "You're already pretty good at making plans."),
    (1, "Did you understand the rules correctly?"),
)
"""(lowest score of the band, verdict), best band first."""
LOWEST_RATING = "Voll verplant?"


def solo_band(score: int) -> str:
    """The band of the rulebook's solo table: ``50+``, ``40-49`` ... ``<1``."""
    bounds = [lo for lo, _ in RATINGS]
    for i, lo in enumerate(bounds):
        if score >= lo:
            return f"{lo}+" if i == 0 else f"{lo}-{bounds[i - 1] - 1}"
    return f"<{bounds[-1]}"


def solo_rating(score: int) -> str:
    """The rulebook's verdict for a solo score (a score of 0 falls in the lowest band)."""
    for lo, text in RATINGS:
        if score >= lo:
            return text
    return LOWEST_RATING
