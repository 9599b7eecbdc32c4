"""The greedy bot: the legal move with the best immediate change of the evaluation."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mapkit.bots.base import Bot, card_of, free_base, view_of
from mapkit.bots.evaluate import DEFAULT, Evaluator, Routes, View, Weights, best_moves
from mapkit.bots.model import FREE, PLUS
from mapkit.engine.cards import PLUS as _PLUS
from mapkit.engine.cards import most_crosses

if TYPE_CHECKING:
    from mapkit.engine import State

EXTRA_ACTION = 3.0
"""Worth of the extra action a special station earns (variant only): about one move's gain."""

Scored = tuple[float, int, int, int, int]

_TOOLS: dict[tuple[int, Weights], tuple[Any, Evaluator, Routes]] = {}
"""Evaluators and route memos shared by every bot on the same map and weights (pure caches)."""


class _Fast:
    """Greedy's candidates on one map from the engine's rule tables, and line values by
    the engine's line-local masks (the same values as ``Evaluator``'s memo)."""

    def __init__(self, ev: Evaluator, tables: Any) -> None:
        self.ev = ev
        self.tables = tables
        self.full = tables.full
        self.dirs = tuple((0, 1) if loop else (0,) for loop in tables.loop)
        self.lmemo: list[dict[int, float]] = [{} for _ in tables.line_ids]
        self.plans: list[dict[int, tuple]] = [{} for _ in tables.line_ids]
        merged: list[tuple[tuple[int, int], ...]] = []
        for upd in tables.station_upd:
            bits: dict[int, int] = {}
            for li, b in upd:
                bits[li] = bits.get(li, 0) | b
            merged.append(tuple(sorted(bits.items())))
        self.station_lines = tuple(merged)
        """Per station: ``((line, local bits), ...)`` in line order (a free ride's marks)."""

    def plan(self, line: int, d: int, lm: int, card: int) -> tuple:
        """Greedy's move with ``card`` on ``line`` in direction ``d``: the full run of a
        number or express card, the interchange on the first empty stop.

        ``(marks placed, marks, ((line, local bits), ...) in line order, interchange worth,
        direction << 3 | crosses)``, memoised in ``plans[line][lm << 4 | d << 3 | card]``.
        """
        t = self.tables
        e = t.entry(line, d, lm)
        bonus = 0.0
        if card == _PLUS:
            k = 1 if e[2] >= 0 else 0
            if k:
                bonus = 2.0 * t.intersections[e[2]]
        else:
            k = most_crosses(card, len(e[1]) - 1, e[0])
        g, upd, _ = e[1][k]
        touched = dict(upd)
        touched.setdefault(line, 0)
        low = d << 3 | (0 if card == _PLUS else k)
        out = (k, g, tuple(sorted(touched.items())), bonus, low)
        self.plans[line][lm << 4 | d << 3 | card] = out
        return out


_FAST: dict[tuple[int, int], _Fast] = {}


