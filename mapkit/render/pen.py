"""A player's marks in felt-tip style over the printed sheet (issue 4, point 5).

Marks wobble a little, deterministically per element, so a filled sheet looks
hand-written yet renders identically every time. Classes: ``pen-cross``,
``pen-interchange``, ``pen-window``, ``pen-circle``, ``pen-strike``,
``pen-score``.
"""

from __future__ import annotations

import math
import random
import zlib
from typing import TYPE_CHECKING

from mapkit.paper import PaperSheet
from mapkit.render.style import PEN, fmt

if TYPE_CHECKING:
    from mapkit.render.svg import SheetDrawing

Point = tuple[float, float]
PEN_W = 0.6


_CORNERS = ((-1, -1), (1, -1), (1, 1), (-1, 1))


def _j(rnd: random.Random, amount: float) -> float:
    return rnd.uniform(-amount, amount)


def _rng(*key: object) -> random.Random:
    return random.Random(zlib.crc32("/".join(map(str, key)).encode()))


def _stroke(rnd: random.Random, a: Point, b: Point, bow: float) -> str:
    """A slightly bowed quadratic stroke from a to b."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    k = rnd.uniform(-bow, bow)
    cx, cy = mx - dy / n * k, my + dx / n * k
    return f"M{fmt(a[0])},{fmt(a[1])}Q{fmt(cx)},{fmt(cy)} {fmt(b[0])},{fmt(b[1])}"


def _ellipse(rnd: random.Random, c: Point, rx: float, ry: float) -> str:
    """A hand-drawn loop around c that overshoots its start, as a pen circle does."""
    start = rnd.uniform(0, 2 * math.pi)
    pts = []
    steps = 28
    for i in range(steps + 3):
        t = start + 2 * math.pi * i / steps
        wob = 1 + 0.05 * math.sin(3 * t + start) + rnd.uniform(-0.015, 0.015)
        pts.append((c[0] + rx * wob * math.cos(t), c[1] + ry * wob * math.sin(t)))
    return "M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y in pts)


def _hand_text(d: SheetDrawing, parent, s: str, c: Point, size: float, key: str, cls: str):
    rnd = _rng("text", key)
    angle = rnd.uniform(-7, 7)
    x, y = c[0] + rnd.uniform(-0.25, 0.25), c[1] + rnd.uniform(-0.2, 0.2)
    t = d.text(
        parent,
        s,
        x,
        y,
        size,
        anchor="middle",
        fill=PEN,
        middle=True,
        cls=cls,
        font_style="oblique",
        transform=f"rotate({fmt(angle)} {fmt(x)} {fmt(y)})",
    )
    return t


def draw_pen(d: SheetDrawing, sheet: PaperSheet) -> None:
    """Draw crosses, interchange numbers, window values, bonus marks and the final score."""
    lay, city, dwg = d.lay, d.city, d.dwg
    r = lay.metrics.station_r
    g = d.group("pen", id="pen")
    line_kw = {
        "fill": "none",
        "stroke": PEN,
        "stroke_width": fmt(PEN_W),
        "stroke_linecap": "round",
        "stroke_linejoin": "round",
    }
    for sid in sorted(sheet.crosses - set(sheet.interchanges)):
        if not city.has_station(sid):
            continue
        rnd = _rng("cross", sid)
        cx, cy = lay.stations[sid]
        k = r * 0.95
        p = [(cx + dx * k + _j(rnd, 0.35), cy + dy * k + _j(rnd, 0.35)) for dx, dy in _CORNERS]
        cg = d.group("pen-cross", g, **{"data-station": sid})
        cg.add(dwg.path(_stroke(rnd, p[0], p[2], 0.5), **line_kw))
        cg.add(dwg.path(_stroke(rnd, p[1], p[3], 0.5), **line_kw))
    for sid, value in sorted(sheet.interchanges.items()):
        if not city.has_station(sid):
            continue
        rnd = _rng("box", sid)
        cx, cy = lay.stations[sid]
        a, b = lay.station_mark(sid)
        ig = d.group("pen-interchange", g, **{"data-station": sid})
        sx = abs(b[0] - a[0]) / 2 + r + 0.9
        sy = abs(b[1] - a[1]) / 2 + r + 0.9
        corners = [
            (cx + dx * sx + _j(rnd, 0.3), cy + dy * sy + _j(rnd, 0.3)) for dx, dy in _CORNERS
        ]
        path = "".join(_stroke(rnd, corners[i], corners[(i + 1) % 4], 0.3) for i in range(4))
        ig.add(dwg.path(path, **line_kw))
        _hand_text(d, ig, str(value), (cx, cy), 4.0, f"ix/{sid}", "pen-number")
    for lid, values in sheet.windows.items():
        if not city.has_line(lid):
            continue
        boxes = lay.wagons[lid].boxes
        for i, v in enumerate(values[: len(boxes)]):
            bx = boxes[i]
            _hand_text(d, g, str(v), bx.center, bx.h * 0.72, f"win/{lid}/{i}", "pen-window")
    rows = {row.line_id: row for row in lay.panel_rows}
    for lid, mark in sheet.diamonds.items():
        row = rows.get(lid)
        if row is None or mark == "open":
            continue
        rnd = _rng("diamond", lid, mark)
        cx, cy = row.diamond
        h = row.diamond_size / 2
        if mark == "circled":
            path = _ellipse(rnd, (cx, cy), h + 0.9, h + 0.6)
            g.add(dwg.path(path, **{"class": "pen-circle", "data-line": lid}, **line_kw))
        else:
            a = (cx - h - 0.6 + rnd.uniform(-0.3, 0.3), cy + h * 0.6)
            b = (cx + h + 0.6 + rnd.uniform(-0.3, 0.3), cy - h * 0.6)
            path = _stroke(rnd, a, b, 0.4)
            g.add(dwg.path(path, **{"class": "pen-strike", "data-line": lid}, **line_kw))
    for lid, mark in sheet.squares.items():
        row = rows.get(lid)
        if row is None or mark != "circled":
            continue
        rnd = _rng("square", lid)
        sq = row.square
        path = _ellipse(rnd, sq.center, sq.w * 0.72, sq.h * 0.72)
        g.add(dwg.path(path, **{"class": "pen-circle", "data-line": lid}, **line_kw))
    if sheet.scoring is not None:
        sc = sheet.scoring
        values = {
            "lines": sc.line_points,
            "interchanges": sc.interchange_points,
            "empty": sc.penalty,
            "total": sc.total,
        }
        for name, v in values.items():
            bx = lay.score_boxes[name]
            _hand_text(d, g, str(v), bx.center, bx.h * 0.62, f"score/{name}", "pen-score")
