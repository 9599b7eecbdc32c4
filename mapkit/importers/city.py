"""A city name from a feed's operator names: ``Metro - Los Angeles`` -> ``Los Angeles``.

Feeds name their operator, not their city; the sheet's title (and its badge, the initials
of the title's first two words) wants the place. Operator words are dropped when a place
word remains; a name that is all operator words (``Regional Transportation District``)
gives way to the next candidate, then to the feed's time zone city.
"""

from __future__ import annotations

import re

OPERATOR_WORDS = frozenset({
    "metro", "metropolitan", "transit", "transportation", "transport", "authority", "agency",
    "rail", "railway", "railways", "railroad", "bus", "buses", "lines", "company", "corporation",
    "corp", "inc", "ltd", "llc", "gmbh", "ag", "district", "commission", "department", "dept",
    "regional", "public", "mass", "rapid", "system", "systems", "services", "service",
    "operator", "operations", "network",
})  # fmt: skip
"""Words that name an operator or what it runs, never the place it serves."""

FILLER_WORDS = frozenset({"of", "the", "and", "for", "city"})
"""Words that are no place on their own: trimmed from the ends of what remains."""

_PUNCTUATION = re.compile(r"^[\W_]+|[\W_]+$")


def _word(token: str) -> str:
    return _PUNCTUATION.sub("", token).casefold()


def place_part(name: str) -> str | None:
    """The place an operator's name holds, or None when it holds only operator words."""
    tokens = [t for t in name.split() if _word(t) and _word(t) not in OPERATOR_WORDS]
    while tokens and _word(tokens[0]) in FILLER_WORDS:
        tokens.pop(0)
    while tokens and _word(tokens[-1]) in FILLER_WORDS:
        tokens.pop()
    if not tokens:
        return None
    return _PUNCTUATION.sub("", " ".join(tokens))


def timezone_city(zone: str) -> str | None:
    """``America/Los_Angeles`` -> ``Los Angeles``; None for a zone with no city part."""
    _, slash, city = zone.strip().rpartition("/")
    return city.replace("_", " ") if slash and city else None


def city_name(candidates: list[str], zones: list[str], fallback: str) -> str:
    """The first candidate's place, else the first time zone's city, else ``fallback``."""
    for name in candidates:
        place = place_part(name)
        if place:
            return place
    for zone in zones:
        city = timezone_city(zone)
        if city:
            return city
    return fallback
