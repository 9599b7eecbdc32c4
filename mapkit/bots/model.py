"""A map compiled to integers for fast move evaluation: bitmasks over stations.

Bots never decide legality with this (the engine does); they use it to predict
what a legal move marks, without cloning engine states. A loop line is
compiled as two open *routes*, one per direction (rules-notes 7): forward is
the order of ``stops``, backward is the first stop then the others reversed.
"""

from __future__ import annotations

from dataclasses import dataclass

from mapkit.mapfile.model import CityMap

NUMBER, EXPRESS, PLUS, FREE = "number", "express", "plus", "free"


@dataclass(frozen=True, slots=True)
class Route:
    line: int
    direction: str | None
    """``forward``/``backward`` on a loop line, ``None`` on an open line."""
    stops: tuple[int, ...]
    bits: tuple[int, ...]


class Compiled:
    """Station indices follow the map's station order; line indices the map's line order."""

    def __init__(self, city: CityMap) -> None:
        self.city = city
        self.station_ids = tuple(s.id for s in city.stations)
        self.station_index = {sid: i for i, sid in enumerate(self.station_ids)}
        self.n = len(self.station_ids)
        self.all_mask = (1 << self.n) - 1
        self.line_ids = tuple(ln.id for ln in city.lines)
        self.line_index = {lid: i for i, lid in enumerate(self.line_ids)}
        self.first = tuple(ln.first for ln in city.lines)
        self.others = tuple(ln.others for ln in city.lines)
        self.windows = tuple(ln.windows for ln in city.lines)
        self.loop = tuple(ln.loop for ln in city.lines)
        self.stops = tuple(tuple(self.station_index[s] for s in ln.stops) for ln in city.lines)
        self.line_mask = tuple(sum(1 << s for s in set(st)) for st in self.stops)
        self.count = tuple(city.intersection_count(sid) for sid in self.station_ids)
        self.special = tuple(s.special for s in city.stations)
        self.special_mask = sum(1 << i for i, sp in enumerate(self.special) if sp)
        self.lines_at = tuple(
            tuple(li for li, st in enumerate(self.stops) if i in st) for i in range(self.n)
        )
        self.lines_at_mask = tuple(sum(1 << li for li in self.lines_at[i]) for i in range(self.n))
        routes: list[tuple[Route, ...]] = []
        for li, st in enumerate(self.stops):
            if self.loop[li]:
                back = (st[0], *reversed(st[1:]))
                routes.append(
                    (
                        Route(li, "forward", st, tuple(1 << s for s in st)),
                        Route(li, "backward", back, tuple(1 << s for s in back)),
                    )
                )
            else:
                routes.append((Route(li, None, st, tuple(1 << s for s in st)),))
        self.routes = tuple(routes)
