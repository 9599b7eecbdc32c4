"""The card kinds: what each card does, its value and its name in game records.

The one card table, below the engine so that the design checks (completion chances) and the
renderer (the card back, the deck) read it without importing the engine. How many of each kind
a deck holds, and which card reshuffles it, is a ruleset's (:mod:`mapkit.rulesets`). The rules
that read this table (the crosses a card allows, the dealer) are functions of the game kernel
(``mapkit/engine/kernel.py``), which builds its C arrays from these tuples.

A kind's index is part of every dealt game (the dealer walks a pile in kind order), so new
kinds are appended: the 2 of OKAZU's Metro X comes last.
"""

from __future__ import annotations

N3, N4, N5, N6, X2, X3, PLUS, FREE, N2 = range(9)
CARD_NAMES: tuple[str, ...] = ("3", "4", "5", "6", "x2", "x3", "+", "free", "2")
CARD_VALUE: tuple[int, ...] = (3, 4, 5, 6, 2, 3, 0, 0, 2)
CARD_EXPRESS: tuple[bool, ...] = (False, False, False, False, True, True, False, False, False)
N_KINDS = len(CARD_NAMES)
MAX_VALUE = max(CARD_VALUE)
CARD_BY_NAME: dict[str, int] = {name: k for k, name in enumerate(CARD_NAMES)}


def card_kind(name: str) -> int:
    """The card kind of a record's card name; ``KeyError`` for a name the table has not."""
    return CARD_BY_NAME[name]


def window_text(card: int) -> str:
    """What a player writes into the window for a card: the plain value, or ``+``."""
    return "+" if card == PLUS else str(CARD_VALUE[card])
