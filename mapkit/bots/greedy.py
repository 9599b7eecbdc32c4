"""The greedy bot: the legal move with the best immediate change of the evaluation."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from mapkit.bots.base import Bot, free_base, view_of
from mapkit.bots.evaluate import DEFAULT, Evaluator, Scored, View, Weights, best_moves
from mapkit.engine.actions import line_move

if TYPE_CHECKING:
    from mapkit.engine import State

EXTRA_ACTION = 3.0
"""Worth of the extra action a special station earns (variant only): about one move's gain."""


_TOOLS: dict[tuple[int, Weights], tuple[Any, Evaluator]] = {}
"""Evaluators shared by every bot on the same map and weights."""
_TOOLS_KEPT = 8
"""The last few maps' evaluators are kept (as the engine keeps its tables' memos)."""


class GreedyBot(Bot):
    name = "greedy"

    def __init__(
        self, seed: int = 0, weights: Weights = DEFAULT, noise: float = 0.25, **options: Any
    ) -> None:
        super().__init__(seed, **options)
        self.weights = weights
        self.noise = noise
        self._ev: Evaluator | None = None

    def evaluator(self, state: State) -> Evaluator:
        """The evaluator of the state's map and this bot's weights."""
        city = state.game.city
        if self._ev is None or self._ev.cc.city is not city:
            key = (id(city), self.weights)
            hit = _TOOLS.get(key)
            if hit is None or hit[0] is not city:
                cc = self.compiled(state)
                hit = _TOOLS[key] = (city, Evaluator(cc, self.weights))
                while len(_TOOLS) > _TOOLS_KEPT:
                    del _TOOLS[next(iter(_TOOLS))]
            self._ev = hit[1]
        return self._ev

    def scored(self, state: State, v: View | None = None) -> list[Scored]:
        """Every candidate ``(delta, route, crosses, station, marks)`` for the current card."""
        ev = self.evaluator(state)
        if v is None:
            v = view_of(state, ev.cc)
        extra = EXTRA_ACTION if state.game.special_stations and ev.cc.special_mask else 0.0
        return best_moves(ev, v, state.card(), extra)

    def pick(self, moves: list[Scored], rng: random.Random) -> Scored:
        """The best move after adding uniform noise in ``[0, noise)`` to every gain.

        Identical bots in several seats would otherwise play identical games; the
        noise (a quarter point by default) only reorders moves within that margin.
        """
        noise, rand = self.noise, rng.random
        return max(moves, key=lambda m: m[0] + noise * rand())

    def action(self, state: State, move: Scored) -> int:
        """The engine action of a scored candidate."""
        _, ri, k, s, _ = move
        cc = self.evaluator(state).cc
        if ri < 0:
            return free_base(state, cc) + (cc.n if s < 0 else s)
        route = cc.route_list[ri]
        a = line_move(route.line, route.route, k)
        return state.canonical(a) if route.route else a

    def choose(self, state: State, rng: random.Random | None = None) -> int:
        moves = self.scored(state)
        best = max(moves) if not self.noise else self.pick(moves, rng or self.rng)
        return self.action(state, best)
