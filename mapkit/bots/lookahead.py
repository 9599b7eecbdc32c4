"""The lookahead bot: expectimax over the next card, greedy evaluation at the leaves."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from mapkit.bots.base import next_cards, view_of
from mapkit.bots.evaluate import View
from mapkit.bots.greedy import GreedyBot

if TYPE_CHECKING:
    from mapkit.engine import State


class LookaheadBot(GreedyBot):
    """Value of a move = its greedy gain + E[best greedy gain of the next card].

    The next card's distribution is the draw pile (``chance_outcomes()``; the
    full deck after a 6). Only the ``width`` best moves by greedy gain are
    searched; ``discount`` weighs the future against the present.
    """

    name = "lookahead"

    def __init__(self, seed: int = 0, width: int = 6, discount: float = 1.0, **options: Any):
        super().__init__(seed, **options)
        self.width = width
        self.discount = discount

    def choose(self, state: State, rng: random.Random | None = None) -> int:
        ev = self.evaluator(state)
        cc = ev.cc
        v = view_of(state, cc)
        moves = sorted(self.scored(state, v), reverse=True)
        if len(moves) == 1 or state.is_extra_action():
            return GreedyBot.choose(self, state, rng)
        outcomes = next_cards(state)
        rand = (rng or self.rng).random
        best, best_value = None, None
        for m in moves[: self.width]:
            a = self.action(state, m)
            d, ri, _, _, marks = m
            after = View(v.marked | marks, v.windows[:], v.lost, v.done, v.inter, v.pw, v.all_lines)
            if ri >= 0:
                after.windows[cc.route_list[ri].line] -= 1
            future = 0.0
            if any(after.windows):
                for card, p in outcomes:
                    future += p * ev.best_gain(after, card)
            total = d + self.discount * future + self.noise * rand()
            if best_value is None or total > best_value:
                best, best_value = a, total
        return best if best is not None else GreedyBot.choose(self, state, rng)