class GreedyBot(Bot):
    name = "greedy"
    legal_only = True

    def __init__(
        self, seed: int = 0, weights: Weights = DEFAULT, noise: float = 0.25, **options: Any
    ) -> None:
        super().__init__(seed, **options)
        self.weights = weights
        self.noise = noise
        self._ev: Evaluator | None = None
        self._rt: Routes | None = None
        self._fast: _Fast | None = None

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

    def fast(self, state: State) -> _Fast:
        """The per-map plans and local-mask memo of the fused path (shared like ``tools``)."""
        ev, _ = self.tools(state)
        f = self._fast
        if f is None or f.ev is not ev:
            key = (id(ev), 0)
            f = _FAST.get(key)
            if f is None or f.ev is not ev:
                f = _FAST[key] = _Fast(ev, state.game.tables)
            self._fast = f
        return f

    def _fast_run(self, state: State, rng: random.Random) -> int:
        """``choose`` for number, express and interchange cards, fused for speed.

        The same candidates, values and tie-breaks as :meth:`scored` + :meth:`pick` (a
        property test checks it), but each candidate's marks come from the engine's own
        rule tables (``Tables.entry``) and line values are memoised by the engine's
        line-local masks: small int keys, no view, list or tuple per move.
        """
        f = self.fast(state)
        ev = f.ev
        p = state.current_player()
        marked = state.marked(p)
        windows = state.windows_row(p)
        loc, lost_bits, pw, base = _line_bases(f, state, p, marked, windows)
        card = state.card()
        full, first, others, dirs = f.full, ev._first, ev._others, f.dirs
        lmemo, line_value, plans, plan_of = f.lmemo, ev._line_value, f.plans, f.plan
        noise, rand = self.noise, rng.random
        first_max = noise and card == _PLUS
        best, best_a = None, -1
        for line, wline in enumerate(windows):
            if not wline:
                continue
            lm0 = loc[line]
            for d in dirs[line]:
                plan = plans[line].get(lm0 << 4 | d << 3 | card) or plan_of(line, d, lm0, card)
                k, g, aff, bonus, low = plan
                dv = pw * k + bonus if bonus else pw * k
                for li, b in aff:
                    before = base[li]
                    if before is None:
                        continue
                    a = loc[li] | b
                    lost = lost_bits >> li & 1
                    if a == full[li]:
                        dv += (others[li] if lost else first[li]) - before
                        continue
                    wl = windows[li] - (li == line)
                    x = lmemo[li].get(a << 8 | wl << 1 | lost)
                    if x is None:
                        x = lmemo[li][a << 8 | wl << 1 | lost] = line_value(
                            li, marked | g, wl, bool(lost)
                        )
                    dv += x - before
                if noise:
                    dv += noise * rand()
                if best is None or dv > best or (dv == best and not first_max):
                    best, best_a = dv, line << 4 | low
        if best_a & 8:
            best_a = state.canonical(best_a)
        return best_a

    def _fast_free(self, state: State, rng: random.Random) -> int:
        """``choose`` for a free ride, fused like :meth:`_fast_run` (same result as scored()).

        Candidates as :func:`best_moves`: the first empty stop of every open route and every
        isolated empty stop, each station once, then "none".
        """
        f = self.fast(state)
        ev, rt = f.ev, self._rt
        assert rt is not None
        p = state.current_player()
        marked = state.marked(p)
        windows = state.windows_row(p)
        loc, lost_bits, pw, base = _line_bases(f, state, p, marked, windows)
        full, first, others, at = f.full, ev._first, ev._others, f.station_lines
        lmemo, line_value = f.lmemo, ev._line_value
        rmemo, masks, by_line, info = rt.memo, rt.masks, rt.by_line, rt.info
        noise, rand = self.noise, rng.random
        seen: set[int] = set()
        best, best_s = None, -1
        for li in range(len(loc)):
            if base[li] is None:
                continue
            for ri in by_line[li]:
                e = rmemo[ri].get(marked & masks[ri])
                for s in (e if e is not None else info(ri, marked))[4]:
                    if s in seen:
                        continue
                    seen.add(s)
                    dv = pw
                    g = 1 << s
                    for lj, b in at[s]:
                        before = base[lj]
                        if before is None:
                            continue
                        a = loc[lj] | b
                        lost = lost_bits >> lj & 1
                        if a == full[lj]:
                            dv += (others[lj] if lost else first[lj]) - before
                            continue
                        wl = windows[lj]
                        x = lmemo[lj].get(a << 8 | wl << 1 | lost)
                        if x is None:
                            x = lmemo[lj][a << 8 | wl << 1 | lost] = line_value(
                                lj, marked | g, wl, bool(lost)
                            )
                        dv += x - before
                    if noise:
                        dv += noise * rand()
                        if best is None or dv > best:
                            best, best_s = dv, s
                    elif best is None or dv > best or (dv == best and s > best_s):
                        best, best_s = dv, s
        none = noise * rand() if noise else 0.0
        if best is None or none > best or (not noise and none == best and best_s < -1):
            best_s = -1
        t = state.game.tables
        return t.free_base + (t.n_stations if best_s < 0 else best_s)

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
        if not state.game.special_stations:
            if state.card() < 7:
                a = self._fast_run(state, rng or self.rng)
            else:
                a = self._fast_free(state, rng or self.rng)
            if state.is_listed(a):
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


def _line_bases(f: Any, state: State, p: int, marked: int, windows: Sequence[int]) -> tuple:
    """Per line, the memoised value of its current state (None once complete).

    Returns ``(line masks, lines whose first bonus is lost, weight of a cross, values)``:
    the starting point both fused choosers add each candidate's change to.
    """
    loc = state.line_masks_row(p)
    n = state.num_players()
    lost_bits = 0 if n == 1 else state.taken() & ~state.completed(p)
    pw = 1.0 if n == 1 else 0.5
    full, lmemo, line_value = f.full, f.lmemo, f.ev._line_value
    base: list[float | None] = []
    for li, lm in enumerate(loc):
        if lm == full[li]:
            base.append(None)
            continue
        lost = lost_bits >> li & 1
        key = lm << 8 | windows[li] << 1 | lost
        x = lmemo[li].get(key)
        if x is None:
            x = lmemo[li][key] = line_value(li, marked, windows[li], bool(lost))
        base.append(x)
    return loc, lost_bits, pw, base
