"""A wagon for every imported line, at one of its termini, clear of everything else.

Each line in turn tries both termini (a loop: each of its stops), the direction that
continues the line outward and the eight directions of the sheet, at a few distances;
a place is good when the wagon, grown by ``CLEARANCE``, stays inside the map area and
touches no station circle, no other wagon and no line, and its lead-in line to the
terminus passes no other station. The best good place wins: outward first, then
close (with none good, the one in the way of the fewest things). The line's stops
are turned round when its wagon sits at the last one.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mapkit.importers.project import LINE_GAP
from mapkit.sheet import METRICS, Rect, wagon_extent

Point = tuple[float, float]

CLEARANCE = 1.5
"""mm between a wagon and any station circle, line or other wagon."""
_DIRECTIONS = tuple(
    (math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(0, 360, 45)
)


@dataclass(frozen=True)
class Placed:
    stops: tuple[str, ...]
    depot: Point


@dataclass(frozen=True)
class WagonLine:
    stops: tuple[str, ...]
    windows: int
    loop: bool = False


def _rect(center: Point, w: float, h: float) -> Rect:
    return Rect(center[0] - w / 2, center[1] - h / 2, w, h)


def place_wagons(
    stations: Mapping[str, Point], lines: Sequence[WagonLine], area: Rect
) -> list[Placed]:
    """A depot for each line (in order), and its stops from the wagon outward."""
    import numpy as np
    import shapely

    names = sorted(stations)
    circles = shapely.points(np.array([stations[n] for n in names]))
    index = {n: i for i, n in enumerate(names)}
    placed_rects: list[Rect] = []
    lead_ins: list[tuple[Point, Point]] = []
    out: list[Placed] = []
    for k, ln in enumerate(lines):
        w, h, _box = wagon_extent(ln.windows)
        others = [
            (stations[a], stations[b]) for j, o in enumerate(lines) if j != k for a, b in _edges(o)
        ]
        own = [(stations[a], stations[b]) for a, b in _edges(ln)]
        segs = (
            shapely.linestrings(np.array(others + own + lead_ins).reshape(-1, 2, 2))
            if (others or own or lead_ins)
            else None
        )
        walls = [shapely.box(r.x, r.y, r.right, r.bottom) for r in placed_rects]
        best: tuple[tuple, Placed, Rect] | None = None
        for stops in _orientations(ln):
            start, nxt = stations[stops[0]], stations[stops[1]]
            ox, oy = start[0] - nxt[0], start[1] - nxt[1]
            norm = math.hypot(ox, oy) or 1.0
            outward = (ox / norm, oy / norm)
            for u in (outward, *_DIRECTIONS):
                reach = min(
                    w / 2 / abs(u[0]) if abs(u[0]) > 1e-9 else math.inf,
                    h / 2 / abs(u[1]) if abs(u[1]) > 1e-9 else math.inf,
                )
                for extra in (0.0, 3.0, 7.0, 12.0):
                    s = reach + METRICS.station_r + CLEARANCE + extra
                    depot = (start[0] + u[0] * s, start[1] + u[1] * s)
                    rect = _rect(depot, w, h)
                    faults = _faults(
                        rect, depot, stops[0], area, circles, index, segs, walls, shapely
                    )
                    cos_turn = max(-1.0, min(1.0, u[0] * outward[0] + u[1] * outward[1]))
                    turn = math.degrees(math.acos(cos_turn))
                    score = (faults, round(turn / 45), extra)
                    if best is None or score < best[0]:
                        best = (score, Placed(tuple(stops), depot), rect)
        assert best is not None
        _, chosen, rect = best
        placed_rects.append(rect)
        lead_ins.append((chosen.depot, stations[chosen.stops[0]]))
        out.append(chosen)
    return out


def _edges(ln: WagonLine) -> list[tuple[str, str]]:
    pairs = list(itertools.pairwise(ln.stops))
    if ln.loop:
        pairs.append((ln.stops[-1], ln.stops[0]))
    return pairs


def _orientations(ln: WagonLine) -> list[tuple[str, ...]]:
    if ln.loop:
        n = len(ln.stops)
        return [tuple(ln.stops[i:] + ln.stops[:i]) for i in range(n)]
    return [tuple(ln.stops), tuple(reversed(ln.stops))]


def _faults(rect, depot, start, area, circles, index, segs, walls, shapely) -> int:
    """How many things a wagon at ``rect`` (lead-in from ``depot`` to ``start``) gets in."""
    if not area.contains(rect, tol=0.01):
        return 1000
    body = shapely.box(rect.x, rect.y, rect.right, rect.bottom)
    faults = int((shapely.distance(circles, body) < METRICS.station_r + CLEARANCE).sum())
    if segs is not None:
        faults += int((shapely.distance(segs, body) < METRICS.line_w / 2 + CLEARANCE).sum())
    faults += sum(1 for wall in walls if wall.distance(body) < CLEARANCE)
    lead = shapely.LineString([depot, shapely.get_coordinates(circles[index[start]])[0]])
    near = shapely.distance(circles, lead) < LINE_GAP - 1.0
    near[index[start]] = False
    faults += int(near.sum())
    faults += sum(1 for wall in walls if wall.distance(lead) < METRICS.line_w / 2 + CLEARANCE)
    return faults
