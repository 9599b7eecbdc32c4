"""The layout loop: directions, then coordinates, until every stretch is octilinear.

The direction program proposes; the coordinate program either closes every
stretch on its direction or reports which it could not (a cycle whose directions
do not add up, a pinned station in the way). Those stretches are cut at bend points,
or their directions chosen again inside the coordinate program (a repair), until the
drawing is clean or the work or time runs out; the best drawing so far is kept.
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from mapkit.checks.design import MAX_SPACING_RATIO
from mapkit.layout.coords import (
    RATIO_COST,
    UNIT,
    CoordinateProgram,
    Placement,
    Repair,
    Separation,
    _seg_dist,
    box_units,
    mm_per_unit,
    solve_coordinates,
)
from mapkit.layout.directions import Pricing, choose, crowded
from mapkit.layout.network import Cut, Network, subdivide
from mapkit.layout.report import drawn_crossings
from mapkit.mapfile.model import CityMap, Depot
from mapkit.sheet import PAPERS

Point = tuple[float, float]
TARGET_SPACING = 1.3
"""The input is scaled so that its median stretch is this many shortest stretches."""


START_SCALE = 3.0
MIN_SCALE = 2.2
"""Print scale aimed at first, in mm a layout unit: the shortest stretch 12 mm long."""


MAX_HOPS = 3
MAX_REPAIRS = 2
MAX_ATTEMPTS = 8
"""The search's work: at most this many placements (then the best of them is kept)."""


POLISH_NODES = 1
"""A polishing search's direction program stops at the end of its root node (counted work:
HiGHS closes most of them there; a polish of Madrid at faithfulness 0.08 would branch on
for 2.5 s more to prove the same directions within the gap)."""
POLISH = (0.3, 0.15)
"""The faithfulness (``Pricing.faithful``) of the polishing searches run after the
faithful one, most faithful first: directions priced nearer to their bends than to the input's
angles. A polishing search places its directions and shrinks the scale to fit the paper but
repairs nothing; a drawing of theirs wins when it is as clean as the faithful one and has a
lower bend score. Then the best drawing is redrawn: taken as the input and polished again
at the same prices, its stations on the eight directions where the search left them and
its stretches cut at bend points asking for a direction of their own. Measured on
bench_octi.py's networks (3 Dec): these two prices and their redraws sum a bend score of
575 over the 13 networks; 609.5 without redraws (with 0.08 as a third price); 575.5 with
that third price in the redraws too, which took Madrid jittered's search to 7.1 s."""
MAX_REDRAWS = 2
"""Redraws (``run``) while each finds a better drawing, at most this many (Paris: bend
score 74, 65, 60; on bench_octi.py's 13 networks a third redraw found no better drawing
and took a jittered Paris from 8.1 to 9 s)."""
RATIO_STEP = 4.0
"""How much more even spacing is priced in each retry of a clean but uneven drawing."""


def _near(net: Network, stretches: set[int], hops: int) -> set[int]:
    """``stretches`` and those within ``hops`` stations of them."""
    out = set(stretches)
    for _ in range(hops):
        nodes = {n for e in out for n in (net.stretches[e].u, net.stretches[e].v)}
        out |= {e for n in nodes for e in net.incident[n]}
    return out


MAX_BEND_ROUNDS = 8
"""Rounds of cutting stretches into two legs or pricing even spacing higher (each round
places the stations again)."""
MAX_RATIO_COST = RATIO_COST * RATIO_STEP**3
"""Even spacing is priced up to this (the price of a stretch off its direction is
``coords.SLACK_COST``: above it, lines bend at shape points rather than space unevenly)."""


Bends = dict[tuple[int, int], tuple[Point, ...]]
"""A cut stretch's bend points, by its stations (u, v), in order from u."""

Leaving = dict[tuple[int, int], int]
"""(station, stretch) -> the direction (0..7) the stretch leaves the station in, where a
cut stretch leaves it on a leg's direction instead of its own."""


