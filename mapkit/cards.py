"""The 14-card deck: card kinds, their values and the names used in game records.

The one card table, below the engine so that the design checks (completion chances) and the
renderer (the card back, the deck) read it without importing the engine. The rules that read
it (the crosses a card allows, the dealer) are functions of the game kernel
(``mapkit/engine/kernel.py``), which builds its C arrays from these tuples.
"""

from __future__ import annotations

N3, N4, N5, N6, X2, X3, PLUS, FREE = range(8)
CARD_NAMES: tuple[str, ...] = ("3", "4", "5", "6", "x2", "x3", "+", "free")
DECK_COUNTS: tuple[int, ...] = (2, 3, 2, 1, 2, 1, 2, 1)
CARD_VALUE: tuple[int, ...] = (3, 4, 5, 6, 2, 3, 0, 0)
CARD_EXPRESS: tuple[bool, ...] = (False, False, False, False, True, True, False, False)
DECK: tuple[int, ...] = tuple(k for k, n in enumerate(DECK_COUNTS) for _ in range(n))
DECK_SIZE = len(DECK)
"""Cards in a full pile (14): after the round of the 6 all of them return."""
SIX = N6
CARD_BY_NAME: dict[str, int] = {name: k for k, name in enumerate(CARD_NAMES)}


def card_kind(name: str) -> int:
    """The card kind of a record's card name; ``KeyError`` for a name the deck has not."""
    return CARD_BY_NAME[name]


def window_text(card: int) -> str:
    """What a player writes into the window for a card: the plain value, or ``+``."""
    return "+" if card == PLUS else str(CARD_VALUE[card])
