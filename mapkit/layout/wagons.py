"""Wagons beside their lines' first stations, clear of everything else on A4 and Letter.

A wagon is a fixed size in millimetres (its letter and window boxes), while the map
scales to fit the paper, so the search runs at print scale on every paper at once:
candidate spots around the line's first station (each of the eight directions, at a
few distances, the wagon's end or middle towards the station), each measured on every
paper against every station circle, every drawn line (bundles included), every
wagon already placed and every wagon's lead-in to its first stop. The first spot
that clears everything by ``CLEARANCE_MM`` wins, nearest first and straight on from
the line's first stretch preferred. Moving a wagon can change the sheet's scale, so
the sheets are laid out again and any wagon no longer clear is placed again.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from mapkit.mapfile.model import CityMap, Depot, Line
from mapkit.sheet import METRICS, Rect, SheetLayout, layout, wagon_size

Point = tuple[float, float]
CLEARANCE_MM = 1.5
"""Paper left between a wagon and any other station, line or wagon."""
MARGIN_MM = 0.05
"""Kept beyond ``CLEARANCE_MM`` so that rounding never brings a wagon below it."""
EXTRA_MM = (
    0.0, 1.0, 2.0, 3.0, 4.0, 5.5, 7.0, 9.0, 11.0, 13.5, 16.0, 19.0, 22.0, 26.0, 30.0, 35.0,
    40.0, 47.0, 55.0,
)  # fmt: skip
ROUNDS = 6
ORDERS = 4
"""Orders tried: the wagons that found no spot go first in the next."""
BATCH = 32
"""Candidate spots measured at once against the stations, lines and wagons."""
REACH_MM = 12.0
"""Clearance is measured exactly up to this; anything farther counts as this far (a spot
that clear is as good as any)."""


@dataclass(frozen=True)
class Spot:
    """A candidate wagon centre: its offset from the first station in mm, how it is reached."""

    dx: float
    dy: float
    rank: float


def _rect_rect(a: Rect, b: Rect) -> float:
    dx = max(b.x - a.right, 0.0, a.x - b.right)
    dy = max(b.y - a.bottom, 0.0, a.y - b.bottom)
    return math.hypot(dx, dy)


def _spots(ln: Line, city: CityMap, w: float, h: float) -> tuple[Spot, ...]:
    """Candidate wagon centres around the first stop, in mm from it, best first."""
    first = city.station(ln.stops[0]).xy
    nxt = city.station(ln.stops[1]).xy
    return _spots_towards(math.atan2(nxt[1] - first[1], nxt[0] - first[0]), w, h)


@functools.lru_cache(maxsize=256)
def _spots_towards(ahead: float, w: float, h: float) -> tuple[Spot, ...]:
    """``_spots`` of a w x h wagon whose line leaves its first stop at angle ``ahead``
    (each wagon's search asks again, every round)."""
    r = METRICS.station_r
    c = r + CLEARANCE_MM + MARGIN_MM
    out: list[Spot] = []
    for extra in EXTRA_MM:
        for k in range(8):
            ang = k * math.pi / 4
            ux, uy = round(math.cos(ang), 9), round(math.sin(ang), 9)
            straight = abs(math.remainder(ang - ahead - math.pi, 2 * math.pi))
            rank = extra + 3.0 * straight
            cands: list[tuple[float, float]] = []
            if uy == 0:
                d = ux * (c + extra + w / 2)
                cands += [(d, 0.0), (d, h / 2 - r), (d, -(h / 2 - r))]
            elif ux == 0:
                d = uy * (c + extra + h / 2)
                cands += [(0.0, d), (w / 2 - r, d), (-(w / 2 - r), d)]
            else:
                q = c / math.sqrt(2) + extra / math.sqrt(2)
                cands.append((ux * (q + w / 2), uy * (q + h / 2)))
            for j, (dx, dy) in enumerate(cands):
                out.append(Spot(dx, dy, rank + 0.5 * j))
    out.sort(key=lambda s: s.rank)
    return tuple(out)


@dataclass
class _Sheet:
    """One paper's print geometry, with the obstacles a wagon must keep clear of (as shapely
    arrays, measured all at once)."""

    sheet: SheetLayout
    ids: list[str]
    marks: object
    centres: object
    segments: object
    segment_line: list[str]
    segment_ends: list[tuple[Point, Point]]
    mark_tree: object
    centre_tree: object
    segment_tree: object
    alike: dict[str, set[str]]
    """By line, the lines too alike in colour for its lead-in to come within validate's
    ``MEET_MM`` of (see ``_alike``)."""
    measured: dict[tuple, object] = field(default_factory=dict)
    """Measures of spots against this sheet's stations and lines (``_room``, ``_lead_in``,
    ``_blocked``), by what they measured: the sheet is laid out once for the same wagons
    (``_rounds``' memo), so each order ``place_wagons`` tries measures a spot once."""

    @classmethod
    def of(cls, city: CityMap, paper: str) -> _Sheet:
        from shapely import LineString, Point, linestrings, points

        sheet = layout(city, paper)
        ids = [s.id for s in city.stations]
        marks = []
        for sid in ids:
            a, b = sheet.station_mark(sid)
            marks.append(Point(a) if a == b else LineString([a, b]))
        segs, seg_line = [], []
        for ln in city.lines:
            for b, route in enumerate(sheet.line_paths(ln)):
                # the first path from the wagon (its lead-in is the wagon's own), a further
                # branch's from the fork
                for p, q in itertools.pairwise(route[1:] if b == 0 else route):
                    segs.append((p, q))
                    seg_line.append(ln.id)
        import numpy as np
        from shapely import STRtree

        mark_arr = np.array(marks, dtype=object)
        centres = points([sheet.stations[i] for i in ids])
        seg_arr = linestrings(segs) if segs else np.array([], dtype=object)
        return cls(
            sheet,
            ids,
            mark_arr,
            centres,
            seg_arr,
            seg_line,
            segs,
            STRtree(mark_arr),
            STRtree(centres),
            STRtree(seg_arr),
            _alike(city, seg_arr, seg_line),
        )


def _alike(city: CityMap, segments, segment_line: list[str]) -> dict[str, set[str]]:
    """By line (both ways), the lines too alike in colour to meet (``design.
    alike_when_near``) whose lines, lead-ins left out, do not yet come within ``MEET_MM``."""
    import numpy as np
    import shapely

    from mapkit.checks.design import MEET_MM, alike_when_near

    out: dict[str, set[str]] = {ln.id: set() for ln in city.lines}
    line_of = np.array(segment_line, dtype=object)
    for a, b in alike_when_near(city):
        ga = shapely.union_all(segments[line_of == a.id])
        gb = shapely.union_all(segments[line_of == b.id])
        if ga.is_empty or gb.is_empty or shapely.distance(ga, gb) >= MEET_MM:
            out[a.id].add(b.id)
            out[b.id].add(a.id)
    return out


def _seg_rect(a: Point, b: Point, r: Rect) -> float:
    from mapkit.checks.geometry import _seg_rect_dist

    return _seg_rect_dist(a, b, r)


def _box_gap(a: Point, b: Point, r: Rect) -> float:
    """The gap between segment ab's bounding box and rectangle r: never more than their
    distance, and far cheaper (what lies farther than it needs no exact measure)."""
    dx = max(r.x - max(a[0], b[0]), 0.0, min(a[0], b[0]) - r.right)
    dy = max(r.y - max(a[1], b[1]), 0.0, min(a[1], b[1]) - r.bottom)
    return math.hypot(dx, dy)


def _clearance(
    city: CityMap, ln: Line, rect: Rect, anchor: Point, sh: _Sheet, placed: Mapping[str, Rect]
) -> float:
    """The least paper between wagon ``rect`` (centre ``anchor``) of line ``ln`` and every
    other printed thing, on one sheet; its lead-in is checked too (negative: a problem)."""
    m = METRICS
    s = sh.sheet
    best = _room(rect, sh)
    if best < CLEARANCE_MM:
        return best
    first = s.stations[ln.stops[0]]
    for lid, w in placed.items():
        if lid == ln.id:
            continue
        best = min(best, _rect_rect(rect, w))
        wl = city.line(lid)
        lead = (w.center, s.stations[wl.stops[0]])
        if _box_gap(*lead, rect) - m.line_w / 2 < best:
            best = min(best, _seg_rect(*lead, rect) - m.line_w / 2)
        # this wagon's lead-in must not run over another wagon
        need = m.line_w / 2 + CLEARANCE_MM
        if _box_gap(anchor, first, w) < need and _seg_rect(anchor, first, w) < need:
            return -1.0
    return best if _lead_in(ln, anchor, first, sh) else -1.0


def _room(rect: Rect, sh: _Sheet) -> float:
    """The least paper between ``rect`` and the stations and lines of ``sh`` (up to
    ``REACH_MM``), measured once per sheet."""
    key = ("room", rect.x, rect.y, rect.w, rect.h)
    if key not in sh.measured:
        import shapely

        m = METRICS
        poly = shapely.box(rect.x, rect.y, rect.right, rect.bottom)
        best = REACH_MM
        around = shapely.box(rect.x - REACH_MM, rect.y - REACH_MM, rect.right + REACH_MM,
                             rect.bottom + REACH_MM)  # fmt: skip
        near = sh.mark_tree.query(around)
        if len(near):
            best = min(best, float(shapely.distance(poly, sh.marks[near]).min()) - m.station_r)
        near = sh.segment_tree.query(around)
        if len(near):
            best = min(best, float(shapely.distance(poly, sh.segments[near]).min()) - m.line_w / 2)
        sh.measured[key] = best
    return sh.measured[key]


def _lead_in(ln: Line, anchor: Point, first: Point, sh: _Sheet) -> bool:
    """``_lead_in_ok``, measured once per sheet."""
    key = ("lead", ln.id, anchor)
    if key not in sh.measured:
        sh.measured[key] = _lead_in_ok(ln, anchor, first, sh)
    return sh.measured[key]


def _lead_in_ok(ln: Line, anchor: Point, first: Point, sh: _Sheet) -> bool:
    """Whether the lead-in from the wagon at ``anchor`` to the first stop keeps clear of the
    other stations and of lines too alike in colour (``_Sheet.alike``), and never runs
    along another line beyond the first stop (crossing one at 45° or more is fine)."""
    import shapely

    m = METRICS
    lead = shapely.LineString([anchor, first])
    reach = m.station_r + m.line_w / 2 + m.near_line + 0.3
    near = sh.centre_tree.query(_grown(lead, reach))
    for k in near.tolist():
        if sh.ids[k] != ln.stops[0] and shapely.distance(lead, sh.centres[k]) < reach:
            return False
    alike = sh.alike.get(ln.id)
    if alike:
        from mapkit.checks.design import MEET_MM

        for k in sh.segment_tree.query(_grown(lead, MEET_MM)).tolist():
            if sh.segment_line[k] in alike and shapely.distance(lead, sh.segments[k]) < MEET_MM:
                return False  # validate would find the two lines meet: DES003
    out = _trim(anchor, first, m.station_r + 1.0)
    if out is not None and len(sh.segments):
        gap = m.line_w + m.parallel_gap
        stub = shapely.LineString(out)
        for k in sh.segment_tree.query(_grown(stub, gap)).tolist():
            if (
                sh.segment_line[k] != ln.id
                and shapely.distance(stub, sh.segments[k]) < gap
                and not _square_crossing(out, sh.segment_ends[k])
            ):
                return False
    return True


def _grown(geom, by: float):
    """The bounding box of ``geom`` grown by ``by`` mm (an STRtree query for what may lie
    within ``by``; boxes are far cheaper to query than distances)."""
    import shapely

    x0, y0, x1, y1 = geom.bounds
    return shapely.box(x0 - by, y0 - by, x1 + by, y1 + by)


def _square_crossing(a: tuple[Point, Point], b: tuple[Point, Point]) -> bool:
    """Whether two segments cross at 45° or more (a lead-in may cross a line, never run
    along it)."""
    from mapkit.checks.geometry import _segments_cross

    if not _segments_cross(*a, *b):
        return False
    ua = (a[1][0] - a[0][0], a[1][1] - a[0][1])
    ub = (b[1][0] - b[0][0], b[1][1] - b[0][1])
    na, nb = math.hypot(*ua), math.hypot(*ub)
    if na == 0 or nb == 0:
        return False
    sin = abs(ua[0] * ub[1] - ua[1] * ub[0]) / (na * nb)
    return sin >= math.sin(math.radians(44.0))


def _trim(a: Point, b: Point, cut: float) -> tuple[Point, Point] | None:
    """Segment a-b without its last ``cut`` mm (the part inside b's station circle)."""
    d = math.dist(a, b)
    if d <= cut:
        return None
    t = 1 - cut / d
    return a, (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _with_depots(city: CityMap, depots: Mapping[str, Point]) -> CityMap:
    lines = tuple(
        replace(
            ln,
            depot=Depot(*depots[ln.id], ln.depot.max_width_mm),
            shape=None if ln.shape is None else (depots[ln.id], *ln.shape[1:]),
        )
        if ln.id in depots
        else ln
        for ln in city.lines
    )
    return replace(city, lines=lines)


def _rect_at(anchor: Point, w: float, h: float) -> Rect:
    return Rect(anchor[0] - w / 2, anchor[1] - h / 2, w, h)


def place_wagons(
    city: CityMap,
    papers: Iterable[str] = ("a4", "letter"),
    lines: Iterable[str] | None = None,
    strict: bool = True,
    deadline: float | None = None,
) -> dict[str, Point]:
    """New depot positions (map units) for ``lines`` (all by default): each wagon beside its
    line's first station, at least ``CLEARANCE_MM`` from every other station, line and wagon
    on every paper. Lines not named keep their wagons (as obstacles).

    Raises ``WagonError`` when a wagon finds no clear spot (a crowded first station); with
    ``strict=False`` such a wagon gets the roomiest spot instead (``wagon_clearance`` says
    how clear it is). ``deadline`` (``time.monotonic()``): the search stops there, and the
    wagons not yet clear count as without a spot.
    """
    papers = tuple(papers)
    todo = [ln.id for ln in city.lines] if lines is None else list(lines)
    order = sorted(todo, key=lambda lid: (-wagon_size(city.line(lid))[0], city.line(lid).index))
    best = None
    memo: dict[tuple, tuple[CityMap, dict[str, _Sheet]]] = {}
    for _ in range(ORDERS):
        got = _rounds(city, papers, todo, order, deadline, memo)
        if best is None or len(got[1]) < len(best[1]):
            best = got
        depots, unplaced, current, sheets = got
        if not unplaced:
            return {lid: depots[lid] for lid in todo}
        if _late(deadline):
            break
        # the wagons that found no spot choose first next time
        order = unplaced + [lid for lid in order if lid not in unplaced]
    depots, unplaced, current, sheets = best
    if not strict:
        for lid in unplaced:
            ln = current.line(lid)
            w, h, _ = wagon_size(ln)
            depots[lid] = _roomiest(current, ln, w, h, sheets, deadline)
        return {lid: depots[lid] for lid in todo}
    raise WagonError(
        "no clear spot for the wagon of line "
        + ", ".join(f"'{lid}'" for lid in unplaced)
        + f" beside its first station within {CLEARANCE_MM} mm of paper on "
        + " and ".join(papers)
    )


def _rounds(
    city: CityMap,
    papers: tuple[str, ...],
    todo: list[str],
    order: list[str],
    deadline: float | None,
    memo: dict[tuple, tuple[CityMap, dict[str, _Sheet]]],
) -> tuple[dict[str, Point], list[str], CityMap, dict[str, _Sheet]]:
    """Wagons of ``todo`` placed in ``order``, then those no longer clear (the sheet's scale
    changed) placed again, for up to ``ROUNDS`` rounds: (depots, the lines still not clear,
    the map with those depots, its sheets). ``memo``: the map and sheets of the depots
    already laid out (each round starts from the sheets the last one ended with)."""

    def laid_out(depots: dict[str, Point]) -> tuple[CityMap, dict[str, _Sheet]]:
        key = tuple(sorted(depots.items()))
        if key not in memo:
            current = _with_depots(city, depots)
            memo[key] = current, {p: _Sheet.of(current, p) for p in papers}
        return memo[key]

    depots = {ln.id: ln.depot.xy for ln in city.lines}
    for lid in todo:
        depots[lid] = city.station(city.line(lid).stops[0]).xy
    unplaced = list(order)
    for _ in range(ROUNDS):
        before = dict(depots)
        current, sheets = laid_out(depots)
        placed: dict[str, dict[str, Rect]] = {
            p: {lid: sh.sheet.wagons[lid].rect for lid in depots if lid not in unplaced}
            for p, sh in sheets.items()
        }
        failed = []
        for lid in unplaced:
            ln = current.line(lid)
            w, h, _ = wagon_size(ln)
            spot = _first_clear(current, ln, w, h, sheets, placed, deadline)
            if spot is None:
                failed.append(lid)
                continue
            depots[lid] = spot
            for p, sh in sheets.items():
                a = sh.sheet.to_mm(*spot)
                placed[p][lid] = _rect_at(a, w, h)
        # the sheets' scale may have changed: check every wagon again
        current, sheets = laid_out(depots)
        unplaced = []
        for lid in order:
            ln = current.line(lid)
            for sh in sheets.values():
                rects = {k: v.rect for k, v in sh.sheet.wagons.items()}
                wg = sh.sheet.wagons[lid]
                if _clearance(current, ln, wg.rect, wg.anchor, sh, rects) < CLEARANCE_MM:
                    unplaced.append(lid)
                    break
        if not unplaced or depots == before or _late(deadline):
            break  # done, or the next round would search the same sheets again, or late
    return depots, unplaced, current, sheets


def _late(deadline: float | None) -> bool:
    import time

    return deadline is not None and time.monotonic() > deadline


def _roomiest(
    city: CityMap,
    ln: Line,
    w: float,
    h: float,
    sheets: Mapping[str, _Sheet],
    deadline: float | None = None,
) -> Point:
    """The candidate spot with the most room (for a wagon with no clear spot), of those
    measured by ``deadline``."""
    scale = min(sh.sheet.scale for sh in sheets.values())
    first = city.station(ln.stops[0]).xy
    best, where = -math.inf, first
    for spot in _spots(ln, city, w, h):
        if _late(deadline):
            break
        depot = (first[0] + spot.dx / scale, first[1] + spot.dy / scale)
        room = math.inf
        for sh in sheets.values():
            anchor = sh.sheet.to_mm(*depot)
            rects = {k: v.rect for k, v in sh.sheet.wagons.items() if k != ln.id}
            room = min(room, _clearance(city, ln, _rect_at(anchor, w, h), anchor, sh, rects))
        if room > best + 1e-9:
            best, where = room, depot
    return where


def wagon_clearance(city: CityMap, papers: Iterable[str] = ("a4", "letter")) -> dict[str, float]:
    """Per line, the least paper (mm) between its wagon and any other station, line or wagon
    over ``papers`` (negative: it touches or covers one, or its lead-in runs over one)."""
    out: dict[str, float] = {}
    for p in papers:
        sh = _Sheet.of(city, p)
        rects = {k: v.rect for k, v in sh.sheet.wagons.items()}
        for ln in city.lines:
            wg = sh.sheet.wagons[ln.id]
            c = _clearance(city, ln, wg.rect, wg.anchor, sh, rects)
            out[ln.id] = min(out.get(ln.id, math.inf), c)
    return out


class WagonError(Exception):
    """A wagon with no clear spot beside its first station."""


def _first_clear(
    city: CityMap,
    ln: Line,
    w: float,
    h: float,
    sheets: Mapping[str, _Sheet],
    placed: Mapping[str, Mapping[str, Rect]],
    deadline: float | None = None,
) -> Point | None:
    """The best clear spot, as a depot position in map units (None: none by ``deadline``)."""
    scale = min(sh.sheet.scale for sh in sheets.values())
    first = city.station(ln.stops[0]).xy
    spots = _spots(ln, city, w, h)
    depots = [(first[0] + spot.dx / scale, first[1] + spot.dy / scale) for spot in spots]
    blocked: list[bool] = []
    # spots on the paper as it is first (they keep the scale), then any (the sheet shrinks)
    for inside in (True, False):
        for i, depot in enumerate(depots):
            if _late(deadline):
                return None
            if i == len(blocked):  # measured a batch at a time: most wagons take an early spot
                batch = depots[i : i + BATCH]
                blocked += _blocked(batch, w, h, sheets, placed, ln.id)
            if blocked[i]:
                continue
            ok = True
            for p, sh in sheets.items():
                anchor = sh.sheet.to_mm(*depot)
                rect = _rect_at(anchor, w, h)
                if inside and not sh.sheet.map_area.contains(rect, tol=0.0):
                    ok = False
                    break
                if _clearance(city, ln, rect, anchor, sh, placed[p]) < CLEARANCE_MM + MARGIN_MM:
                    blocked[i] = True  # on the paper or off it: not clear
                    ok = False
                    break
            if ok:
                return depot
    return None


def _blocked(
    depots: list[Point], w: float, h: float, sheets: Mapping[str, _Sheet],
    placed: Mapping[str, Mapping[str, Rect]], own: str,
) -> list[bool]:  # fmt: skip
    """For each depot, whether its wagon (of line ``own``) comes within ``CLEARANCE_MM +
    MARGIN_MM`` of a station, a line or another wagon ``placed`` on some sheet: measures of
    ``_clearance``, taken for every spot at once (a spot they block needs no other one;
    a hair's breadth short of the line is left to the exact measure)."""
    import numpy as np
    import shapely

    m = METRICS
    out = np.zeros(len(depots), dtype=bool)
    for p, sh in sheets.items():
        key = ("blocked", tuple(depots), w, h)
        if key not in sh.measured:
            mm = np.array([sh.sheet.to_mm(*d) for d in depots], dtype=float).reshape(-1, 2)
            x0, y0 = mm[:, 0] - w / 2, mm[:, 1] - h / 2
            boxes = shapely.box(x0, y0, x0 + w, y0 + h)
            around = shapely.box(x0 - REACH_MM, y0 - REACH_MM, x0 + w + REACH_MM, y0 + h + REACH_MM)
            room = np.full(len(depots), REACH_MM)
            for tree, geoms, half in (
                (sh.mark_tree, sh.marks, m.station_r),
                (sh.segment_tree, sh.segments, m.line_w / 2),
            ):
                if not len(geoms):
                    continue
                i, j = tree.query(around)
                if len(i):
                    np.minimum.at(room, i, shapely.distance(boxes[i], geoms[j]) - half)
            sh.measured[key] = (x0, y0, room)
        x0, y0, room = sh.measured[key]
        best = room.copy()
        others = [r for lid, r in placed[p].items() if lid != own]
        if others:
            ox = np.array([[r.x, r.right] for r in others])
            oy = np.array([[r.y, r.bottom] for r in others])
            dx = np.maximum(np.maximum(ox[:, 0] - (x0 + w)[:, None], 0.0), x0[:, None] - ox[:, 1])
            dy = np.maximum(np.maximum(oy[:, 0] - (y0 + h)[:, None], 0.0), y0[:, None] - oy[:, 1])
            best = np.minimum(best, np.hypot(dx, dy).min(axis=1) + 1e-9)
        out |= best < CLEARANCE_MM + MARGIN_MM
    return out.tolist()
