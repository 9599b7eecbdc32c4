"""Geometry layer of validate: the printed sheet, in millimetres.

Everything here is measured on ``ctx.sheet`` (``mapkit.sheet.layout``), the same
layout the renderer draws, so what passes here prints legibly. Lines are tested
as printed: ``sheet.drawn_routes`` (with the side-by-side offsets of shared
segments) and with their ink width ``metrics.line_w``. Each physical problem is
reported once: per (line, station), per wagon, per cluster of crowded stations.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from mapkit.checks.context import CheckContext
from mapkit.mapfile.model import Line
from mapkit.sheet import Rect, SheetLayout, path_keys

Point = tuple[float, float]


def _finite(*values: float) -> bool:
    return all(math.isfinite(v) for v in values)


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    denom = dx * dx + dy * dy
    t = 0.0 if denom == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / denom))
    return math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy))


def _nearest_segment(p: Point, pts: Sequence[Point]) -> tuple[int, float]:
    """Index of the polyline segment nearest to p, and the distance to it."""
    if len(pts) == 1:
        return 0, math.dist(p, pts[0])
    return min(
        ((j, _seg_dist(p, pts[j], pts[j + 1])) for j in range(len(pts) - 1)),
        key=lambda t: t[1],
    )


def _second(pair: tuple[int, float]) -> float:
    return pair[1]


def _rect_dist(p: Point, r: Rect) -> float:
    dx = max(r.x - p[0], 0.0, p[0] - r.right)
    dy = max(r.y - p[1], 0.0, p[1] - r.bottom)
    return math.hypot(dx, dy)


def _names(ids: Sequence[str], limit: int = 6) -> str:
    shown = ", ".join(f"'{i}'" for i in ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


class _Geo:
    def __init__(self, ctx: CheckContext) -> None:
        self.ctx = ctx
        self.city = ctx.city
        self.sheet: SheetLayout = ctx.sheet
        self.m = self.sheet.metrics
        self.ids = [s.id for s in self.city.stations]
        self.xy = [self.sheet.stations[i] for i in self.ids]
        self.marks = [self.sheet.station_mark(i) for i in self.ids]
        self.pill_reach = max((math.dist(a, b) / 2 for a, b in self.marks), default=0.0)
        self.segment_trees: dict[str, object] = {}

    def nearest_segment(
        self, k: int, pts: Sequence[Point], near: Sequence[int] | None = None
    ) -> tuple[int, float]:
        """Like ``_nearest_segment`` for station k, measured to its pill when it has one.

        ``near``: the indices (ascending) of the only segments that can be nearest, from
        a spatial index; without it every segment is measured.
        """
        a, b = self.marks[k]
        if len(pts) < 2:
            return _nearest_segment(self.xy[k], pts)
        segments = near if near else range(len(pts) - 1)
        if a == b:
            return min(((j, _seg_dist(a, pts[j], pts[j + 1])) for j in segments), key=_second)
        return min(((j, _seg_seg_dist(a, b, pts[j], pts[j + 1])) for j in segments), key=_second)

    def segment_tree(self, key: str, pts: Sequence[Point]):
        """A spatial index of a path's segments (index j: pts[j] to pts[j + 1]), built once
        per ``key``: a line at the schema's bounds has 399 segments and meets hundreds of
        stations."""
        from shapely import STRtree, linestrings

        if key not in self.segment_trees:
            self.segment_trees[key] = STRtree(
                linestrings([pts[j : j + 2] for j in range(len(pts) - 1)])
            )
        return self.segment_trees[key]

    def route_segment(self, k: int, key: str) -> int:
        """The segment of route ``key`` (``SheetLayout.routes``, without bundle offsets)
        nearest to station k: :meth:`nearest_segment` over the segments the index finds
        within the nearest one's distance (ties included), so the same segment as measuring
        them all."""
        from shapely import distance

        pts = self.sheet.routes[key]
        if len(pts) < 3:
            return self.nearest_segment(k, pts)[0]
        tree = self.segment_tree(f"route:{key}", pts)
        mark = self.mark_shape(k)
        (first,) = tree.query_nearest(mark, all_matches=False).tolist()
        reach = float(distance(mark, tree.geometries[first])) + 1e-6
        near = tree.query(mark, predicate="dwithin", distance=reach)
        return self.nearest_segment(k, pts, sorted(near.tolist()))[0]

    def mark_shape(self, k: int):
        from shapely import LineString, Point

        a, b = self.marks[k]
        return Point(a) if a == b else LineString([a, b])

    def paths(self) -> list[tuple[Line, str, tuple[Point, ...]]]:
        """Every drawn path as printed: (line, its key in ``SheetLayout.routes``, points)."""
        return [
            (ln, key, pts)
            for ln in self.city.lines
            for key, pts in zip(path_keys(ln), self.sheet.line_paths(ln), strict=True)
        ]

    def segment_where(self, ln: Line, j: int, key: str | None = None) -> tuple[str, str]:
        """(pointer, words) for segment j of a line's route (``key``: which drawn path)."""
        base = self.ctx.line_ptr(ln.id)
        if key is not None and key != ln.id:
            b = int(key.rsplit("/", 1)[1]) - 1  # ``C/3``: the third branch (path_keys)
            stops = (ln.trunk[-1], *ln.branches[b].stops)
            a, c = stops[min(j, len(stops) - 2)], stops[min(j + 1, len(stops) - 1)]
            return f"{base}/branches/{b}/stops", f"between its stops '{a}' and '{c}'"
        if ln.shape is not None:
            return f"{base}/shape/{j + 1}", f"on its shape between points {j} and {j + 1}"
        n = len(ln.stops)
        if j == 0:
            return f"{base}/depot", f"between its wagon and stop '{ln.stops[0]}'"
        a, b = ln.stops[j - 1], ln.stops[j % n]
        return f"{base}/stops/{j % n}", f"between its stops '{a}' and '{b}'"

    # -- stations ---------------------------------------------------------------------------
    def placement(self) -> None:
        area, r = self.sheet.map_area, self.m.station_r
        for sid, (x, y) in zip(self.ids, self.xy, strict=True):
            if not _finite(x, y):
                self.ctx.emit(
                    "GEO003",
                    f"station '{sid}' cannot be placed on the sheet (its position does not scale)",
                    self.ctx.station_ptr(sid),
                )
            elif not area.contains(Rect(x - r, y - r, 2 * r, 2 * r), tol=0.01):
                self.ctx.emit(
                    "GEO003",
                    f"station '{sid}' at ({x:.1f}, {y:.1f}) mm is outside the map area "
                    f"({area.x:.1f}..{area.right:.1f} x {area.y:.1f}..{area.bottom:.1f} mm)",
                    self.ctx.station_ptr(sid),
                )
        for ln in self.city.lines:
            w = self.sheet.wagons[ln.id].rect
            if not _finite(w.x, w.y, w.w, w.h):
                self.ctx.emit(
                    "GEO004",
                    f"the wagon of line '{ln.id}' cannot be placed on the sheet",
                    self.ctx.line_ptr(ln.id, "depot"),
                )
            elif not area.contains(w, tol=0.01):
                self.ctx.emit(
                    "GEO004",
                    f"the wagon of line '{ln.id}' ({w.x:.1f}..{w.right:.1f} x "
                    f"{w.y:.1f}..{w.bottom:.1f} mm) reaches outside the map area",
                    self.ctx.line_ptr(ln.id, "depot"),
                )

    def crowding(self) -> None:
        """GEO002 on the printed marks: circles, and pills where parallel lines pass."""
        from shapely import LineString, Point, STRtree

        need = self.m.min_station_distance
        marks = self.marks
        shapes = [Point(a) if a == b else LineString([a, b]) for a, b in marks]
        idx_a, idx_b = STRtree(shapes).query(shapes, predicate="dwithin", distance=need)
        parent = list(range(len(self.ids)))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        closest: dict[int, tuple[float, int, int]] = {}
        pairs = []
        for a, b in zip(idx_a.tolist(), idx_b.tolist(), strict=True):
            if a >= b:
                continue
            d = _seg_seg_dist(*marks[a], *marks[b])
            if d < need - 1e-9:
                pairs.append((d, a, b))
                parent[find(a)] = find(b)
        for d, a, b in pairs:
            root = find(a)
            if root not in closest or (d, a, b) < closest[root]:
                closest[root] = (d, a, b)
        members: dict[int, set[int]] = {}
        for _d, a, b in pairs:
            members.setdefault(find(a), set()).update((a, b))
        for root, (d, a, b) in sorted(closest.items(), key=lambda kv: kv[1][2]):
            group = sorted(members[root])
            how = "overlap" if d < 2 * self.m.station_r else "nearly touch"
            pill = any(marks[k][0] != marks[k][1] for k in (a, b))
            apart = (
                f"their marks (a pill where parallel lines pass) are {d:.1f} mm apart, "
                "centre line to centre line,"
                if pill
                else f"their centres are {d:.1f} mm apart"
            )
            if len(group) == 2:
                msg = (
                    f"stations '{self.ids[a]}' and '{self.ids[b]}' {how}: {apart} at print "
                    f"scale, at least {need:.1f} mm needed"
                )
            else:
                msg = (
                    f"{len(group)} stations crowd together ({_names([self.ids[k] for k in group])})"
                    f": the closest, '{self.ids[a]}' and '{self.ids[b]}', are {d:.1f} mm apart "
                    f"{'(pill to pill) ' if pill else ''}at print scale, at least {need:.1f} mm "
                    "needed"
                )
            self.ctx.emit("GEO002", msg, self.ctx.station_ptr(self.ids[b]))

    # -- lines ------------------------------------------------------------------------------
    def lines_vs_stations(self, tree) -> None:
        from shapely import LineString

        r, half, near = self.m.station_r, self.m.line_w / 2, self.m.near_line
        for ln, key, pts in self.paths():
            if len(pts) < 2 or not all(_finite(*p) for p in pts):
                continue
            stops = set(ln.stops)
            reach = r + half + near + self.pill_reach
            hits = tree.query(LineString(pts), predicate="dwithin", distance=reach)
            for k in sorted(hits.tolist()):
                sid = self.ids[k]
                if sid in stops:
                    continue
                near_segments = self.segment_tree(key, pts).query(
                    self.mark_shape(k), predicate="dwithin", distance=reach
                )
                _, d = self.nearest_segment(k, pts, sorted(near_segments.tolist()))
                gap = d - r - half
                if gap >= near:
                    continue
                j = self.route_segment(k, key)
                pointer, where = self.segment_where(ln, j, key)
                if gap < 0:
                    verb = "runs through" if d < r else "touches the circle of"
                    centre = "centre" if self.marks[k][0] == self.marks[k][1] else "centre line"
                    self.ctx.emit(
                        "GEO001",
                        f"line '{ln.id}' {verb} station '{sid}' ({d:.1f} mm from its {centre}; "
                        f"circle radius {r:.1f} mm, line {2 * half:.1f} mm wide) {where}, "
                        "which is not one of its stops",
                        pointer,
                    )
                else:
                    self.ctx.emit(
                        "GEO007",
                        f"line '{ln.id}' passes {gap:.1f} mm from the circle of station '{sid}' "
                        f"{where}, which is not one of its stops (leave at least {near:.1f} mm)",
                        pointer,
                    )

    # -- wagons -----------------------------------------------------------------------------
    def wagons(self, tree) -> None:
        from shapely import STRtree, box

        r = self.m.station_r
        lines = list(self.city.lines)
        if not lines:
            return
        rects = [self.sheet.wagons[ln.id].rect for ln in lines]
        if not all(_finite(w.x, w.y, w.w, w.h) for w in rects):
            return
        polys = [box(w.x, w.y, w.right, w.bottom) for w in rects]
        for ln, w, poly in zip(lines, rects, polys, strict=True):
            covered = []
            nearest = r
            hits = tree.query(poly, predicate="dwithin", distance=r + self.pill_reach)
            for k in sorted(hits.tolist()):
                a, b = self.marks[k]
                d = _rect_dist(self.xy[k], w) if a == b else _seg_rect_dist(a, b, w)
                if d < r - 1e-9:
                    covered.append(self.ids[k])
                    nearest = min(nearest, d)
            if covered:
                what = "station" if len(covered) == 1 else "stations"
                how = (
                    "a station centre lies inside the wagon"
                    if nearest == 0
                    else f"a circle reaches {r - nearest:.1f} mm into the wagon"
                )
                self.ctx.emit(
                    "GEO005",
                    f"the wagon of line '{ln.id}' covers {what} {_names(covered)} ({how})",
                    self.ctx.line_ptr(ln.id, "depot"),
                )
        wtree = STRtree(polys)
        a_idx, b_idx = wtree.query(polys, predicate="intersects")
        for a, b in zip(a_idx.tolist(), b_idx.tolist(), strict=True):
            if a >= b:
                continue
            wa, wb = rects[a], rects[b]
            ox = min(wa.right, wb.right) - max(wa.x, wb.x)
            oy = min(wa.bottom, wb.bottom) - max(wa.y, wb.y)
            if ox <= 1e-9 or oy <= 1e-9:
                continue
            self.ctx.emit(
                "GEO005",
                f"the wagons of lines '{lines[a].id}' and '{lines[b].id}' overlap "
                f"({ox:.1f} x {oy:.1f} mm)",
                self.ctx.line_ptr(lines[b].id, "depot"),
            )
        self.lines_over_wagons(wtree, lines, rects)

    def lines_over_wagons(self, wtree, lines: list[Line], rects: list[Rect]) -> None:
        from shapely import LineString, box

        half = self.m.line_w / 2
        found: dict[int, list[str]] = {}
        for ln, key, pts in self.paths():
            if len(pts) < 2 or not all(_finite(*p) for p in pts):
                continue
            for k in wtree.query(LineString(pts), predicate="dwithin", distance=half).tolist():
                if lines[k].id == ln.id:
                    continue
                w = rects[k]
                segments = self.segment_tree(key, pts).query(
                    box(w.x, w.y, w.right, w.bottom), predicate="dwithin", distance=half
                )
                near = min(
                    _seg_rect_dist(pts[j], pts[j + 1], w)
                    for j in (sorted(segments.tolist()) or range(len(pts) - 1))
                )
                if near < half - 1e-9 and ln.id not in found.get(k, []):
                    found.setdefault(k, []).append(ln.id)
        for k in sorted(found):
            others = found[k]
            who = (
                f"line '{others[0]}' runs" if len(others) == 1 else (f"lines {_names(others)} run")
            )
            self.ctx.emit(
                "GEO008",
                f"{who} over the wagon of line '{lines[k].id}': its letter or window boxes "
                "are hard to read and write in",
                self.ctx.line_ptr(lines[k].id, "depot"),
            )

    def wagon_size(self) -> None:
        m = self.m
        for ln in self.city.lines:
            wagon = self.sheet.wagons[ln.id]
            if wagon.writable:
                continue
            need = m.letter_w + ln.windows * m.min_box + 2 * m.wagon_pad
            limit = ln.depot.max_width_mm
            self.ctx.emit(
                "GEO006",
                f"line '{ln.id}': its {ln.windows} window boxes leave "
                f"{max(m.inside_of_box(wagon.box_size), 0.0):.1f} mm to write in, below the "
                f"{m.min_window_inside:.1f} mm a felt-tip pen needs; max_width_mm "
                f"{limit if limit is not None else '?'} must be at least {need:.1f} mm",
                self.ctx.line_ptr(ln.id, "depot", "max_width_mm"),
            )

    def panel(self) -> None:
        if self.sheet.panel_fits:
            return
        m = self.m
        first_score = min((b.y for b in self.sheet.score_boxes.values()), default=0.0)
        rows_h = first_score - m.score_label_h - m.gap - self.sheet.panel.y
        room = max(int(rows_h // m.min_panel_row_h), 0)
        n = len(self.city.lines)
        self.ctx.emit(
            "GEO009",
            f"the scoring panel has room for {room} lines on {self.sheet.paper} paper "
            f"(rows at least {m.min_panel_row_h:.0f} mm high); the map has {n}",
            "/lines",
        )


_EDGES = ("left", "top", "right", "bottom")


def margins(ctx: CheckContext) -> None:
    """GEO010: every printed mark at least ``metrics.margin`` from the trim, on every paper.

    Measured on each paper's own layout (``sheet.ink_marks``: strokes, halos, stars,
    arrows, bundle offsets included); one diagnostic per element, at its worst paper.
    """
    from mapkit.sheet import PAPERS, ink_marks, layout

    worst: dict[tuple[str, str], tuple[float, str, str]] = {}
    for paper in PAPERS:
        sheet = ctx.sheet if paper == ctx.paper else layout(ctx.city, paper)
        need = sheet.metrics.margin
        for mark in ink_marks(ctx.city, sheet):
            b = mark.bounds
            gaps = (b.x, b.y, sheet.width - b.right, sheet.height - b.bottom)
            if not _finite(*gaps):
                continue
            gap, edge = min(zip(gaps, _EDGES, strict=True))
            key = (mark.kind, mark.element_id)
            if gap < need - 1e-6 and (key not in worst or gap < worst[key][0]):
                worst[key] = (gap, edge, paper)
    need = ctx.sheet.metrics.margin
    for (kind, element), (gap, edge, paper) in worst.items():
        if kind == "station":
            pointer, what = ctx.station_ptr(element), f"station '{element}'"
        else:
            pointer = ctx.line_ptr(element, "depot" if kind == "wagon" else "stops")
            what = f"the {kind} of line '{element}'" if kind != "line" else f"line '{element}'"
        ctx.emit(
            "GEO010",
            f"{what} prints {gap:.1f} mm from the {edge} edge of {paper} paper; nothing may "
            f"print within {need:.0f} mm of the trim",
            pointer,
        )


def _seg_rect_dist(a: Point, b: Point, r: Rect) -> float:
    """Distance between segment ab and rectangle r (0 when they touch)."""
    if r.contains_point(a) or r.contains_point(b):
        return 0.0
    corners = [(r.x, r.y), (r.right, r.y), (r.right, r.bottom), (r.x, r.bottom)]
    edges = list(zip(corners, corners[1:] + corners[:1], strict=True))
    if any(_segments_cross(a, b, p, q) for p, q in edges):
        return 0.0
    return min(
        [_seg_dist(c, a, b) for c in corners]
        + [_seg_dist(a, p, q) for p, q in edges]
        + [_seg_dist(b, p, q) for p, q in edges]
    )


def _seg_seg_dist(a: Point, b: Point, c: Point, d: Point) -> float:
    """Distance between segments ab and cd (points when the ends coincide)."""
    if a == b and c == d:
        return math.dist(a, c)
    if _segments_cross(a, b, c, d):
        return 0.0
    return min(_seg_dist(a, c, d), _seg_dist(b, c, d), _seg_dist(c, a, b), _seg_dist(d, a, b))


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def orient(p: Point, q: Point, s: Point) -> float:
        return (q[0] - p[0]) * (s[1] - p[1]) - (q[1] - p[1]) * (s[0] - p[0])

    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0)


def branch_tags(ctx: CheckContext) -> None:
    """GEO011: a branch's tag (``sheet.branch_tags``) found no spot by its terminus with
    ``metrics.near_line`` of paper to every printed mark."""
    from mapkit.sheet import branch_tags as placed

    need = ctx.sheet.metrics.near_line
    for tag in placed(ctx.city, ctx.sheet):
        if tag.room >= need - 1e-9:
            continue
        ln = ctx.city.line(tag.line_id)
        b = next(u.branch for u in ln.units if u.label == tag.label)
        assert b is not None
        where = (
            f"{tag.room:.1f} mm of paper at best"
            if math.isfinite(tag.room)
            else "no spot inside the map area"
        )
        ctx.emit(
            "GEO011",
            f"the tag {tag.label} of line '{ln.id}' finds {where} beside its branch's end "
            f"'{tag.terminus}' (it needs {need:.1f} mm): it prints against a station, line or "
            f"wagon there",
            ctx.line_ptr(ln.id, "branches", b, "stops", len(ln.branches[b].stops) - 1),
        )


def check(ctx: CheckContext) -> None:
    """GEO001-GEO011 at print scale."""
    from shapely import STRtree, points

    geo = _Geo(ctx)
    geo.placement()
    geo.wagon_size()
    geo.panel()
    margins(ctx)
    branch_tags(ctx)
    if not all(_finite(*p) for p in geo.xy):
        return
    tree = STRtree(points(geo.xy))
    geo.crowding()
    geo.lines_vs_stations(tree)
    geo.wagons(tree)
