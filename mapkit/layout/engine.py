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
    search = _Search(net, pinned, allow_45, deadline, city)
    while search.step(say):
        pass
    return search.best_drawing()


class _Search:
    """The loop's state: the directions and the stretches being repaired, the print scale
    aimed at, the separations found so far, and the best drawing yet."""

    def __init__(
        self,
        net: Network,
        pinned: set[int],
        allow_45: bool,
        deadline: float,
        city: CityMap | None,
    ) -> None:
        lengths = [math.dist(net.xy[s.u], net.xy[s.v]) for s in net.stretches]
        lengths = [d for d in lengths if d > 0]
        if not lengths:
            raise LayoutError("every stretch has length 0: stations sit on top of each other")
        self.net, self.pinned, self.allow_45, self.deadline, self.city = (
            net, pinned, allow_45, deadline, city,
        )  # fmt: skip
        self.live = [i for i, inc in enumerate(net.incident) if inc] or list(range(len(net.xy)))
        bw, bh = box_units(START_SCALE)
        w_in = max(net.xy[i][0] for i in self.live) - min(net.xy[i][0] for i in self.live)
        h_in = max(net.xy[i][1] for i in self.live) - min(net.xy[i][1] for i in self.live)
        k = max(TARGET_SPACING * UNIT / statistics.median(lengths), UNIT / min(lengths))
        self.k = min(k, 0.95 * bw / max(w_in, 1e-9), 0.95 * bh / max(h_in, 1e-9))
        self.rescale(START_SCALE)
        self.frozen = {
            e: net.angle(e, s.u)
            for e, s in enumerate(net.stretches)
            if s.u in pinned and s.v in pinned
        }
        self.banned: set[tuple[int, int]] = set()
        self.best: Drawn | None = None
        self.seps = None
        self.attempts = 0
        self.direction: dict[int, int] | None = None
        self.repair: Repair | None = None
        self.hops = 0
        self.repairs = 0
        self.sharp = False

    def rescale(self, scale: float) -> None:
        """Aim at ``scale`` (mm a unit): the targets and the pinned stations grow to match."""
        self.scale = scale
        self.scale_k = START_SCALE / scale
        k, sk, xy = self.k, self.scale_k, self.net.xy
        self.fixed = {i: (xy[i][0] * k * sk, xy[i][1] * k * sk) for i in self.pinned}

    def step(self, say: Callable[[str], None] | None) -> bool:
        """One attempt: choose directions if none are held, place the stations, keep the
        drawing if it is the best yet; whether to go on."""
        net = self.net
        self.attempts += 1
        if self.repair is None and self.direction is None and not self.choose():
            return False
        k, sk = self.k, self.scale_k
        targets = [(round(x * k * sk), round(y * k * sk)) for x, y in net.xy]
        placed = solve_coordinates(
            net, self.direction, targets, self.fixed, set(self.frozen), self.scale,
            self.deadline, self.seps, self.repair,
        )  # fmt: skip
        if placed is None:
            return self.widen_repair()
        self.direction = placed.direction
        self.seps = placed.separations
        drawn = Drawn(placed.xy, self.direction, placed, k * sk, self.attempts)
        drawn.conflicts = self.conflicts(placed)
        if self.best is None or drawn.score < self.best.score:
            self.best = drawn
        if say:
            say(self.progress(placed))
        if drawn.score == (0, 0) or time.monotonic() > self.deadline:
            return False
        return self.next_attempt(placed)

    def choose(self) -> bool:
        """New directions for every stretch; False when there are none."""
        left = self.deadline - time.monotonic()
        choice = choose(self.net, self.frozen, self.banned, self.allow_45, max(left, 0.05))
        if choice is None:
            return False
        self.direction = choice.direction
        if choice.sharp and not self.allow_45:
            self.allow_45 = self.sharp = True
        return True

    def widen_repair(self) -> bool:
        """A repair that found no placement: re-choose a stretch further around, a few times."""
        if self.repair is None or self.hops >= MAX_HOPS:
            return False
        self.hops += 1
        self.repair.free = _near(self.net, self.repair.free, 1) - set(self.frozen)
        self.repair.banned = self.banned
        return True

    def conflicts(self, placed: Placement) -> int:
        if self.city is not None:
            return printed_conflicts(self.city, placed.xy)
        scale = min(mm_per_unit([placed.xy[i] for i in self.live]), self.scale)
        return len(find_conflicts(self.net, placed.xy, scale))

    def progress(self, placed: Placement) -> str:
        repair = self.repair
        return (
            f"attempt {self.attempts} at {self.scale:.2f} mm a unit"
            + (f", {len(repair.free)} stretches re-chosen" if repair else "")
            + f": {len(placed.off_direction)} stretches off their direction, "
            f"{len(placed.unmet)} clearances unmet, {placed.overflow:.1f} units too wide"
        )

    def next_attempt(self, placed: Placement) -> bool:
        """What to try after a drawing with problems: repair them, a smaller scale when
        repairs do not help or the drawing is too wide; False when nothing is left."""
        trouble = placed.off_direction or placed.unmet
        if trouble and self.repairs >= MAX_REPAIRS:
            # this scale is too tight for the map's centre: start again a size smaller
            if self.scale <= MIN_SCALE:
                return False
            self.repairs, self.repair, self.direction, self.seps = 0, None, None, None
            self.rescale(max(self.scale * 0.9, MIN_SCALE))
        elif trouble:
            self.repairs += 1
            near = _near(self.net, set(placed.off_direction), 1)
            for sep in placed.unmet:
                pts = set(sep.first) | set(sep.second)
                near |= {e for i in pts for e in self.net.incident[i]}
            self.hops = 0
            free = _near(self.net, near, self.hops) - set(self.frozen)
            self.repair = Repair(free, self.frozen, self.banned, self.allow_45)
        elif self.scale > MIN_SCALE:
            # too wide for the paper at this scale: the same directions at a smaller one
            self.repair = None
            bw, bh = box_units(self.scale)
            xs = [placed.xy[i][0] for i in self.live]
            ys = [placed.xy[i][1] for i in self.live]
            fit = min(bw / max(max(xs) - min(xs), 1e-9), bh / max(max(ys) - min(ys), 1e-9))
            self.rescale(max(min(self.scale * fit, self.scale * 0.97), MIN_SCALE))
        else:
            return False
        return True

    def best_drawing(self) -> Drawn:
        """The best drawing of the search; LayoutError naming the tightest station if none."""
        if self.best is None:
            node = crowded(self.net)
            where = f" (the tightest: station '{self.net.ids[node]}')" if node is not None else ""
            raise LayoutError(
                "no octilinear directions keep the order of the lines at every station within "
                f"the time limit{where}"
            )
        self.best.attempts = self.attempts
        self.best.sharp = self.sharp
        return self.best