def _split(
    net: Network, direction: dict[int, int], xy: list[Point], e: int, leave: Leaving,
    wide: bool = False,
) -> Cut | None:  # fmt: skip
    """How to cut stretch ``e`` (drawn at ``xy`` off its direction) into legs (see
    ``network.Cut``). One leg keeps the stretch's direction, the other takes the direction
    nearest the drawn one (a neighbour: a 135° bend; two eighths off: 90°) at the end where
    the cyclic order of the stretches there allows it (tried at v first); where neither end
    allows it, a jog: both ends keep the direction and a middle leg takes the neighbouring
    one (two 135° bends). ``wide``: two eighths off (90°), for a stretch whose legs a 135°
    bend could not close (a jog then turns the other way, still 135°: two 90° bends read as
    a zigzag). None when no cut keeps the order (a stretch leaving a station on the
    direction another one takes) and for a branching line's stretch (``net.straight``)."""
    if e in net.straight:
        return None
    s = net.stretches[e]
    k = direction[e]
    (ux, uy), (vx, vy) = xy[s.u], xy[s.v]
    drawn = math.atan2(vy - uy, vx - ux) / (math.pi / 4)
    turn = (drawn - k + 4) % 8 - 4
    step = max(-2, min(2, round(turn))) or (1 if turn > 0 else -1)
    if wide:
        step = 2 if turn > 0 else -2
    k2 = (k + step) % 8
    for first, second, short in ((k, k2, 1), (k2, k, 0)):
        back = (second + 4) % 8
        if _order_kept(net, direction, s.u, e, first, leave) and _order_kept(
            net, direction, s.v, e, back, leave
        ):
            leave[(s.u, e)] = first
            leave[(s.v, e)] = back
            return (first, second), short
    if _order_kept(net, direction, s.u, e, k, leave) and _order_kept(
        net, direction, s.v, e, (k + 4) % 8, leave
    ):
        side = (1 if turn > 0 else -1) * (-1 if wide else 1)
        return (k, (k + side) % 8, k), 1
    return None


def doglegs(net: Network, xy: list[Point], stretches: set[int]) -> Bends:
    """A bend point for each of ``stretches`` (drawn at ``xy`` off its direction): a straight
    run and a diagonal one meeting at 135°, on whichever side keeps farther from other
    stations. Keyed by the stretch's station pair."""
    out: Bends = {}
    for e in sorted(stretches):
        s = net.stretches[e]
        (ux, uy), (vx, vy) = xy[s.u], xy[s.v]
        dx, dy = vx - ux, vy - uy
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        if abs(dx) >= abs(dy):
            run = abs(dx) - abs(dy)
            options = [(ux + sx * run, uy), (ux + sx * abs(dy), vy)]
        else:
            run = abs(dy) - abs(dx)
            options = [(ux, uy + sy * run), (vx, uy + sy * abs(dx))]
        others = [p for i, p in enumerate(xy) if i not in (s.u, s.v) and net.incident[i]]

        def room(p: Point, others=others, a=xy[s.u], b=xy[s.v]) -> float:
            return min(
                (min(_seg_dist(q, a, p), _seg_dist(q, p, b)) for q in others), default=math.inf
            )

        out[(s.u, s.v)] = (max(options, key=room),)
    return out


def _uncut(
    seps: dict[tuple, Separation] | None, net: Network, splits: dict[int, Cut]
) -> dict[tuple, Separation] | None:
    """The separations of ``seps`` (found on ``net`` or on a subdivision of it) between
    stations and stretches of ``net`` that ``splits`` leaves whole: subdividing keeps their
    numbers (``network.subdivide``), so those pairs keep the sides they had instead of being
    found again only once they touch (a line's end could jump over another line in
    between). Bend points and legs are numbered anew."""
    if seps is None:
        return None
    n, m = len(net.ids), len(net.stretches)

    def whole(key: tuple, sep: Separation) -> bool:
        cut = () if key[0] == "p" else key[1:] if key[0] == "e" else key[2:]
        return all(e < m and e not in splits for e in cut) and all(
            p < n for p in sep.first + sep.second
        )

    return {k: v for k, v in seps.items() if whole(k, v)}


