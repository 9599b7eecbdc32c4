"""Station coordinates for fixed stretch directions: a linear program with lazy clearances.

With every stretch's direction fixed, "on that direction and at least one stop
spacing long" is linear in the coordinates. The objective weighs the drawn length
of every stretch (short, even spacing), the distance each station moves from its
place in the input (the reader's mental map) and, as soft constraints with high
prices, any stretch the directions cannot close (a cycle whose directions do not
add up) and any clearance not met. Clearances are added lazily: solve, measure at
print scale which stations come too close to a stretch they are not on, which
stretches cross or touch and which stations crowd, add a separating constraint for
each such pair along the octilinear axis that separates them best in the input
(so the pair keeps the side it had: the topology), and solve again.

Units: the shortest stretch is ``UNIT`` layout units; every right-hand side is an
integer, so the optimal vertex has small denominators and is made exact afterwards.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from mapkit.layout.directions import Pricing, add_choice, picked
from mapkit.layout.network import DIRECTIONS, Network, Stretch
from mapkit.layout.program import Program
from mapkit.sheet import METRICS, PAPERS, map_area

Point = tuple[float, float]

UNIT = 4
"""Layout units of the shortest stretch (the axis run of a diagonal one is 3: 4.24 long)."""
LENGTH_COST = 1.0
MOVE_COST = 0.25
LONG_COST = 40.0
LONG_LIMIT = 2.5
"""A stretch longer than this many ``UNIT`` is priced ``LONG_COST`` more per unit."""
SPACING_RATIO = (11, 4)
"""Longest over shortest stretch of a line, at most 11/4 (2.92 counting the diagonals'
approximation; validate's DES006 allows 3)."""
RATIO_COST = 15.0
SLACK_COST = 2000.0
SEPARATION_COST = 5000.0
"""A unit of clearance left unmet: above uneven spacing at its highest price
(``engine.MAX_RATIO_COST``), so that spacing never wins over a station's room."""
OVERFLOW_COST = 100.0
MAX_ROUNDS = 40
"""Rounds of the lazy clearances (each solves the program again with what it found)."""
REPAIR_NODES = 1
"""Each integer program of a repair stops at its best solution after this many
branch-and-bound nodes: counted work, not seconds, so that the layout is the same however
loaded the machine is."""
WAGON_ROOM_MM = 12.0
"""Room kept around the stations on the sheet for the wagons, when estimating the scale."""
MARGIN_MM = 0.5
AXES = DIRECTIONS


def box_units(scale: float, papers: tuple[str, ...] = tuple(PAPERS)) -> tuple[float, float]:
    """(width, height) in layout units that the stations may span so that the sheet prints
    them at ``scale`` mm a unit (or larger) on every one of ``papers``, wagons beside them."""
    room = 2 * METRICS.station_r + WAGON_ROOM_MM
    areas = [map_area(p) for p in papers]
    return (min(a.w for a in areas) - room) / scale, (min(a.h for a in areas) - room) / scale


def mm_per_unit(xy: list[Point], papers: tuple[str, ...] = tuple(PAPERS)) -> float:
    """The print scale the stations' extent will get (the smallest over ``papers``)."""
    xs = [p[0] for p in xy]
    ys = [p[1] for p in xy]
    w = max(max(xs) - min(xs), 1e-9)
    h = max(max(ys) - min(ys), 1e-9)
    bw, bh = box_units(1.0, papers)
    return min(bw / w, bh / h)


@dataclass
class Separation:
    """Keep point set ``first`` and point set ``second`` apart along ``axis`` by ``mm``."""

    first: tuple[int, ...]
    second: tuple[int, ...]
    axis: tuple[int, int] | None
    mm: float


@dataclass
class Placement:
    xy: list[Point]
    off_direction: dict[int, float]
    unmet: list[Separation]
    overflow: float
    direction: dict[int, int]
    separations: dict[tuple, Separation] = field(default_factory=dict)
    scale: float = 1.0
    model: CoordinateProgram | None = field(default=None, repr=False, compare=False)
    """The program this was solved with (None for a repair's): ``solve_coordinates`` can
    resume it with other even-spacing prices, from its last basis."""


def _bundle_half(lines: int) -> float:
    return (lines - 1) / 2 * METRICS.parallel_step


def _axes(
    net: Network, direction: dict[int, int], key: tuple, free: set[int]
) -> list[tuple[int, int]]:
    """The octilinear axes that can separate a pair once its stretches run in their
    directions: a stretch's normal (a side of it) or its own direction (beyond an end)."""
    if key[0] == "p":
        return list(AXES)
    out = []
    for e in key[1:] if key[0] == "e" else key[2:]:
        if e not in direction or e in free:
            return list(AXES)
        k = direction[e]
        out += [AXES[(k + j) % 8] for j in (0, 2, 4, 6)]
    return out


def _best_axis(
    xy: list[Point], first: tuple[int, ...], second: tuple[int, ...], axes: list[tuple[int, int]]
):
    """(axis, separation) of the axis among ``axes`` along which ``second`` lies farthest
    beyond ``first`` in ``xy``."""
    best = None
    for ax in axes:
        n = math.hypot(*ax)
        lo = min(ax[0] * xy[q][0] + ax[1] * xy[q][1] for q in second)
        hi = max(ax[0] * xy[p][0] + ax[1] * xy[p][1] for p in first)
        sep = (lo - hi) / n
        if best is None or sep > best[1]:
            best = (ax, sep)
    return best


def _facing_axis(
    xy: list[Point],
    stretch: tuple[int, ...],
    w: int,
    axes: list[tuple[int, int]],
    along: tuple[int, int] | None = None,
) -> tuple[int, int] | None:
    """The axis among ``axes`` nearest the way station ``w`` lies from stretch ``stretch``
    in ``xy``, for a pair no axis has apart (a stretch drawn far off its direction, the
    station near one end). Beside the stretch, with ``along`` its direction: the normal
    on the side of the line the station is on (the stretch turns, the side stays);
    otherwise the way from its nearest point. None for a station on the stretch."""
    (ux, uy), (vx, vy), (px, py) = xy[stretch[0]], xy[stretch[1]], xy[w]
    dx, dy = vx - ux, vy - uy
    den = dx * dx + dy * dy
    t = 0.0 if den == 0 else ((px - ux) * dx + (py - uy) * dy) / den
    if along is not None and 0 < t < 1:
        side = dx * (py - uy) - dy * (px - ux)
        sign = (side > 0) - (side < 0)
        ox, oy = -along[1] * sign, along[0] * sign
    else:
        t = max(0.0, min(1.0, t))
        ox, oy = px - ux - t * dx, py - uy - t * dy
    if ox == oy == 0:
        return None
    return max(axes, key=lambda a: (a[0] * ox + a[1] * oy) / math.hypot(*a))


def solve_coordinates(
    net: Network,
    direction: dict[int, int],
    targets: list[Point],
    pinned: dict[int, Point],
    frozen: set[int],
    scale: float,
    deadline: float,
    separations: dict[tuple, Separation] | None = None,
    repair: Repair | None = None,
    ratio_cost: float | Mapping[str, float] = RATIO_COST,
    resume: CoordinateProgram | None = None,
) -> Placement | None:
    """Coordinates for ``direction`` (stretch -> k), near ``targets``; None when the program
    has no solution in time. With ``repair``, the directions of ``repair.free`` are chosen
    too, and ``direction`` is updated with them. ``resume``: the program of an earlier
    placement of the same network, directions, targets and pins (``Placement.model``),
    repriced at ``ratio_cost`` and solved from its last basis instead of built anew."""
    import time

    direction = dict(direction)
    free = repair.free if repair is not None else set()
    seps: dict[tuple, Separation] = {}
    for key, old in (separations or {}).items():
        if old.axis is None:
            seps[key] = old
            continue
        axes = _axes(net, direction, key, free)
        ax = old.axis
        if ax not in axes:
            ax, _ = _best_axis(net.xy, old.first, old.second, axes)
        seps[key] = Separation(old.first, old.second, ax, old.mm)
    model = resume
    if model is not None:
        model.reprice(ratio_cost)
    for round_ in range(MAX_ROUNDS):
        left = deadline - time.monotonic()
        if model is None or repair is not None:
            # a repair's pairs may choose their axis (binaries): its program is built anew
            model = CoordinateProgram(
                net, direction, targets, pinned, frozen, scale, repair, ratio_cost
            )
        got = model.solve(seps, max(left, 0.1))
        if got is None:
            return None
        xy, off, unmet, overflow = got
        found = find_conflicts(net, xy, scale)
        new = 0
        for key, (first, second, mm) in found.items():
            if key in seps:
                continue
            # the side the pair had in the input, along an axis its directions allow; where
            # none has it apart, the side of the stretch a station is on, else the side the
            # pair has now
            axes = _axes(net, direction, key, free)
            ax, sep = _best_axis(net.xy, first, second, axes)
            if sep <= 0:
                if key[0] == "e" and _crossed(net.xy, first, second):
                    ax = None  # they cross in the input too: a crossing the map already had
                else:
                    facing = None
                    if key[0] == "s":
                        e = key[2]
                        along = None if e in free else AXES[direction[e]]
                        facing = _facing_axis(net.xy, first, second[0], axes, along)
                    ax = facing or _best_axis(xy, first, second, axes)[0]
            seps[key] = Separation(first, second, ax, mm)
            new += 1
        if not new or time.monotonic() > deadline or round_ == MAX_ROUNDS - 1:
            unmet_seps = [seps[k] for k in unmet]
            unmet_seps += [seps[k] for k in found if k not in unmet and seps[k].axis is not None]
            kept = None if repair is not None else model
            return Placement(xy, off, unmet_seps, overflow, direction, seps, scale, kept)
    return None


def find_conflicts(
    net: Network, xy: list[Point], scale: float, margin: float = MARGIN_MM
) -> dict[tuple, tuple]:
    """Pairs closer at print scale (``scale`` mm a unit) than they may be:
    key -> (first points, second points, mm needed)."""
    from shapely import STRtree, linestrings, points

    m = METRICS
    found: dict[tuple, tuple] = {}
    live = [i for i, inc in enumerate(net.incident) if inc and i not in net.bends]
    width = {e: len(s.lines) for e, s in enumerate(net.stretches)}
    pill = {i: max((_bundle_half(width[e]) for e in net.incident[i]), default=0.0) for i in live}
    segs = [(xy[s.u], xy[s.v]) for s in net.stretches]
    ends = [_ends(net, s) for s in net.stretches]
    far = (2 * m.station_r + 3 * m.parallel_step + 8 * m.parallel_step) / scale
    if segs:
        from shapely import distance

        lines = linestrings(segs)
        seg_tree = STRtree(lines)
        pts = points([xy[i] for i in live])
        # stations near stretches they are not on
        pi, ei = seg_tree.query(pts, predicate="dwithin", distance=far)
        if len(pi):
            dist = distance(pts[pi], lines[ei]) * scale
            for a, e, d in zip(pi.tolist(), ei.tolist(), dist.tolist(), strict=True):
                w = live[a]
                s = net.stretches[e]
                if w in ends[e]:
                    continue
                need = m.station_r + m.line_w / 2 + m.near_line + _bundle_half(width[e])
                need += pill[w] + margin
                if d < need:
                    found[("s", w, e)] = ((s.u, s.v), (w,), need)
        # stretches crossing or touching stretches they do not meet
        ea, eb = seg_tree.query(lines, predicate="dwithin", distance=far)
        keep = ea < eb
        ea, eb = ea[keep], eb[keep]
        if len(ea):
            dist = distance(lines[ea], lines[eb]) * scale
            for e, f, d in zip(ea.tolist(), eb.tolist(), dist.tolist(), strict=True):
                se, sf = net.stretches[e], net.stretches[f]
                if ends[e] & ends[f]:
                    continue
                need = m.line_w + _bundle_half(width[e]) + _bundle_half(width[f])
                need += m.parallel_gap + margin
                if d < need:
                    found[("e", e, f)] = ((se.u, se.v), (sf.u, sf.v), need)
    # stations crowding stations they are not joined to
    joined = {(s.u, s.v) for s in net.stretches}
    tree = STRtree(points([xy[i] for i in live]))
    reach = (m.min_station_distance + 4 * m.parallel_step + MARGIN_MM) / scale
    qa, qb = tree.query(points([xy[i] for i in live]), predicate="dwithin", distance=reach)
    for a, b in zip(qa.tolist(), qb.tolist(), strict=True):
        u, v = live[a], live[b]
        if u >= v or (u, v) in joined:
            continue
        need = m.min_station_distance + pill[u] + pill[v] + margin
        if math.dist(xy[u], xy[v]) * scale < need:
            found[("p", u, v)] = ((u,), (v,), need)
    return found


def _ends(net: Network, s: Stretch) -> set[int]:
    """The stations a stretch joins, with those of the stretch it is a leg of."""
    out = {s.u, s.v}
    for node in (s.u, s.v):
        out |= set(net.bends.get(node, ()))
    return out


def _crossed(xy: list[Point], first: tuple[int, ...], second: tuple[int, ...]) -> bool:
    return _cross(xy[first[0]], xy[first[1]], xy[second[0]], xy[second[1]])


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    den = dx * dx + dy * dy
    t = 0.0 if den == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / den))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0) and 0 not in (o1, o2, o3, o4)


