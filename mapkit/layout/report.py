"""The layout report: how octilinear, even and faithful a drawing is, measured exactly.

Every figure is measured on a map (the model), so the same function reports on the
input and on the output: the share of stretches on the eight directions, bends per
line by angle and their score under octi's weights (135° = 1, 90° = 1.5, 45° = 2;
anything sharper is a hairpin), crossings between stretches, topology violations
against the input (a changed cyclic order of lines at a station, a crossing the
input did not have, a station on the other side of a line), stop spacing and
displacement at A4 print scale, and line crossings inside bundles.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import asdict, dataclass, field

from mapkit.layout.network import Network, build_network
from mapkit.mapfile.model import CityMap
from mapkit.sheet import SheetLayout

ANGLE_TOL = 1e-6
"""Degrees from a multiple of 45° that still count as on one of the eight directions."""
BEND_SCORE = {135: 1.0, 90: 1.5, 45: 2.0}


@dataclass
class LayoutReport:
    stretches: int
    octilinear_share: float
    bends: dict[str, dict[str, int]]
    bend_score: float
    hairpins: int
    edge_crossings: int
    topology_violations: int
    topology_detail: list[str]
    min_spacing_mm: float
    max_spacing_mm: float
    mean_displacement_mm: float
    max_displacement_mm: float
    bundle_crossings: int
    seconds: float
    attempts: int = 0
    wagons_unclear: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2) + "\n"

    def to_text(self) -> str:
        lines = [
            f"stretches on the eight directions: {self.octilinear_share:.1%} of {self.stretches}",
            f"bend score (135° = 1, 90° = 1.5, 45° = 2): {self.bend_score:g}; "
            f"hairpins: {self.hairpins}",
        ]
        for lid, by in self.bends.items():
            shown = ", ".join(f"{n}×{a}°" for a, n in by.items() if n) or "none"
            lines.append(f"  line {lid}: bends {shown}")
        lines += [
            f"edge crossings: {self.edge_crossings}; topology violations: "
            f"{self.topology_violations}",
            *(f"  {d}" for d in self.topology_detail[:10]),
            f"stop spacing at print scale: {self.min_spacing_mm:.1f} to "
            f"{self.max_spacing_mm:.1f} mm",
            f"stations moved (print scale): mean {self.mean_displacement_mm:.1f} mm, "
            f"max {self.max_displacement_mm:.1f} mm",
            f"line crossings in bundles: {self.bundle_crossings}",
            f"time: {self.seconds:.2f} s",
            *self.notes,
        ]
        return "\n".join(lines) + "\n"


def off_octilinear(dx: float, dy: float) -> float:
    """Degrees from the nearest multiple of 45° (0 for a zero-length step)."""
    if dx == 0 and dy == 0:
        return 0.0
    a = math.degrees(math.atan2(dy, dx)) % 45.0
    return min(a, 45.0 - a)


def bend_angle(a: tuple[float, float], at: tuple[float, float], b: tuple[float, float]) -> float:
    """The angle at ``at`` between the stretches to ``a`` and to ``b`` (180: straight on)."""
    u = (a[0] - at[0], a[1] - at[1])
    v = (b[0] - at[0], b[1] - at[1])
    nu, nv = math.hypot(*u), math.hypot(*v)
    if nu == 0 or nv == 0:
        return 180.0
    c = max(-1.0, min(1.0, (u[0] * v[0] + u[1] * v[1]) / (nu * nv)))
    return math.degrees(math.acos(c))


def hops(city: CityMap) -> dict[frozenset[str], list[tuple[float, float]]]:
    """Each stretch (pair of consecutive stops) as drawn: its polyline from stop to stop."""
    out: dict[frozenset[str], list[tuple[float, float]]] = {}
    for ln in city.lines:
        for path, drawn in zip(ln.paths, city.drawn_paths(ln), strict=False):
            route = list(drawn)[1:]
            stops = list(path) + ([path[0]] if ln.loop else [])
            j = 0
            for a, b in itertools.pairwise(stops):
                pb = city.station(b).xy
                part = [city.station(a).xy]
                while j + 1 < len(route):
                    j += 1
                    part.append(route[j])
                    if math.dist(route[j], pb) < 1e-9:
                        break
                out.setdefault(frozenset((a, b)), part)
    return out


def line_bends(city: CityMap) -> dict[str, dict[str, int]]:
    """Per line, its bends (at stations and shape points) by angle: 135, 90, 45 and sharper
    (a hairpin: "<45"); a branching line's trunk counted once, each branch from the fork."""
    out = {}
    for ln in city.lines:
        by = {"135": 0, "90": 0, "45": 0, "<45": 0}
        for b, drawn in enumerate(city.drawn_paths(ln)):
            pts = list(drawn)[1:]
            if ln.loop:
                pts = pts + pts[1:2]
            first = 0 if b == 0 else max(len(ln.trunk) - 2, 0)  # the bend at the fork on
            for a, at, c in list(zip(pts, pts[1:], pts[2:], strict=False))[first:]:
                ang = bend_angle(a, at, c)
                if ang >= 180 - 1e-6:
                    continue
                if ang < 45 - 1e-6:
                    by["<45"] += 1
                else:
                    nearest = min((135, 90, 45), key=lambda t: abs(t - ang))
                    by[str(nearest)] += 1
        out[ln.id] = by
    return out


