"""Stations from lat/lon to sheet millimetres: a local projection, a fit, and room to write.

The projection is azimuthal equidistant about the network's centre (distances from the
centre are true; at city size every distance is within a fraction of a percent). The
drawing is then scaled into the map area of the sheet (``mapkit.sheet.map_area``), so map
units are print millimetres. A real city is dense in its centre and sparse outside,
which at print scale crowds the centre's circles together; :func:`spread` evens the
density (each axis blended with its rank order, which keeps the stations' order along
both axes) and then pushes apart what is still too close: circle from circle, and
circle from a line that does not stop there.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Mapping, Sequence

from mapkit.importers.network import Place
from mapkit.importers.stations import EARTH_RADIUS_M
from mapkit.sheet import METRICS, Rect

Point = tuple[float, float]

CIRCLE_GAP = METRICS.min_station_distance + 1.5
"""Centre distance the spreading aims for: the validator's minimum and 1.5 mm to spare."""
LINE_GAP = METRICS.station_r + METRICS.line_w / 2 + METRICS.near_line + 1.0
"""Distance from a line to a station it passes: the validator's minimum and 1 mm to spare."""


def project(places: Mapping[str, Place]) -> dict[str, Point]:
    """Metres east and south of the centre of the places' bounding box (y grows down)."""
    lats = [p.lat for p in places.values()]
    lons = [p.lon for p in places.values()]
    lat0 = math.radians((min(lats) + max(lats)) / 2)
    lon0 = math.radians((min(lons) + max(lons)) / 2)
    out = {}
    for pid, p in places.items():
        lat, dlon = math.radians(p.lat), math.radians(p.lon) - lon0
        cos_c = math.sin(lat0) * math.sin(lat) + math.cos(lat0) * math.cos(lat) * math.cos(dlon)
        c = math.acos(max(-1.0, min(1.0, cos_c)))
        k = c / math.sin(c) if c > 1e-12 else 1.0
        x = EARTH_RADIUS_M * k * math.cos(lat) * math.sin(dlon)
        y = (
            EARTH_RADIUS_M
            * k
            * (math.cos(lat0) * math.sin(lat) - math.sin(lat0) * math.cos(lat) * math.cos(dlon))
        )
        out[pid] = (x, -y)
    return out


def fit(points: Mapping[str, Point], box: Rect) -> dict[str, Point]:
    """The points scaled uniformly and centred to fill ``box``."""
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    scale = min(box.w / w if w > 0 else math.inf, box.h / h if h > 0 else math.inf)
    if not math.isfinite(scale):
        scale = 1.0
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    bx, by = box.center
    return {k: (bx + (x - cx) * scale, by + (y - cy) * scale) for k, (x, y) in points.items()}


def _ranked(values: list[float]) -> list[float]:
    """Each value's rank among the distinct values, 0..1 (ties share a rank)."""
    distinct = sorted(set(values))
    if len(distinct) < 2:
        return [0.5 for _ in values]
    return [bisect.bisect_left(distinct, v) / (len(distinct) - 1) for v in values]


def even_out(points: Mapping[str, Point], box: Rect, blend: float) -> dict[str, Point]:
    """Each axis ``blend`` of the way from the geography to the rank order, in ``box``."""
    keys = list(points)
    geo = fit(points, box)
    out = {}
    for axis, lo, size in ((0, box.x, box.w), (1, box.y, box.h)):
        vals = [geo[k][axis] for k in keys]
        ranks = _ranked(vals)
        span_lo, span = min(vals), (max(vals) - min(vals)) or 1.0
        for k, v, r in zip(keys, vals, ranks, strict=True):
            mixed = (1 - blend) * (v - span_lo) / span + blend * r
            out.setdefault(k, [0.0, 0.0])[axis] = lo + mixed * size
    return {k: (v[0], v[1]) for k, v in out.items()}


def _closest_on_segment(p: Point, a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    denom = dx * dx + dy * dy
    t = 0.0 if denom == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / denom))
    return (a[0] + t * dx, a[1] + t * dy)


def spread(
    points: Mapping[str, Point],
    lines: Sequence[Sequence[str]],
    box: Rect,
    rounds: int = 120,
) -> dict[str, Point]:
    """Push apart circles closer than ``CIRCLE_GAP`` and circles closer than ``LINE_GAP`` to a
    line that does not stop there, within ``box``; at most ``rounds`` passes."""
    pos = {k: [x, y] for k, (x, y) in points.items()}
    keys = sorted(pos)
    segments = [(set(ln), a, b) for ln in lines for a, b in itertools.pairwise(ln)]
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(keys):
            pa = pos[a]
            for b in keys[i + 1 :]:
                pb = pos[b]
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                d = math.hypot(dx, dy)
                if d >= CIRCLE_GAP:
                    continue
                if d < 1e-9:
                    dx, dy, d = 1.0, 0.0, 1.0
                push = (CIRCLE_GAP - d) / 2 + 0.05
                pa[0] -= dx / d * push
                pa[1] -= dy / d * push
                pb[0] += dx / d * push
                pb[1] += dy / d * push
                moved = True
        for stops, a, b in segments:
            for k in keys:
                if k in stops:
                    continue
                p = pos[k]
                qa, qb = pos[a], pos[b]
                cx, cy = _closest_on_segment((p[0], p[1]), (qa[0], qa[1]), (qb[0], qb[1]))
                dx, dy = p[0] - cx, p[1] - cy
                d = math.hypot(dx, dy)
                if d >= LINE_GAP:
                    continue
                if d < 1e-9:
                    sx, sy = qb[0] - qa[0], qb[1] - qa[1]
                    norm = math.hypot(sx, sy) or 1.0
                    dx, dy, d = -sy / norm, sx / norm, 1.0
                push = (LINE_GAP - d) / 2 + 0.05
                p[0] += dx / d * push
                p[1] += dy / d * push
                for q in (qa, qb):
                    q[0] -= dx / d * push / 2
                    q[1] -= dy / d * push / 2
                moved = True
        for p in pos.values():
            p[0] = min(max(p[0], box.x), box.right)
            p[1] = min(max(p[1], box.y), box.bottom)
        if not moved:
            break
    return {k: (v[0], v[1]) for k, v in pos.items()}