def _seg_seg_dist(a: Point, b: Point, c: Point, d: Point) -> float:
    if _cross(a, b, c, d):
        return 0.0
    return min(_seg_dist(a, c, d), _seg_dist(b, c, d), _seg_dist(c, a, b), _seg_dist(d, a, b))


@dataclass
class Repair:
    """Stretches whose direction the coordinate program chooses too (an integer program)."""

    free: set[int]
    frozen: dict[int, float]
    allow_45: bool
    pricing: Pricing = field(default_factory=Pricing)


def _choice_rows(p: Program, s, opts: list[tuple[int, int]], xs, ys, big_m: float) -> None:
    """Rows that hold only for the chosen candidate: on its direction, at least UNIT long,
    its length priced; each relaxed by ``big_m`` when its binary is 0."""
    u, v = s.u, s.v
    root2 = math.sqrt(2.0)
    length = p.var(LENGTH_COST / UNIT)
    long = p.var(LONG_COST / UNIT)
    for k, b in opts:
        dx, dy = DIRECTIONS[k % 8]
        if dx and dy:
            level = {xs[v]: dx, xs[u]: -dx, ys[v]: -dy, ys[u]: dy}
            runs = [({xs[v]: dx, xs[u]: -dx}, math.ceil(UNIT / root2))]
            runs.append(({ys[v]: dy, ys[u]: -dy}, math.ceil(UNIT / root2)))
            most = math.floor(LONG_LIMIT * UNIT / root2)
            h = root2 / 2
            expr = {xs[v]: dx * h, xs[u]: -dx * h, ys[v]: dy * h, ys[u]: -dy * h}
        elif dy == 0:
            level = {ys[v]: 1.0, ys[u]: -1.0}
            runs = [({xs[v]: dx, xs[u]: -dx}, UNIT)]
            most = math.floor(LONG_LIMIT * UNIT)
            expr = {xs[v]: dx, xs[u]: -dx}
        else:
            level = {xs[v]: 1.0, xs[u]: -1.0}
            runs = [({ys[v]: dy, ys[u]: -dy}, UNIT)]
            most = math.floor(LONG_LIMIT * UNIT)
            expr = {ys[v]: dy, ys[u]: -dy}
        p.row({**level, b: big_m}, upper=big_m)
        p.row({**{c: -a for c, a in level.items()}, b: big_m}, upper=big_m)
        for run, least in runs:
            p.row({**run, b: -big_m}, least - big_m)
        p.row({**runs[0][0], long: -1.0, b: big_m}, upper=most + big_m)
        p.row({length: 1.0, **{c: -a for c, a in expr.items()}, b: -big_m}, -big_m)