def bend_score(bends: dict[str, dict[str, int]]) -> float:
    """The bend score under octi's weights of ``line_bends``' counts (hairpins apart)."""
    return sum(BEND_SCORE[int(a)] * n for by in bends.values() for a, n in by.items() if a != "<45")


def _crosses(a, b, c, d) -> bool:
    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0) and 0 not in (o1, o2, o3, o4)


def crossing_pairs(net: Network, xy) -> set[tuple[int, int]]:
    """Pairs of stretches (not sharing a station) that cross between stations."""
    segs = [(xy[s.u], xy[s.v]) for s in net.stretches]
    return {(e, f) for e, f in _meeting(net, segs) if _crosses(*segs[e], *segs[f])}


def drawn_crossings(net: Network, city: CityMap) -> set[tuple[int, int]]:
    """Pairs of stretches (not sharing a station) whose lines meet as ``city`` draws them,
    along their shapes: a line bent round a station may cross another on the way (the
    tutorial's line D under the Mill), where the straight stretches between their stations
    would only touch."""
    drawn = hops(city)
    return _meeting(
        net,
        [drawn.get(frozenset((net.ids[s.u], net.ids[s.v])), [net.xy[s.u], net.xy[s.v]])
         for s in net.stretches],
    )  # fmt: skip


def _meeting(net: Network, polylines: list) -> set[tuple[int, int]]:
    """Pairs (e < f) of stretches not sharing a station whose ``polylines`` (one a
    stretch) touch or cross."""
    from shapely import LineString, STRtree, linestrings

    if not polylines:
        return set()
    straight = all(len(p) == 2 for p in polylines)  # one array at once, the common case
    lines = linestrings(polylines) if straight else [LineString(p) for p in polylines]
    a, b = STRtree(lines).query(lines, predicate="intersects")
    out = set()
    for e, f in zip(a.tolist(), b.tolist(), strict=True):
        se, sf = net.stretches[e], net.stretches[f]
        if e < f and not {se.u, se.v} & {sf.u, sf.v}:
            out.add((e, f))
    return out


def topology(
    net: Network, xy_in, xy_out, crossed_in: set[tuple[int, int]] | None = None
) -> list[str]:
    """What changed between two drawings of one network: cyclic orders, crossings, sides.
    ``crossed_in``: pairs of stretches the input draws crossing along its shapes
    (``drawn_crossings``), which the layout may keep crossing too."""
    found = []
    for node, inc in enumerate(net.incident):
        if len(inc) < 3:
            continue
        before = net.rotation(node, xy_in)
        after = net.rotation(node, xy_out)
        i = after.index(before[0])
        if after[i:] + after[:i] != before:
            found.append(f"station '{net.ids[node]}': the order of its lines around it changed")
    new = crossing_pairs(net, xy_out) - crossing_pairs(net, xy_in) - (crossed_in or set())
    for e, f in sorted(new):
        se, sf = net.stretches[e], net.stretches[f]
        found.append(
            f"stretch {net.ids[se.u]}-{net.ids[se.v]} now crosses {net.ids[sf.u]}-{net.ids[sf.v]}"
        )
    if not net.stretches:
        return found
    # a station beside a stretch (its foot inside the stretch, in both drawings) stays on
    # the same side of it; one come onto its line is left to validate's geometry (on a
    # straight stretch it touches the line) or beside the drawn line (on a bent one)
    import numpy as np

    side_in, near_in = _beside(net, xy_in)
    side_out, near_out = _beside(net, xy_out)
    near = near_in & near_out & np.array([bool(inc) for inc in net.incident])
    for e, w in zip(*np.nonzero(near & (side_in * side_out < 0)), strict=True):
        s = net.stretches[e]
        found.append(
            f"station '{net.ids[w]}' moved to the other side of stretch "
            f"{net.ids[s.u]}-{net.ids[s.v]}"
        )
    return found


ON_LINE = 1e-9
"""A station this far from a stretch's line, in the stretch's lengths, is on it."""


