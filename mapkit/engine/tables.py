"""Per-map tables, computed once per game: the sheet as bitmasks, and memoised line outcomes.

A player's sheet is one int (bit ``s`` set: station ``s`` marked) plus, per line, a
*line-local* mask (bit ``j`` set: the line's ``j``-th stop marked). The outcome of
any card on a line depends only on that line-local mask, so it is computed once
and memoised: a move is then a dict lookup and a few ``|=``.
"""

from __future__ import annotations

from mapkit.engine.cards import CARD_VALUE, PLUS, most_crosses
from mapkit.mapfile.model import CityMap

Outcome = tuple[int, tuple[tuple[int, int], ...], int]
"""``(global bits, ((line, local bits), ...), special stations marked)`` of placing k marks."""


_MEMOS: dict[int, tuple[CityMap, tuple]] = {}
_MEMOS_KEPT = 8


def _memos(city: CityMap) -> tuple:
    """The memo tables of a map, shared by every ``Tables`` of that same map object.

    They hold pure functions of the (frozen) map, so a new ``Game`` of the same map (a
    new ``simulate`` run, another player count) starts warm. The last few maps are kept.
    """
    hit = _MEMOS.get(id(city))
    if hit is not None and hit[0] is city:
        return hit[1]
    n = len(city.lines)
    memos = ([{} for _ in range(2 * n)], [{} for _ in range(n)])
    _MEMOS[id(city)] = (city, memos)
    while len(_MEMOS) > _MEMOS_KEPT:
        del _MEMOS[next(iter(_MEMOS))]
    return memos


class Tables:
    """Immutable facts about a map plus the memo of line outcomes (shared by all states)."""

    def __init__(self, city: CityMap) -> None:
        self.city = city
        self.station_ids = tuple(s.id for s in city.stations)
        self.station_index = {s.id: i for i, s in enumerate(city.stations)}
        self.line_ids = tuple(ln.id for ln in city.lines)
        self.line_index = {ln.id: i for i, ln in enumerate(city.lines)}
        self.n_stations = len(self.station_ids)
        self.n_lines = len(self.line_ids)
        self.all_mask = (1 << self.n_stations) - 1
        self.windows = tuple(ln.windows for ln in city.lines)
        self.first = tuple(ln.first for ln in city.lines)
        self.others = tuple(ln.others for ln in city.lines)
        self.loop = tuple(ln.loop for ln in city.lines)
        self.stops = tuple(tuple(self.station_index[s] for s in ln.stops) for ln in city.lines)
        self.full = tuple((1 << len(st)) - 1 for st in self.stops)
        self.special = tuple(s.special for s in city.stations)
        self.special_mask = sum(1 << i for i, s in enumerate(city.stations) if s.special)
        self.intersections = tuple(city.intersection_count(s) for s in self.station_ids)
        at: list[list[tuple[int, int]]] = [[] for _ in self.station_ids]
        for li, st in enumerate(self.stops):
            for j, s in enumerate(st):
                at[s].append((li, 1 << j))
        self.station_upd: tuple[tuple[tuple[int, int], ...], ...] = tuple(tuple(a) for a in at)
        self.routes: list[tuple[tuple[int, ...], ...]] = []
        for li, st in enumerate(self.stops):
            fwd = tuple(range(len(st)))
            self.routes.append((fwd, (0, *range(len(st) - 1, 0, -1))) if self.loop[li] else (fwd,))
        self.has_loops = any(self.loop)
        wide = 2 if self.has_loops else 1
        self.slots = tuple(wide if k == PLUS else wide * v + 1 for k, v in enumerate(CARD_VALUE))
        """Per card kind: at least as many as ``choices`` can list on any line (sampling)."""
        self.free_base = 16 * self.n_lines
        self.stop_masks = tuple(sum(1 << s for s in st) for st in self.stops)
        """Per line, the global bits of its stops."""
        self.memo: list[dict[int, tuple]]
        self.choice_memo: list[dict[int, tuple[int, ...]]]
        self.memo, self.choice_memo = _memos(city)

    def entry(self, li: int, d: int, lm: int) -> tuple:
        """``(run, outcomes, first_empty_station)`` of line ``li`` in direction ``d``.

        Following the route from the wagon, the empty stops in order are the
        stops an express card may mark; ``run`` of them are contiguous from the
        first one (what a number card may mark). ``outcomes[k]`` is the effect
        of marking the first ``k`` of them.
        """
        memo = self.memo[2 * li + d]
        e = memo.get(lm)
        if e is None:
            e = memo[lm] = self._compute(li, d, lm)
        return e

    def choices(self, li: int, lm: int, card: int) -> tuple[int, ...]:
        """The legal ``direction << 3 | crosses`` of a line card on line ``li`` (given a window).

        In the order ``State.legal_actions`` lists them: forward 0..most, then the
        backward moves of a loop that differ from the forward move with as many
        crosses. The one rule of what a card may do on a line: the checked list and
        ``State.random_action`` read it; the kernel compiles the same rule (harness).
        Memoised per (line, line-local mask, card) in ``choice_memo[li][lm << 3 | card]``.
        """
        key = lm << 3 | card
        memo = self.choice_memo[li]
        x = memo.get(key)
        if x is None:
            x = memo[key] = self._choices(li, lm, card)
        return x

    def _choices(self, li: int, lm: int, card: int) -> tuple[int, ...]:
        e = self.entry(li, 0, lm)
        if card == PLUS:
            if self.loop[li]:
                b = self.entry(li, 1, lm)
                if b[2] >= 0 and b[2] != e[2]:
                    return (0, 8)
            return (0,)
        m = most_crosses(card, len(e[1]) - 1, e[0])
        out = list(range(m + 1))
        if self.loop[li]:
            b = self.entry(li, 1, lm)
            mb = most_crosses(card, len(b[1]) - 1, b[0])
            outs = e[1]
            for k in range(1, mb + 1):
                if k > m or b[1][k][0] != outs[k][0]:
                    out.append(8 | k)
        return tuple(out)

    def _compute(self, li: int, d: int, lm: int) -> tuple:
        route = self.routes[li][d]
        stops = self.stops[li]
        empties = [j for j in route if not lm >> j & 1]
        run = 0
        if empties:
            start = route.index(empties[0])
            for j in route[start:]:
                if lm >> j & 1:
                    break
                run += 1
        outs: list[Outcome] = [(0, (), 0)]
        g = 0
        per_line: dict[int, int] = {}
        nsp = 0
        for j in empties:
            s = stops[j]
            g |= 1 << s
            nsp += self.special[s]
            for lj, b in self.station_upd[s]:
                per_line[lj] = per_line.get(lj, 0) | b
            outs.append((g, tuple(per_line.items()), nsp))
        first = stops[empties[0]] if empties else -1
        return (run, tuple(outs), first)