class CoordinateProgram:
    """The coordinate program for fixed directions (with ``repair``: choosing the directions
    of its stretches too). Its separations are added as they are found and the program
    solved again: without a repair it grows, so each solve starts from the last one's basis."""

    def __init__(
        self,
        net: Network,
        direction: dict[int, int],
        targets: list[Point],
        pinned: dict[int, Point],
        frozen: set[int],
        scale: float,
        repair: Repair | None = None,
        ratio_cost: float | Mapping[str, float] = RATIO_COST,
    ) -> None:
        self.net, self.direction, self.scale, self.repair = net, direction, scale, repair
        self.p = p = Program()
        self.xs, self.ys = xs, ys = _positions(p, len(net.ids), pinned, targets)
        self.pick: dict[int, list[tuple[int, int]]] = {}
        self.big_m = 4.0 * max(box_units(scale))
        if repair is not None:
            fixed = {e: float(k) for e, k in direction.items() if e not in repair.free}
            fixed.update(repair.frozen)
            self.pick = add_choice(
                p, net, repair.free, fixed, repair.allow_45, pricing=repair.pricing
            )
            for e, opts in self.pick.items():
                _choice_rows(p, net.stretches[e], opts, xs, ys, self.big_m)
        self.slack_cols = {
            e: _stretch_rows(p, s, direction[e], xs, ys, net.least.get(e, UNIT))
            for e, s in enumerate(net.stretches)
            if e not in frozen and e not in self.pick
        }
        self.excess = _ratio_rows(p, net, direction, set(self.slack_cols), xs, ys, ratio_cost)
        self.over = _box_rows(p, net, xs, ys, scale)
        self.moving = {n for e in self.pick for n in (net.stretches[e].u, net.stretches[e].v)}
        self.sep_slack: dict[tuple, int] = {}
        self.either: dict[tuple, list[tuple[tuple[int, int], int]]] = {}

    def reprice(self, ratio_cost: float | Mapping[str, float]) -> None:
        """Even spacing priced at ``ratio_cost`` (a number, or by line) from the next solve."""
        for line, col in self.excess.items():
            self.p.set_cost(col, _price(ratio_cost, line) / UNIT)

    def solve(self, seps: dict[tuple, Separation], time_limit: float = math.inf):
        """Solve with ``seps`` (those not yet in the program are added): (xy, stretches off
        their direction, separations unmet, overflow), or None. A repair's pairs that chose
        their axis have it set in ``seps``."""
        net, p, direction = self.net, self.p, self.direction
        new = {k: v for k, v in seps.items() if k not in self.sep_slack}
        sep_slack, either = _separation_rows(
            p, net, new, self.moving, self.xs, self.ys, self.scale, self.big_m
        )
        self.sep_slack.update(sep_slack)
        self.either.update(either)
        sol = p.solve(time_limit, REPAIR_NODES if self.repair is not None else None)
        if not sol.ok:
            return None
        val = sol.values
        if self.pick:
            direction.update(picked(self.pick, val))
        for key, opts in self.either.items():
            seps[key].axis = max(opts, key=lambda az: val[az[1]])[0]
        xy = [(val[self.xs[i]], val[self.ys[i]]) for i in range(len(net.ids))]
        off = {
            e: val[a] + val[b] for e, (a, b) in self.slack_cols.items() if val[a] + val[b] > 1e-6
        }
        unmet = [key for key, col in self.sep_slack.items() if val[col] > 1e-6]
        return xy, off, unmet, val[self.over]


