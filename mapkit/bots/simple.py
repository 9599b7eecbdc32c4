"""The random bot: a uniformly random legal action."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from mapkit.bots.base import Bot

if TYPE_CHECKING:
    from mapkit.engine import State


class RandomBot(Bot):
    name = "random"

    def choose(self, state: State, rng: random.Random | None = None) -> int:
        acts = state.legal_actions()
        return acts[int((rng or self.rng).random() * len(acts))]