def _order_kept(
    net: Network, direction: dict[int, int], node: int, e: int, out: int, leave: Leaving
) -> bool:
    """Whether stretch ``e`` may leave ``node`` in direction ``out`` (0..7) with the cyclic
    order of the stretches there as it is now (``leave``: the legs already cut)."""

    def own(f: int) -> int:
        return direction[f] if net.stretches[f].u == node else (direction[f] + 4) % 8

    def leaving(f: int) -> int:
        return out if f == e else leave.get((node, f), own(f))

    inc = [f for f in net.incident[node] if f in direction]
    if len(inc) < 2:
        return True
    dirs = [leaving(f) for f in inc]
    if len(set(dirs)) < len(dirs):
        return False
    was = sorted(inc, key=own)
    now = sorted(inc, key=leaving)
    i = now.index(was[0])
    return now[i:] + now[:i] == was


def moved(city: CityMap, xy: list[Point], bends: Bends | None = None) -> CityMap:
    """``city`` with its stations at ``xy`` and each line's shape through the bend points
    of its stretches (each wagon at its first station: wagons are placed later)."""
    stations = tuple(replace(s, x=p[0], y=p[1]) for s, p in zip(city.stations, xy, strict=True))
    where = {s.id: (s.x, s.y) for s in stations}
    index = {s.id: i for i, s in enumerate(city.stations)}
    lines = tuple(
        replace(
            ln,
            depot=Depot(*where[ln.stops[0]], ln.depot.max_width_mm),
            shape=_shape(ln, where, index, bends or {}),
        )
        for ln in city.lines
    )
    return replace(city, stations=stations, lines=lines)


def printed_problems(city: CityMap, xy: list[Point], bends: Bends | None = None) -> list[str]:
    """The messages of validate's geometry problems between stations and lines once the
    stations of ``city`` are at ``xy`` (``moved``: the wagons not yet placed)."""
    return sheet_problems(moved(city, xy, bends))


def sheet_problems(city: CityMap, papers: tuple[str, ...] = tuple(PAPERS)) -> list[str]:
    """The messages of validate's geometry problems between stations and lines (GEO001,
    GEO002, GEO007) of ``city`` as it is, wagons included, on each of ``papers``."""
    from shapely import STRtree, points

    from mapkit.checks.context import CheckContext
    from mapkit.checks.geometry import _Geo
    from mapkit.mapfile import LoadResult

    found: list[str] = []
    for paper in papers:
        ctx = CheckContext(LoadResult("<layout>"), city, paper)
        geo = _Geo(ctx)
        geo.crowding()
        geo.lines_vs_stations(STRtree(points(geo.xy)))
        found += [d.message for d in ctx.diagnostics]
    return found


def _tighter(xy: list[Point], live: list[int]) -> str:
    """The paper that prints the stations at ``live`` smaller: the one whose problems are
    the drawing's (every gap in mm shrinks with the scale, the marks do not), measured
    alone while the search ranks its drawings; what it writes is measured on both."""
    pts = [xy[i] for i in live]
    return min(PAPERS, key=lambda paper: mm_per_unit(pts, (paper,)))


def colour_clashes(city: CityMap) -> int:
    """Pairs of lines too alike in colour to meet (``design.alike_when_near``) whose drawn
    lines come within ``MEET_MM`` of each other on A4 or Letter: the DES003 warnings a
    drawing causes."""
    from mapkit.checks.design import MEET_MM, alike_when_near, drawn_line, line_gap
    from mapkit.sheet import layout

    pairs = alike_when_near(city)
    if not pairs:
        return 0
    sheets = [layout(city, paper) for paper in PAPERS]
    return sum(
        any(line_gap(drawn_line(sh, a), drawn_line(sh, b)) < MEET_MM for sh in sheets)
        for a, b in pairs
    )


def _shape(ln, where: dict[str, Point], index: dict[str, int],
           bends: Bends) -> tuple[Point, ...] | None:  # fmt: skip
    """The line's shape with the bend points of its stretches (None: it has none; a
    branching line never has one)."""
    if ln.branches:
        return None
    stops = list(ln.stops) + ([ln.stops[0]] if ln.loop else [])
    pts = [where[stops[0]], where[stops[0]]]
    found = False
    for a, b in itertools.pairwise(stops):
        i, j = index[a], index[b]
        on = bends.get((min(i, j), max(i, j)))
        if on:
            pts += on if i < j else on[::-1]
            found = True
        pts.append(where[b])
    return tuple(pts) if found else None


class LayoutError(Exception):
    """A map that cannot be laid out within the limits; the message says where."""