_FAR = 1e7
"""Bounds of a free coordinate (map units): far beyond any sheet."""


def _positions(
    p: Program, n: int, pinned: dict[int, Point], targets: list[Point]
) -> tuple[list[int], list[int]]:
    """The columns of every station's x and y: a pinned one fixed, the others priced by
    their distance from their target."""
    xs, ys = [], []
    for i in range(n):
        if i in pinned:
            px, py = pinned[i]
            xs.append(p.var(0.0, px, px))
            ys.append(p.var(0.0, py, py))
            continue
        xs.append(p.var(0.0, -_FAR, _FAR))
        ys.append(p.var(0.0, -_FAR, _FAR))
        tx, ty = targets[i]
        for col, t in ((xs[i], tx), (ys[i], ty)):
            d = p.var(MOVE_COST / UNIT)
            p.row({d: 1.0, col: -1.0}, -t)
            p.row({d: 1.0, col: 1.0}, t)
    return xs, ys


def _stretch_rows(
    p: Program, s: Stretch, k: int, xs: list[int], ys: list[int], least: int = UNIT
) -> tuple[int, int]:
    """A stretch kept on direction ``k``: at least ``least`` long (a unit, but for the
    short leg of a bend), priced by its length and what it runs beyond ``LONG_LIMIT``; its
    slack columns off the direction (plus, minus)."""
    dx, dy = DIRECTIONS[k]
    u, v = s.u, s.v
    root2 = math.sqrt(2.0)
    plus, minus = p.var(SLACK_COST / UNIT), p.var(SLACK_COST / UNIT)
    if dy == 0:
        p.row({ys[v]: 1.0, ys[u]: -1.0, plus: -1.0, minus: 1.0}, 0.0, 0.0)
        p.row({xs[v]: dx, xs[u]: -dx}, least)
        length = {xs[v]: dx, xs[u]: -dx}
    elif dx == 0:
        p.row({xs[v]: 1.0, xs[u]: -1.0, plus: -1.0, minus: 1.0}, 0.0, 0.0)
        p.row({ys[v]: dy, ys[u]: -dy}, least)
        length = {ys[v]: dy, ys[u]: -dy}
    else:
        run = math.ceil(least / root2)
        p.row({xs[v]: dx, xs[u]: -dx, ys[v]: -dy, ys[u]: dy, plus: -1.0, minus: 1.0}, 0.0, 0.0)
        p.row({xs[v]: dx, xs[u]: -dx}, run)
        p.row({ys[v]: dy, ys[u]: -dy}, run)
        h = root2 / 2
        length = {xs[v]: dx * h, xs[u]: -dx * h, ys[v]: dy * h, ys[u]: -dy * h}
    for col, c in length.items():
        p.cost[col] += LENGTH_COST / UNIT * c
    # integer coefficients only, so that the optimal vertex stays rational
    long = p.var(LONG_COST / UNIT)
    along = {xs[v]: dx, xs[u]: -dx} if dx else {ys[v]: dy, ys[u]: -dy}
    most = LONG_LIMIT * UNIT / (root2 if dx and dy else 1.0)
    p.row({**along, long: -1.0}, upper=math.floor(most))
    return plus, minus


