"""The card kinds as the engine reads them (:mod:`mapkit.cards`; a deck is a ruleset's,
:mod:`mapkit.rulesets`) and the two player ids that are no player (OpenSpiel's chance and
terminal ids)."""

from __future__ import annotations

from mapkit.cards import (
    CARD_BY_NAME,
    CARD_EXPRESS,
    CARD_NAMES,
    CARD_VALUE,
    FREE,
    PLUS,
    card_kind,
    window_text,
)

CHANCE = -1
"""``current_player()`` while a card is to be revealed (OpenSpiel's chance player id)."""
TERMINAL = -4
"""``current_player()`` once the game is over (OpenSpiel's terminal player id)."""

__all__ = [
    "CARD_BY_NAME",
    "CARD_EXPRESS",
    "CARD_NAMES",
    "CARD_VALUE",
    "CHANCE",
    "FREE",
    "PLUS",
    "TERMINAL",
    "card_kind",
    "window_text",
]
