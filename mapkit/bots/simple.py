"""The random bot: a uniformly random legal action."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from mapkit.bots.base import Bot

if TYPE_CHECKING:
    from mapkit.engine import State


class RandomBot(Bot):
    """A uniformly random legal action (``State.random_action``: no list is built).

    It reads the same rule table as ``legal_actions``; a game of random seats only is
    ``State.seeded_playout``; ``mapkit simulate`` plays it in the kernel (the same games).
    """

    name = "random"
    legal_only = True

    def choose(self, state: State, rng: random.Random | None = None) -> int:
        return state.random_action((rng or self.rng).random)
