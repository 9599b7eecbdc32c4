"""Per-map tables, computed once per game: the sheet as bitmasks, and memoised line outcomes.

A player's sheet is one int (bit ``s`` set: station ``s`` marked) plus, per line, a
*line-local* mask (bit ``j`` set: the line's ``j``-th stop marked). The outcome of
any card on a line depends only on that line-local mask, so it is computed once
and memoised: a move is then a dict lookup and a few ``|=``.
"""

from __future__ import annotations

from mapkit.mapfile.model import CityMap

Outcome = tuple[int, tuple[tuple[int, int], ...], int]
"""``(global bits, ((line, local bits), ...), special stations marked)`` of placing k marks."""


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
        self.memo: list[dict[int, tuple]] = [{} for _ in range(2 * self.n_lines)]
        self.has_loops = any(self.loop)
        self.free_base = 16 * self.n_lines

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