def _beside(net: Network, xy, reach: float = 1.5):
    """For every stretch (rows) and station (columns): the side of the stretch the station
    is on (-1, 1; 0 on its line, within ``ON_LINE`` of its length: a station on the chord of
    a stretch bent at a shape point, where rounding the coordinates must not choose a side),
    and whether its foot on the stretch's line falls inside the stretch within ``reach``
    stretch lengths of it (near enough that its side is part of the map's topology; never a
    stretch's own ends)."""
    import numpy as np

    p = np.asarray(xy, dtype=float)
    us = np.array([s.u for s in net.stretches])
    vs = np.array([s.v for s in net.stretches])
    a, d = p[us], p[vs] - p[us]
    rx, ry = p[None, :, 0] - a[:, None, 0], p[None, :, 1] - a[:, None, 1]
    dx, dy = d[:, None, 0], d[:, None, 1]
    cross = dx * ry - dy * rx
    den = dx * dx + dy * dy
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (rx * dx + ry * dy) / den
        near = (den > 0) & (t > 0.0) & (t < 1.0) & (np.abs(cross) < reach * den)
    rows = np.arange(len(us))
    near[rows, us] = near[rows, vs] = False
    side = np.where(np.abs(cross) <= ON_LINE * den, 0.0, np.sign(cross))
    return side, near


def bundle_crossings(city: CityMap, sheet: SheetLayout | None = None) -> int:
    """Crossings of two lines' printed strokes near a station both serve, where they run
    side by side into it: the line-ordering crossings of a bundle (measured on ``sheet``,
    by default the A4 one)."""
    from mapkit.sheet import layout

    sheet = sheet or layout(city, "a4")
    pair_edges: dict[frozenset, int] = {}
    for ln in city.lines:
        for a, b in ln.hops:
            pair_edges.setdefault(frozenset((a, b)), 0)
            pair_edges[frozenset((a, b))] += 1
    count = 0
    for la, lb in itertools.combinations(city.lines, 2):
        ea = {frozenset(p) for p in la.hops}
        eb = {frozenset(p) for p in lb.hops}
        if not ea & eb:
            continue
        ra, rb = _strokes(sheet, la), _strokes(sheet, lb)
        if ra is None or rb is None:
            continue
        inter = ra.intersection(rb)
        count += len(getattr(inter, "geoms", [inter])) if not inter.is_empty else 0
    return count


def _strokes(sheet: SheetLayout, ln):
    """A line's printed paths (without the wagon's lead-in; a further branch from the fork)
    as one shapely geometry, None when nothing is drawn."""
    from shapely import MultiLineString

    parts = [r[1:] if b == 0 else r for b, r in enumerate(sheet.line_paths(ln))]
    parts = [p for p in parts if len(p) >= 2]
    return MultiLineString([list(p) for p in parts]) if parts else None


def measure(
    before: CityMap, after: CityMap, seconds: float, attempts: int = 0, paper: str = "a4"
) -> LayoutReport:
    """The report on ``after``, a layout of ``before``; print-scale figures on ``paper``."""
    from mapkit.sheet import layout

    net = build_network(after)
    xy_in = [s.xy for s in before.stations]
    xy_out = [s.xy for s in after.stations]
    drawn = hops(after)
    on = sum(
        all(off_octilinear(q[0] - p[0], q[1] - p[1]) <= ANGLE_TOL for p, q in itertools.pairwise(h))
        for h in drawn.values()
    )
    bends = line_bends(after)
    hairpins = sum(by["<45"] for by in bends.values())
    sa, sb = layout(before, paper), layout(after, paper)
    gaps = [math.dist(sb.stations[net.ids[s.u]], sb.stations[net.ids[s.v]]) for s in net.stretches]
    # displacement: both drawings at A4 print scale, centred on their stations' mean
    ca = _mean([sa.stations[i] for i in net.ids])
    cb = _mean([sb.stations[i] for i in net.ids])
    moves = [
        math.dist(
            (sa.stations[i][0] - ca[0], sa.stations[i][1] - ca[1]),
            (sb.stations[i][0] - cb[0], sb.stations[i][1] - cb[1]),
        )
        for i in net.ids
    ]
    detail = topology(net, xy_in, xy_out, drawn_crossings(net, before))
    return LayoutReport(
        stretches=len(net.stretches),
        octilinear_share=on / len(net.stretches) if net.stretches else 1.0,
        bends=bends,
        bend_score=bend_score(bends),
        hairpins=hairpins,
        edge_crossings=len(crossing_pairs(net, xy_out)),
        topology_violations=len(detail),
        topology_detail=detail,
        min_spacing_mm=min(gaps, default=0.0),
        max_spacing_mm=max(gaps, default=0.0),
        mean_displacement_mm=sum(moves) / len(moves) if moves else 0.0,
        max_displacement_mm=max(moves, default=0.0),
        bundle_crossings=bundle_crossings(after, sb if paper == "a4" else None),
        seconds=seconds,
        attempts=attempts,
    )


def _mean(pts):
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
