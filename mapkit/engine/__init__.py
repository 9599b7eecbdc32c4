"""The reference rules engine: ``Game(city, options)`` and OpenSpiel-shaped states.

Knows nothing of files or screens; records are parsed in ``record.py``.
"""

from mapkit.engine.cards import CARD_NAMES, CHANCE, TERMINAL, card_kind
from mapkit.engine.errors import IllegalMove
from mapkit.engine.game import Game, GameOptions
from mapkit.engine.scoring import Breakdown, ranks, solo_band, solo_rating
from mapkit.engine.state import State
from mapkit.rulesets import RULESETS, Ruleset, get_ruleset

__all__ = [
    "CARD_NAMES", "CHANCE", "RULESETS", "TERMINAL", "Breakdown", "Game", "GameOptions",
    "IllegalMove", "Ruleset", "State", "card_kind", "get_ruleset", "ranks", "solo_band",
    "solo_rating",
]  # fmt: skip
