"""The clairvoyant bot: knows the seeded card order and plans the whole game with a beam.

It reads ``state.upcoming_cards(n)`` (the order ``deal()`` will reveal, which no
move changes) and runs a beam search over its own sheet: each beam step plays
the known card with every candidate move, ranks the children by the greedy
evaluation ``H`` and keeps the ``beam`` best distinct sheets. The best final
sheet's moves are then played. Its score is a per-shuffle estimate of perfect
play (a lower estimate of the true perfect-information optimum, and an upper
reference for bots that cannot see the cards).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from mapkit.bots.base import view_of
from mapkit.bots.evaluate import View, best_moves, final_score
from mapkit.bots.greedy import EXTRA_ACTION, GreedyBot

if TYPE_CHECKING:
    from mapkit.engine import State


class ClairvoyantBot(GreedyBot):
    name = "clairvoyant"

    def __init__(self, seed: int = 0, beam: int = 24, **options: Any) -> None:
        super().__init__(seed, **options)
        self.beam = beam
        self._plan: dict[int, tuple[int, int, int, int]] = {}
        self._plan_key: tuple[int, int, int] | None = None

    def plan(self, state: State) -> dict[int, tuple[int, int, int, int]]:
        """Best found (route, crosses, station, windows left before it) per round from now.

        With the special-station variant an extra action changes the windows left;
        the plan is then made again from the state the game has reached. When no sheet of
        the beam fills its windows within the horizon (a map of many windows and few
        crosses a card), the best unfinished sheet's moves are the plan: it is made again
        only once the game has played past it, not at every round.
        """
        ev = self.evaluator(state)
        cc = ev.cc
        v = view_of(state, cc)
        horizon = sum(v.windows) + 8
        cards = [state.card(), *state.upcoming_cards(horizon)]
        extra = EXTRA_ACTION if state.game.special_stations else 0.0
        sp = cc.special_mask
        beam: list[tuple[float, View, tuple]] = [(ev.value(v), v, ())]
        finished: list[tuple[float, tuple]] = []
        for card in cards:
            children: dict[tuple, tuple[float, View, tuple]] = {}
            for h, bv, path in beam:
                if not any(bv.windows):
                    finished.append((final_score(cc, bv), path))
                    continue
                for d, ri, k, s, marks in best_moves(ev, bv, card):
                    nv = View(
                        bv.marked | marks, bv.windows[:], bv.lost, bv.done, bv.inter, bv.pw,
                        bv.all_lines,
                    )  # fmt: skip
                    if ri >= 0:
                        nv.windows[cc.route_list[ri].line] -= 1
                    if s >= 0 and ri >= 0:
                        nv.inter += cc.count[s]
                    key = (nv.marked, tuple(nv.windows), nv.inter)
                    hv = h + d + (extra * (marks & sp).bit_count() if extra else 0.0)
                    old = children.get(key)
                    if old is None or hv > old[0]:
                        children[key] = (hv, nv, (*path, (ri, k, s, sum(bv.windows))))
            beam = sorted(children.values(), key=lambda x: x[0], reverse=True)[: self.beam]
            if not beam:
                break
        finished += [(final_score(cc, bv), path) for _, bv, path in beam if not any(bv.windows)]
        if finished:
            _, path = max(finished, key=lambda x: x[0])
        elif beam:
            path = beam[0][2]
        else:
            return {}
        r0 = state.round()
        return {r0 + i: step for i, step in enumerate(path)}

    def choose(self, state: State, rng: random.Random | None = None) -> int:
        if state.is_extra_action():
            return GreedyBot.choose(self, state, rng)
        p = state.current_player()
        key = (state.seed, p, id(state.game))
        left = state.windows_left(p)
        step = self._plan.get(state.round()) if self._plan_key == key else None
        if step is None or step[3] != left:
            self._plan = self.plan(state)
            self._plan_key = key
            step = self._plan.get(state.round())
        if step is not None:
            ri, k, s, _ = step
            a = self.action(state, (0.0, ri, k, s, 0))
            if state.is_legal(a):
                return a
        return GreedyBot.choose(self, state, rng)
