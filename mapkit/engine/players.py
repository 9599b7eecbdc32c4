"""A built-in uniformly random player, for ``mapkit play`` when no bots registry exists."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mapkit.engine.state import State


class RandomPlayer:
    """Same interface as the bots: ``choose(state) -> action``, seeded and reproducible."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, rng: random.Random | None = None) -> int:
        acts = state.legal_actions()
        return acts[int((rng or self.rng).random() * len(acts))]
