"""The greedy bot: the legal move with the best immediate change of the evaluation."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from mapkit.bots.base import Bot, card_of, free_base, view_of
from mapkit.bots.evaluate import DEFAULT, Evaluator, Routes, View, Weights, best_moves
from mapkit.bots.model import EXPRESS, FREE, PLUS

if TYPE_CHECKING:
    from mapkit.engine import State

EXTRA_ACTION = 3.0
"""Worth of the extra action a special station earns (variant only): about one move's gain."""

Scored = tuple[float, int, int, int, int]

_TOOLS: dict[tuple[int, Weights], tuple[Any, Evaluator, Routes]] = {}
"""Evaluators and route memos shared by every bot on the same map and weights (pure caches)."""


class GreedyBot(Bot):
    name = "greedy"

    def __init__(
        self, seed: int = 0, weights: Weights = DEFAULT, noise: float = 0.25, **options: Any
    ) -> None:
        super().__init__(seed, **options)
        self.weights = weights
        self.noise = noise
        self._ev: Evaluator | None = None
        self._rt: Routes | None = None

    def tools(self, state: State) -> tuple[Evaluator, Routes]:
        """The evaluator and route memo of the state's map (memos persist across games)."""
        city = state.game.city
        if self._ev is None or self._ev.cc.city is not city:
            key = (id(city), self.weights)
            hit = _TOOLS.get(key)
            if hit is None or hit[0] is not city:
                cc = self.compiled(state)
                hit = _TOOLS[key] = (city, Evaluator(cc, self.weights), Routes(cc))
            _, self._ev, self._rt = hit
        assert self._rt is not None
        return self._ev, self._rt

    def scored(self, state: State, v: View | None = None) -> list[Scored]:
        """Every candidate ``(delta, route, crosses, station, marks)`` for the current card."""
        ev, rt = self.tools(state)
        if v is None:
            v = view_of(state, ev.cc)
        kind, value = card_of(state.card())
        moves = best_moves(ev, rt, v, kind, value, ev.base(v))
        sp = ev.cc.special_mask
        if state.game.special_stations and sp:
            moves = [
                (d + EXTRA_ACTION * (m & sp).bit_count(), ri, k, s, m) for d, ri, k, s, m in moves
            ]
        return moves

    def _fast_run(self, state: State, rng: random.Random) -> int:
        """``choose`` for number and express cards, fused for speed (same result as scored()).

        The same candidates and the same delta as :func:`best_moves` and
        :meth:`Evaluator.delta_raw`, inlined: no view, list or tuple per move.
        """
        ev, rt = self.tools(state)
        cc = ev.cc
        p = state.current_player()
        marked = state.marked(p)
        nl = len(cc.line_ids)
        wl_of = state.windows_left
        windows = [wl_of(p, li) for li in range(nl)]
        n = state.num_players()
        lost_bits = 0 if n == 1 else state.taken() & ~state.completed(p)
        pw = 1.0 if n == 1 else 0.5
        kind, value = card_of(state.card())
        express = kind == EXPRESS
        line_mask, first, others = ev._lm, ev._first, ev._others
        lmemo, line_value = ev._memo, ev._line_value
        base: list[float | None] = []
        for li in range(nl):
            lm = line_mask[li]
            m = marked & lm
            if m == lm:
                base.append(None)
                continue
            lost = lost_bits >> li & 1
            key = m << 8 | windows[li] << 1 | lost
            x = lmemo[li].get(key)
            if x is None:
                x = lmemo[li][key] = line_value(li, marked, windows[li], bool(lost))
            base.append(x)
        rmemo, masks, by_line, routes = rt.memo, rt.masks, rt.by_line, rt.routes
        noise, rand = self.noise, rng.random
        best, best_ri, best_k = None, -1, 0
        for line in range(nl):
            if not windows[line]:
                continue
            for ri in by_line[line]:
                e = rmemo[ri].get(marked & masks[ri])
                empties, run, pm, pl, _ = e if e is not None else rt.info(ri, marked)
                k = len(empties) if express else run
                if k > value:
                    k = value
                marks = pm[k]
                d = pw * k
                affected = pl[k] | 1 << line
                after = marked | marks
                while affected:
                    low = affected & -affected
                    li = low.bit_length() - 1
                    affected ^= low
                    before = base[li]
                    if before is None:
                        continue
                    lm = line_mask[li]
                    a = after & lm
                    lost = 1 if lost_bits & low else 0
                    if a == lm:
                        d += (others[li] if lost else first[li]) - before
                        continue
                    wl = windows[li] - (li == line)
                    key = a << 8 | wl << 1 | lost
                    x = lmemo[li].get(key)
                    if x is None:
                        x = lmemo[li][key] = line_value(li, after, wl, bool(lost))
                    d += x - before
                if noise:
                    d += noise * rand()
                if best is None or d >= best:
                    best, best_ri, best_k = d, ri, k
        route = routes[best_ri]
        a = route.line << 4 | best_k
        if route.direction == "backward":
            a = state.canonical(a | 8)
        return a

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
        ev, rt = self.tools(state)
        if ri < 0:
            return free_base(state, ev.cc) + (ev.cc.n if s < 0 else s)
        route = rt.routes[ri]
        a = route.line << 4 | k
        if route.direction == "backward":
            a = state.canonical(a | 8)
        return a

    def choose(self, state: State, rng: random.Random | None = None) -> int:
        if state.card() < 6 and not state.game.special_stations:
            a = self._fast_run(state, rng or self.rng)
            if state.is_legal(a):
                return a
        moves = self.scored(state)
        best = max(moves) if not self.noise else self.pick(moves, rng or self.rng)
        a = self.action(state, best)
        if state.is_legal(a):
            return a
        legal = set(state.legal_actions())
        for m in sorted(moves, reverse=True):
            a = self.action(state, m)
            if a in legal:
                return a
        acts = sorted(legal)
        return acts[int((rng or self.rng).random() * len(acts))]


def card_is_free_or_plus(kind: str) -> bool:
    return kind in (FREE, PLUS)