def _run(net: Network, e: int, k: int, xs: list[int], ys: list[int]) -> dict[int, float]:
    """The axis run of stretch ``e`` on direction ``k`` (its length, for a diagonal its
    length over the square root of two), as a row."""
    s = net.stretches[e]
    dx, dy = DIRECTIONS[k]
    return {xs[s.v]: dx, xs[s.u]: -dx} if dx else {ys[s.v]: dy, ys[s.u]: -dy}


def _ratio_rows(
    p: Program, net: Network, direction: dict[int, int], stretches: set[int],
    xs: list[int], ys: list[int], cost: float | Mapping[str, float] = RATIO_COST,
) -> dict[str, int]:  # fmt: skip
    """Even spacing along each line: every stretch of a line at most ``SPACING_RATIO``
    times as long as its shortest (validate's DES006 allows 3), a priced slack beyond.
    Lengths as axis runs, a diagonal's counted as two thirds of its length, within 6 % of
    the truth (integer coefficients keep the optimal vertex rational); a stretch cut at a
    bend point counts as the sum of its legs. ``cost``: the slack's price, or each
    line's."""
    legs: dict[tuple[int, int], list[int]] = {}
    for e in sorted(stretches):
        s = net.stretches[e]
        cut = net.bends.get(s.u) or net.bends.get(s.v)
        legs.setdefault(cut or (s.u, s.v), []).append(e)
    by_line: dict[str, list[list[int]]] = {}
    for group in legs.values():
        for line in net.stretches[group[0]].lines:
            by_line.setdefault(line, []).append(group)
    num, den = SPACING_RATIO
    excess_of: dict[str, int] = {}
    for line in sorted(by_line):
        groups = by_line[line]
        if len(groups) < 2:
            continue
        least = p.var(0.0)
        excess = excess_of[line] = p.var(_price(cost, line) / UNIT)
        for group in groups:
            # twice the length: 2 run on an axis, 3 run on a diagonal (within 6 %)
            length: dict[int, float] = {}
            for e in group:
                a = 3.0 if all(DIRECTIONS[direction[e]]) else 2.0
                for c, v in _run(net, e, direction[e], xs, ys).items():
                    length[c] = length.get(c, 0.0) + a * v
            p.row({**length, least: -2.0}, 0.0)
            p.row({**{c: den * v for c, v in length.items()}, least: -2.0 * num, excess: -1.0},
                  upper=0.0)  # fmt: skip
    return excess_of