@dataclass
class Drawn:
    xy: list[Point]
    direction: dict[int, int]
    placement: Placement
    scale_in: float
    attempts: int

    bends: Bends = field(default_factory=dict)
    """The bend points (135° or 90° turns between legs on the eight directions) of each
    stretch that could not take one direction, by its stations (u, v), from u."""
    conflicts: int = 0
    topology: int = 0
    """Topology violations against the input (``report.topology``)."""
    bend_score: float = 0.0
    """Under octi's weights (``report.bend_score``), bends at shape points included."""
    sharp: bool = False
    """Whether 45° bends had to be allowed to keep the order of the lines."""

    others: list[Drawn] = field(default_factory=list)
    """The search's other clean drawings (no stretch off, no topology violation, nothing too
    close), best first: the ones to try when this one's wagons find no clear spot."""
    uneven: int = 0
    """Lines whose longest stretch is more than ``MAX_SPACING_RATIO`` times their shortest."""
    clashes: int | None = None
    """Pairs of lines too alike in colour that the drawing brings together (``colour_clashes``;
    measured by ``run`` on the drawings a layout can be made of, see ``_rank``)."""

    @property
    def score(self) -> tuple[int, int, int, int]:
        """Stretches off their direction, topology violations, pairs too close at the
        print scale the drawing really gets, then lines with uneven spacing."""
        return (len(self.placement.off_direction), self.topology, self.conflicts, self.uneven)

    @property
    def rank(self) -> tuple[tuple[int, int, int], int, int, float]:
        """What the best drawing has least of: the problems of ``score``, then colour
        clashes (a validate warning) before uneven lines (a note), then the bend score."""
        return self.score[:3], self.clashes or 0, self.uneven, self.bend_score


def run(
    net: Network,
    pinned: set[int],
    allow_45: bool,
    deadline: float,
    city: CityMap,
    say: Callable[[str], None] | None = None,
    seed: int = 0,
    polish: bool = True,
    quick: bool = False,
) -> Drawn:
    """The best drawing found by ``deadline``: every stretch on its direction if possible,
    and (measured on ``city``'s sheets with the stations moved) nothing too close; with
    ``polish``, the searches of ``POLISH`` too, then up to ``MAX_REDRAWS`` redraws, for
    fewer bends; ``quick`` (without ``polish``): the faithful search's first clean
    drawing (``_Search.quick``)."""
    search = _Search(net, pinned, allow_45, deadline, city, Pricing(1.0, seed), quick=quick)
    as_is = search.as_drawn()
    if as_is is not None and not polish:
        _rank([as_is], city)
        return as_is  # laid out already: the faithful drawing of a faithful drawing
    while search.step(say):
        pass
    best = search.best_drawing()
    if as_is is not None:
        as_is.attempts = search.attempts
    # the input first: where a drawing is no better, the map stays as it is
    drawings = ([] if as_is is None else [as_is]) + [best, *best.others]
    if polish:
        drawings += _polished(net, net, pinned, allow_45, deadline, city, say, seed, POLISH)
    _rank(drawings, city)
    for _ in range(MAX_REDRAWS if polish else 0):
        best = drawings[0]
        if time.monotonic() > deadline or best.score[:3] != (0, 0, 0) or best is as_is:
            break  # (redrawing the input is the polish again)
        unit = best.scale_in
        again = replace(net, xy=[(x / unit, y / unit) for x, y in best.xy])
        drawings += _polished(again, net, pinned, allow_45, deadline, city, say, seed, POLISH)
        _rank(drawings, city)
        if drawings[0] is best:
            break
    best = drawings[0]
    best.others = [d for d in drawings[1:] if d.score[:3] == (0, 0, 0)]
    return best


def _rank(drawings: list[Drawn], city: CityMap) -> None:
    """Sort ``drawings`` best first (``Drawn.rank``), the colour clashes measured of those
    a layout can be made of (no topology violation, nothing too close: a stretch off its
    direction bends on the way)."""
    for d in drawings:
        if d.score[1:3] == (0, 0) and d.clashes is None:
            d.clashes = colour_clashes(moved(city, d.xy, d.bends))
    drawings.sort(key=lambda d: d.rank)


