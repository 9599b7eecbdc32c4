"""A map compiled to integers for fast move evaluation: bitmasks over stations.

Bots never decide legality with this (the engine does); they use it to predict
what a legal move marks, without cloning engine states. A line is compiled as its
*routes* (the model's ``Line.routes``): a loop's two directions (rules-notes 7), a
two-ended line's two ends, a branching line's trunk into each branch.
"""

from __future__ import annotations

from dataclasses import dataclass

from mapkit.engine.tables import Tables


@dataclass(frozen=True, slots=True)
class Route:
    line: int
    route: int
    """The route's index on its line (``Line.routes``; an action's route)."""
    stops: tuple[int, ...]
    bits: tuple[int, ...]


class Compiled:
    """The engine's compiled map (``Tables``) with what the bots add: routes as station tuples
    and bitmasks, the lines at each station. Indices are the engine's."""

    def __init__(self, tables: Tables) -> None:
        t = tables
        self.city = t.city
        self.tables = t
        self.station_ids = t.station_ids
        self.station_index = t.station_index
        self.n = t.n_stations
        self.all_mask = t.all_mask
        self.line_ids = t.line_ids
        self.line_index = t.line_index
        self.first = t.first
        self.others = t.others
        self.windows = t.windows
        self.stops = t.stops
        self.line_mask = t.stop_masks
        self.count = t.intersections
        self.special = t.special
        self.special_mask = t.special_mask
        self.lines_at = tuple(
            tuple(li for li, st in enumerate(self.stops) if i in st) for i in range(self.n)
        )
        routes: list[tuple[Route, ...]] = []
        for li, st in enumerate(self.stops):
            orders = t.routes[li]  # the model's route orders (``Line.routes``)
            rs = []
            for r, order in enumerate(orders):
                stops = tuple(st[j] for j in order)
                rs.append(Route(li, r, stops, tuple(1 << s for s in stops)))
            routes.append(tuple(rs))
        self.routes = tuple(routes)
        self.route_list = tuple(r for rs in self.routes for r in rs)
        """Every route, line by line: a move's route index ``ri`` points here."""
        starts = [0]
        for rs in self.routes:
            starts.append(starts[-1] + len(rs))
        self.route_index = tuple(
            tuple(range(starts[li], starts[li + 1])) for li in range(len(self.routes))
        )
        """``route_index[line][route]``: the index of a line's route in ``route_list``."""