def _price(cost: float | Mapping[str, float], line: str) -> float:
    """Even spacing's price on ``line``: ``cost``, or its entry for the line."""
    return cost if isinstance(cost, float | int) else cost.get(line, RATIO_COST)


def _box_rows(p: Program, net: Network, xs: list[int], ys: list[int], scale: float) -> int:
    """The stations' extent against the sheet's box; the column of the overflow."""
    bw, bh = box_units(scale)
    over = p.var(OVERFLOW_COST / UNIT)
    for cols, size in ((xs, bw), (ys, bh)):
        lo, hi = p.var(0.0, -_FAR, _FAR), p.var(0.0, -_FAR, _FAR)
        for i in range(len(cols)):
            if net.incident[i]:
                p.row({cols[i]: 1.0, lo: -1.0}, 0.0)
                p.row({hi: 1.0, cols[i]: -1.0}, 0.0)
        p.row({hi: 1.0, lo: -1.0, over: -1.0}, upper=math.floor(size))
    return over


def _separation_rows(
    p: Program, net: Network, seps: dict[tuple, Separation], moving: set[int],
    xs: list[int], ys: list[int], scale: float, big_m: float,
) -> tuple[dict[tuple, int], dict[tuple, list[tuple[tuple[int, int], int]]]]:  # fmt: skip
    """Every separation kept along its axis (with a priced slack); for a pair the repair
    moves, along any axis the input has it apart. The slack columns, and the axis choices."""
    sep_slack: dict[tuple, int] = {}
    either: dict[tuple, list[tuple[tuple[int, int], int]]] = {}
    for key, sep in seps.items():
        if sep.axis is None:
            continue
        slack = sep_slack[key] = p.var(SEPARATION_COST / UNIT)
        if moving & (set(sep.first) | set(sep.second)):
            # a pair the repair moves: any axis along which the input has it apart (a
            # binary each, as in Nöllenburg and Wolff's planarity constraints)
            axes = [ax for ax in AXES if _best_axis(net.xy, sep.first, sep.second, [ax])[1] >= 0]
            opts = either[key] = [(ax, p.binary()) for ax in axes or AXES]
            p.row({z: 1.0 for _, z in opts}, 1.0, 1.0)
        else:
            opts = [(sep.axis, -1)]
        for ax, z in opts:
            need = math.ceil(sep.mm / scale * math.hypot(*ax))
            for a in sep.first:
                for b in sep.second:
                    row = {xs[b]: ax[0], ys[b]: ax[1], xs[a]: -ax[0], ys[a]: -ax[1], slack: 1.0}
                    if z >= 0:
                        row[z] = -big_m
                        p.row(row, need - big_m)
                    else:
                        p.row(row, need)
    return sep_slack, either
