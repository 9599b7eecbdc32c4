"""The layout loop: directions, then coordinates, until every stretch is octilinear.

The direction program proposes; the coordinate program either closes every
stretch on its direction or reports which it could not (a cycle whose directions
do not add up, a pinned station in the way). Those directions are banned for the
stretches concerned and the directions chosen again, until every stretch closes or
time runs out; the best placement so far is kept.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from mapkit.layout.coords import (
    UNIT,
    Placement,
    Repair,
    box_units,
    find_conflicts,
    mm_per_unit,
    solve_coordinates,
)
from mapkit.layout.directions import choose, crowded
from mapkit.layout.network import Network
from mapkit.mapfile.model import CityMap

Point = tuple[float, float]
TARGET_SPACING = 1.3
"""The input is scaled so that its median stretch is this many shortest stretches."""


START_SCALE = 3.0
MIN_SCALE = 2.2
"""Print scale aimed at first, in mm a layout unit: the shortest stretch 12 mm long."""


MAX_HOPS = 3
MAX_REPAIRS = 2


def _near(net: Network, stretches: set[int], hops: int) -> set[int]:
    """``stretches`` and those within ``hops`` stations of them."""
    out = set(stretches)
    for _ in range(hops):
        nodes = {n for e in out for n in (net.stretches[e].u, net.stretches[e].v)}
        out |= {e for n in nodes for e in net.incident[n]}
    return out


def printed_conflicts(city: CityMap, xy: list[Point]) -> int:
    """How many problems validate's geometry layer finds between stations and lines (GEO001,
    GEO002, GEO007) once the stations of ``city`` are at ``xy``, on A4 and on Letter (the
    wagons are placed later, each at its first station meanwhile)."""
    from dataclasses import replace

    from shapely import STRtree, points

    from mapkit.checks.context import CheckContext
    from mapkit.checks.geometry import _Geo
    from mapkit.mapfile import LoadResult
    from mapkit.mapfile.model import Depot

    stations = tuple(replace(s, x=p[0], y=p[1]) for s, p in zip(city.stations, xy, strict=True))
    where = {s.id: (s.x, s.y) for s in stations}
    lines = tuple(
        replace(ln, depot=Depot(*where[ln.stops[0]], ln.depot.max_width_mm), shape=None)
        for ln in city.lines
    )
    moved = replace(city, stations=stations, lines=lines)
    count = 0
    for paper in ("a4", "letter"):
        ctx = CheckContext(LoadResult("<layout>"), moved, paper)
        geo = _Geo(ctx)
        geo.crowding()
        geo.lines_vs_stations(STRtree(points(geo.xy)))
        count += len(ctx.diagnostics)
    return count


class LayoutError(Exception):
    """A map that cannot be laid out within the limits; the message says where."""


@dataclass
class Drawn:
    xy: list[Point]
    direction: dict[int, int]
    placement: Placement
    scale_in: float
    attempts: int

    conflicts: int = 0
    sharp: bool = False
    """Whether 45° bends had to be allowed to keep the order of the lines."""

    @property
    def score(self) -> tuple[int, int]:
        """Stretches off their direction, then pairs too close at the print scale the
        drawing really gets."""
        return (len(self.placement.off_direction), self.conflicts)


def run(
    net: Network,
    pinned: set[int],
    allow_45: bool,
    deadline: float,
    say: Callable[[str], None] | None = None,
    city: CityMap | None = None,
) -> Drawn:
    """The best drawing found by ``deadline``: every stretch on its direction if possible,
    and (measured on ``city``'s sheets with the stations moved) nothing too close."""
    lengths = [math.dist(net.xy[s.u], net.xy[s.v]) for s in net.stretches]
    lengths = [d for d in lengths if d > 0]
    if not lengths:
        raise LayoutError("every stretch has length 0: stations sit on top of each other")
    live = [i for i, inc in enumerate(net.incident) if inc] or list(range(len(net.xy)))
    scale = START_SCALE
    bw, bh = box_units(scale)
    w_in = max(net.xy[i][0] for i in live) - min(net.xy[i][0] for i in live)
    h_in = max(net.xy[i][1] for i in live) - min(net.xy[i][1] for i in live)
    k = max(TARGET_SPACING * UNIT / statistics.median(lengths), UNIT / min(lengths))
    k = min(k, 0.95 * bw / max(w_in, 1e-9), 0.95 * bh / max(h_in, 1e-9))
    scale_k = 1.0
    fixed = {i: (net.xy[i][0] * k, net.xy[i][1] * k) for i in pinned}
    frozen: dict[int, float] = {}
    for e, s in enumerate(net.stretches):
        if s.u in pinned and s.v in pinned:
            frozen[e] = net.angle(e, s.u)
    banned: set[tuple[int, int]] = set()
    best: Drawn | None = None
    seps = None
    attempts = 0
    direction: dict[int, int] | None = None
    repair: Repair | None = None
    hops = 0
    repairs = 0
    sharp = False
    while True:
        attempts += 1
        if repair is None and direction is None:
            left = deadline - time.monotonic()
            choice = choose(net, frozen, banned, allow_45, max(left, 0.05))
            if choice is None:
                break
            direction = choice.direction
            if choice.sharp and not allow_45:
                allow_45 = sharp = True
        targets = [(round(x * k * scale_k), round(y * k * scale_k)) for x, y in net.xy]
        placed = solve_coordinates(
            net, direction, targets, fixed, set(frozen), scale, deadline, seps, repair
        )
        if placed is None:
            if repair is not None and hops < MAX_HOPS:
                hops += 1
                repair.free = _near(net, repair.free, 1) - set(frozen)
                repair.banned = banned
                continue
            break
        direction = placed.direction
        seps = placed.separations
        drawn = Drawn(placed.xy, direction, placed, k * scale_k, attempts)
        drawn.conflicts = (
            printed_conflicts(city, placed.xy)
            if city is not None
            else len(
                find_conflicts(
                    net, placed.xy, min(mm_per_unit([placed.xy[i] for i in live]), scale)
                )
            )
        )
        if best is None or drawn.score < best.score:
            best = drawn
        if say:
            say(
                f"attempt {attempts} at {scale:.2f} mm a unit"
                + (f", {len(repair.free)} stretches re-chosen" if repair else "")
                + f": {len(placed.off_direction)} stretches off their direction, "
                f"{len(placed.unmet)} clearances unmet, {placed.overflow:.1f} units too wide"
            )
        if drawn.score == (0, 0) or time.monotonic() > deadline:
            break
        if (placed.off_direction or placed.unmet) and repairs >= MAX_REPAIRS:
            # this scale is too tight for the map's centre: start again a size smaller
            if scale <= MIN_SCALE:
                break
            repairs, repair, direction, seps = 0, None, None, None
            scale = max(scale * 0.9, MIN_SCALE)
            scale_k = START_SCALE / scale
            fixed = {i: (net.xy[i][0] * k * scale_k, net.xy[i][1] * k * scale_k) for i in pinned}
        elif placed.off_direction or placed.unmet:
            repairs += 1
            trouble = _near(net, set(placed.off_direction), 1)
            for sep in placed.unmet:
                pts = set(sep.first) | set(sep.second)
                trouble |= {e for i in pts for e in net.incident[i]}
            hops = 0
            repair = Repair(_near(net, trouble, hops) - set(frozen), frozen, banned, allow_45)
        elif scale > MIN_SCALE:
            # too wide for the paper at this scale: the same directions at a smaller one
            repair = None
            bw, bh = box_units(scale)
            xs = [placed.xy[i][0] for i in live]
            ys = [placed.xy[i][1] for i in live]
            fit = min(bw / max(max(xs) - min(xs), 1e-9), bh / max(max(ys) - min(ys), 1e-9))
            scale = max(min(scale * fit, scale * 0.97), MIN_SCALE)
            scale_k = START_SCALE / scale
            fixed = {i: (net.xy[i][0] * k * scale_k, net.xy[i][1] * k * scale_k) for i in pinned}
        else:
            break
    if best is None:
        node = crowded(net)
        where = f" (the tightest: station '{net.ids[node]}')" if node is not None else ""
        raise LayoutError(
            "no octilinear directions keep the order of the lines at every station within "
            f"the time limit{where}"
        )
    best.attempts = attempts
    best.sharp = sharp
    return best
