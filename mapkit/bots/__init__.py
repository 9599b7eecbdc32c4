"""Bots that play through the engine: one interface, a registry, seeded and reproducible.

``make_bot(name, seed)`` builds a bot; ``bot.choose(state, rng=None)`` returns one of
``state.legal_actions()`` for the player to decide. See docs/simulate.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mapkit.bots.base import Bot
from mapkit.bots.clairvoyant import ClairvoyantBot
from mapkit.bots.greedy import GreedyBot
from mapkit.bots.lookahead import LookaheadBot
from mapkit.bots.simple import RandomBot

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "lookahead": LookaheadBot,
    "clairvoyant": ClairvoyantBot,
}


def make_bot(name: str, seed: int = 0, **options: Any) -> Bot:
    """A bot from the registry; ``KeyError`` names the known bots for an unknown name."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise KeyError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None
    return factory(seed=seed, **options)


__all__ = ["BOTS", "Bot", "make_bot"]