def _polished(
    net: Network, origin: Network, pinned: set[int], allow_45: bool, deadline: float,
    city: CityMap, say: Callable[[str], None] | None, seed: int, prices: tuple[float, ...],
) -> list[Drawn]:  # fmt: skip
    """The drawings of a polishing search at each faithfulness of ``prices``, from the
    stations of ``net`` (the input, or a drawing of it being redrawn), their topology
    measured against ``origin``'s."""
    drawings: list[Drawn] = []
    redraw = net is not origin
    for faithful in prices:
        if time.monotonic() > deadline:
            break
        more = _Search(
            net, pinned, allow_45, deadline, city, Pricing(faithful, seed), True, origin.xy
        )
        if say:
            say(
                ("redrawing the best drawing" if redraw else "polishing")
                + f" for fewer bends: directions {faithful:g} faithful to "
                + ("it" if redraw else "the input")
            )
        while more.step(say):
            pass
        if more.best is not None:
            got = more.best_drawing()
            drawings += [got, *got.others]
    return drawings


class _Search:
    """The loop's state: the directions and the stretches being repaired, the print scale
    aimed at, the separations found so far, and the best drawing yet."""

    def __init__(
        self,
        net: Network,
        pinned: set[int],
        allow_45: bool,
        deadline: float,
        city: CityMap,
        pricing: Pricing,
        polishing: bool = False,
        origin: list[Point] | None = None,
        quick: bool = False,
    ) -> None:
        """``polishing``: a polishing search (``POLISH``), whose stretches off their
        direction and clearances unmet end it instead of being repaired, and whose direction
        program stops after ``POLISH_NODES`` branch-and-bound nodes. ``origin``: the input's
        stations, against which topology is measured, when ``net`` has a drawing of it
        being redrawn (``run``). ``quick``: the quick search, which ends at its first clean
        drawing (``self.quick``)."""
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
        self.best: Drawn | None = None
        self.drawings: list[Drawn] = []
        self.seps = None
        self.attempts = 0
        self.direction: dict[int, int] | None = None
        self.repair: Repair | None = None
        self.hops = 0
        self.repairs = 0
        self.sharp = False
        self.pricing = pricing
        self.polishing = polishing
        self.quick = quick
        """The quick search (``run`` without polish) ends at its first clean drawing: no retry
        for more even spacing and no repair's integer program; stretches still off their
        direction bend once on the way (``bent_on_the_way``) where that keeps it clean."""
        self.ratio_cost = RATIO_COST
        self.resume: CoordinateProgram | None = None
        """The program to place the same directions again from, more evenly spaced."""
        self.lines = sorted({line for s in net.stretches for line in s.lines})
        self.origin = origin if origin is not None else net.xy
        self.crossed = drawn_crossings(net, city)
        """The stretches the input draws crossing along its shapes (``report.topology``)."""

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
            self.deadline, self.seps, self.repair, self.ratio_cost, self.resume,
        )  # fmt: skip
        self.resume = None
        if placed is None:
            return self.widen_repair()
        program, placed.model = placed.model, None  # a kept drawing holds no solver
        self.direction = placed.direction
        self.seps = placed.separations
        drawn = self.measured(Drawn(placed.xy, self.direction, placed, k * sk, self.attempts))
        self.drawings.append(drawn)
        if placed.off_direction or drawn.uneven:
            bent = self.bent(placed, targets, program)
            if bent is not None and bent.score < drawn.score:
                drawn = bent
        if self.best is None or drawn.score < self.best.score:
            self.best = drawn
        if say:
            say(self.progress(placed))
        if drawn.score == (0, 0, 0, 0) or self.attempts >= MAX_ATTEMPTS:
            return False
        if self.quick and (self.best.score[:3] == (0, 0, 0) or self.bent_on_the_way()):
            return False  # the quick search ends at its first clean drawing
        if time.monotonic() > self.deadline:
            return False
        if self.best.score[:3] == (0, 0, 0):
            # clean but uneven: the same directions again, even spacing priced higher (while
            # that keeps the drawing clean)
            if drawn is not self.best or self.ratio_cost >= RATIO_COST * RATIO_STEP**2:
                return False
            self.ratio_cost *= RATIO_STEP
            self.repair = None
            self.resume = program
            return True
        return self.next_attempt(placed)

    def choose(self) -> bool:
        """New directions for every stretch; False when there are none."""
        left = self.deadline - time.monotonic()
        choice = choose(
            self.net, self.frozen, self.allow_45, max(left, 0.05), self.pricing,
            POLISH_NODES if self.polishing else None,
        )  # fmt: skip
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
        return True

    def bent(
        self, placed: Placement, targets: list[Point], program: CoordinateProgram | None
    ) -> Drawn | None:
        """The drawing with every stretch ``placed`` could not keep on its direction cut in
        legs (135° or 90° bends at shape points, see ``_split``), placed again with the bend
        points as points of their own: their legs keep clear of the stations and stretches
        around them like any other. Stretches the new placement cannot keep on their direction are
        cut too, for a few rounds; a drawing with every stretch on its direction but uneven
        spacing is placed again with even spacing priced higher (and what that pushes off
        its direction cut too). The best drawing of the rounds (every round's is kept among
        the search's drawings); None when no cut keeps every station's order. ``program``:
        the one ``placed`` was solved with, resumed by a round that cuts nothing new."""
        net = self.net
        n = len(net.ids)
        splits: dict[int, Cut] = {}
        leave: Leaving = {}
        xy, off = placed.xy, set(placed.off_direction)
        wide: set[int] = set()
        ratio = {line: self.ratio_cost for line in self.lines}
        sub, legs, leg_of = subdivide(net, splits)
        seps = placed.separations
        model = program  # ``placed``'s, resumed while nothing more is cut: only prices change
        best: Drawn | None = None
        uneven = self.uneven_lines(xy)
        for _ in range(MAX_BEND_ROUNDS):
            if best is not None and time.monotonic() > self.deadline:
                break  # the time limit: the best round so far
            if off:
                for e in sorted(off):
                    for key in [k for k in leave if k[1] == e]:
                        del leave[key]
                    cut = _split(net, placed.direction, xy, e, leave, e in wide)
                    if cut is None and e not in wide:
                        wide.add(e)  # no 135° cut keeps the order: 90°, or a jog the other way
                        cut = _split(net, placed.direction, xy, e, leave, True)
                    if cut is None:
                        return best
                    splits[e] = cut
                sub, legs, leg_of = subdivide(net, splits)
                seps = _uncut(seps, net, splits)
                model = None
            else:
                for line in uneven:
                    ratio[line] = min(ratio[line] * RATIO_STEP, MAX_RATIO_COST)
            direction = {**placed.direction, **legs}
            more = [
                ((targets[u][0] + targets[v][0]) / 2, (targets[u][1] + targets[v][1]) / 2)
                for u, v in sub.bends.values()
            ]
            got = solve_coordinates(
                sub, direction, list(targets) + more, self.fixed, set(self.frozen),
                self.scale, self.deadline, seps, ratio_cost=ratio, resume=model,
            )  # fmt: skip
            if got is None:
                return best
            model = got.model
            bad = {leg_of[e] for e in got.off_direction if e in leg_of}
            if bad & wide:
                return best  # a leg could not keep its direction, even at 90°
            wide |= bad
            xy, off = got.xy[:n], set(got.off_direction) - set(leg_of) | bad
            seps = got.separations
            result = Placement(xy, {e: 1.0 for e in off}, got.unmet, got.overflow, placed.direction)
            bends: Bends = {}
            for p in sorted(sub.bends):
                bends[sub.bends[p]] = (*bends.get(sub.bends[p], ()), got.xy[p])
            drawn = Drawn(xy, placed.direction, result, self.k * self.scale_k, self.attempts, bends)
            self.measured(drawn)
            uneven = self.uneven_lines(xy)
            self.drawings.append(drawn)
            if best is None or drawn.score < best.score:
                best = drawn
            if not off and all(ratio[line] >= MAX_RATIO_COST for line in uneven):
                break
        return best

    def bent_on_the_way(self) -> bool:
        """Whether the best drawing, its stretches still off their direction each bent once
        on the way (``doglegs``: a 135° bend at a shape point), is clean; it is then
        the best drawing (the quick search's, where a repair's integer program costs seconds:
        jittered Madrid 1.9 -> 0.7 s, bend score 81.5 -> 66)."""
        best = self.best
        if best is None or not best.score[0] or best.score[1:3] != (0, 0):
            return False
        off = set(best.placement.off_direction)
        if off & self.net.straight:
            return False  # a branching line's stretch has no shape points to bend at
        bends = {**best.bends, **doglegs(self.net, best.xy, off)}
        placement = replace(best.placement, off_direction={})
        dog = self.measured(replace(best, placement=placement, bends=bends, others=[]))
        if dog.score[:3] != (0, 0, 0):
            return False
        self.drawings.append(dog)
        self.best = dog
        return True

    def measured(self, drawn: Drawn) -> Drawn:
        """``drawn`` with its problems and bend score measured on the map it draws."""
        from mapkit.layout.report import bend_score, line_bends, topology

        city = moved(self.city, drawn.xy, drawn.bends)
        drawn.conflicts = len(sheet_problems(city, (_tighter(drawn.xy, self.live),)))
        drawn.topology = len(topology(self.net, self.origin, drawn.xy, self.crossed))
        drawn.uneven = len(self.uneven_lines(drawn.xy))
        drawn.bend_score = bend_score(line_bends(city))
        return drawn

    def as_drawn(self) -> Drawn | None:
        """The input as it is drawn, when every stretch of it (each leg, at its shape points)
        lies on the eight directions and it is clean (nothing too close at print scale): a
        map already laid out then competes with its redrawings, so laying it out again never
        makes it worse (and ``--quick`` keeps it as it is). In the input's own units
        (``scale_in`` 1). None for any other input."""
        from mapkit.layout.report import ANGLE_TOL, hops, off_octilinear

        net = self.net
        drawn_hops = hops(self.city)
        bends: Bends = {}
        direction: dict[int, int] = {}
        for e, st in enumerate(net.stretches):
            poly = drawn_hops.get(frozenset((net.ids[st.u], net.ids[st.v])))
            if poly is None:
                return None
            if poly[0] != net.xy[st.u]:
                poly = poly[::-1]
            steps = [(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(poly)]
            if any(off_octilinear(dx, dy) > ANGLE_TOL for dx, dy in steps):
                return None
            dx, dy = next((d for d in steps if d != (0, 0)), (0, 0))
            direction[e] = round(math.atan2(dy, dx) / (math.pi / 4)) % 8
            if len(poly) > 2:
                bends[(st.u, st.v)] = tuple(poly[1:-1])
        xy = list(net.xy)
        placement = Placement(xy, {}, [], 0.0, direction)
        drawn = self.measured(Drawn(xy, direction, placement, 1.0, self.attempts, bends))
        return drawn if drawn.score[:3] == (0, 0, 0) else None

    def uneven_lines(self, xy: list[Point]) -> list[str]:
        """The lines whose stop spacing is more uneven than validate's DES006 allows."""
        gaps: dict[str, list[float]] = {}
        for s in self.net.stretches:
            d = math.dist(xy[s.u], xy[s.v])
            for line in s.lines:
                gaps.setdefault(line, []).append(d)
        return sorted(
            line for line, g in gaps.items() if min(g) <= 0 or max(g) / min(g) > MAX_SPACING_RATIO
        )

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
        if trouble and self.polishing:
            return False
        if trouble and self.repairs >= MAX_REPAIRS:
            # this scale is too tight for the map's centre: start again a size smaller
            if self.scale <= MIN_SCALE:
                return False
            self.repairs, self.repair, self.direction, self.seps = 0, None, None, None
            self.rescale(max(self.scale * 0.9, MIN_SCALE))
        elif trouble:
            self.repairs += 1
            near = set(placed.off_direction)
            for sep in placed.unmet:
                pts = set(sep.first) | set(sep.second)
                near |= {e for i in pts for e in self.net.incident[i]}
            self.hops = 0
            free = _near(self.net, near, self.hops) - set(self.frozen)
            self.repair = Repair(free, self.frozen, self.allow_45, self.pricing)
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
            why = (
                "within the time limit"
                if time.monotonic() > self.deadline
                else "among each stretch's nearest directions"
            )
            raise LayoutError(
                f"no octilinear directions keep the order of the lines at every station {why}"
                f"{where}"
            )
        self.best.attempts = self.attempts
        self.best.sharp = self.sharp
        clean = [d for d in self.drawings if d is not self.best and d.score[:3] == (0, 0, 0)]
        self.best.others = sorted(clean, key=lambda d: d.score)
        return self.best
