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


def spread(
    points: Mapping[str, Point],
    lines: Sequence[Sequence[str]],
    box: Rect,
    rounds: int = 120,
) -> dict[str, Point]:
    """Push apart circles closer than ``CIRCLE_GAP`` and circles closer than ``LINE_GAP`` to a
    line that does not stop there, within ``box``; at most ``rounds`` passes (each pass is a
    few array operations over every pair, so 400 stations take well under a second)."""
    import numpy as np

    keys = sorted(points)
    index = {k: i for i, k in enumerate(keys)}
    pos = np.array([points[k] for k in keys], dtype=float)
    n = len(keys)
    seg_a = np.array([index[a] for ln in lines for a, _ in itertools.pairwise(ln)], dtype=int)
    seg_b = np.array([index[b] for ln in lines for _, b in itertools.pairwise(ln)], dtype=int)
    on = np.zeros((len(seg_a), n), dtype=bool)
    row = 0
    for ln in lines:
        members = [index[s] for s in ln]
        for _ in range(len(ln) - 1):
            on[row, members] = True
            row += 1
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    lo = np.array([box.x, box.y])
    hi = np.array([box.right, box.bottom])
    for _ in range(rounds):
        delta = pos[None, :, :] - pos[:, None, :]
        dist = np.hypot(delta[..., 0], delta[..., 1])
        close = upper & (dist < CIRCLE_GAP)
        moved = bool(close.any())
        if moved:
            i, j = np.nonzero(close)
            d = dist[i, j]
            unit = np.where(
                d[:, None] > 1e-9, delta[i, j] / np.maximum(d, 1e-9)[:, None], [1.0, 0.0]
            )
            push = ((CIRCLE_GAP - d) / 2 + 0.05)[:, None] * unit
            np.add.at(pos, i, -push)
            np.add.at(pos, j, push)
        if len(seg_a):
            a, b = pos[seg_a], pos[seg_b]
            ab = b - a
            denom = np.maximum((ab**2).sum(axis=1), 1e-12)
            rel = pos[None, :, :] - a[:, None, :]
            t = np.clip((rel * ab[:, None, :]).sum(axis=2) / denom[:, None], 0.0, 1.0)
            near = a[:, None, :] + t[..., None] * ab[:, None, :]
            away = pos[None, :, :] - near
            d = np.hypot(away[..., 0], away[..., 1])
            hit = (~on) & (d < LINE_GAP)
            if hit.any():
                moved = True
                k, m = np.nonzero(hit)
                dd = d[k, m]
                normal = np.stack([-ab[k, 1], ab[k, 0]], axis=1)
                normal /= np.maximum(np.hypot(normal[:, 0], normal[:, 1]), 1e-12)[:, None]
                unit = np.where(
                    dd[:, None] > 1e-9, away[k, m] / np.maximum(dd, 1e-9)[:, None], normal
                )
                push = ((LINE_GAP - dd) / 2 + 0.05)[:, None] * unit
                np.add.at(pos, m, push)
                np.add.at(pos, seg_a[k], -push / 2)
                np.add.at(pos, seg_b[k], -push / 2)
        np.clip(pos, lo, hi, out=pos)
        if not moved:
            break
    return {k: (float(x), float(y)) for k, (x, y) in zip(keys, pos, strict=True)}
