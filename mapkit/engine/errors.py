"""The one exception the engine raises for a move or card the rules forbid."""

from __future__ import annotations


class IllegalMove(ValueError):
    """An action, card or record move that breaks a rule; the message names the rule."""
