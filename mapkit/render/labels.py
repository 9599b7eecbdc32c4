"""Station name placement: try positions around each station, keep the first free one.

A label may touch nothing printed: station marks, lines, wagons, loop arrows,
special-station stars or other labels, and it stays inside the map area. When
no position is free the name is left out, never shortened to a fragment that
loses its meaning, and never overlapped. Widths are DejaVu Sans advances
(:mod:`mapkit.render.fontmetrics`), which is what the PDF and PNG export lays out
(it draws text with unhinted metrics, see :mod:`mapkit.render.export`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mapkit.mapfile.model import CityMap
from mapkit.render.fontmetrics import ASCENT, DESCENT, text_width
from mapkit.render.style import clean_text
from mapkit.sheet import Rect, SheetLayout

GAP = 0.5
LABEL_PAD = 0.8  # mm between two labels, so that neighbouring names never run together
OVERHANG = 0.06  # font sizes: glyph ink beyond the advance (the hook of an f)
LINE_SPACING = 1.1  # second line of a name, in font sizes
AMBIGUOUS = 1.5  # mm: a label must be this much nearer its own station than any other


@dataclass(frozen=True)
class Label:
    station_id: str
    text: str
    lines: tuple[str, ...]
    x: float
    baseline: float
    anchor: str  # "start", "middle" or "end"
    box: Rect
    at: str = "e"  # the compass direction from the station (DIRECTIONS)


@dataclass(frozen=True)
class LabelResult:
    labels: tuple[Label, ...]
    wanted: int
    skipped: tuple[str, ...]

    @property
    def placed(self) -> int:
        return len(self.labels)


DIRECTIONS = ("e", "ne", "se", "w", "n", "s", "nw", "sw")
"""The compass directions of a ring's positions, in the order they are tried."""


def _candidates(
    lines: tuple[str, ...],
    size: float,
    mark: tuple[float, float, float, float],
    prefer: str | None = None,
) -> Iterable[tuple[str, tuple[float, float, str, Rect]]]:
    """(direction, (x, first baseline, anchor, box)) around a station's bounding box, best
    first: the designer's direction ``prefer`` (a station's ``label``, both rings) first."""
    rings = [list(_ring(lines, size, mark, GAP)), list(_ring(lines, size, mark, 4 * GAP))]
    first = DIRECTIONS.index(prefer) if prefer in DIRECTIONS else None
    if first is not None:
        yield prefer, rings[0][first]
        yield prefer, rings[1][first]
    for ring in rings:
        yield from ((DIRECTIONS[i], c) for i, c in enumerate(ring) if i != first)


def _ring(
    lines: tuple[str, ...], size: float, mark: tuple[float, float, float, float], gap: float
) -> Iterable[tuple[float, float, str, Rect]]:
    x0, y0, x1, y1 = mark
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w = max(text_width(t, size) for t in lines)
    h = (ASCENT + DESCENT) * size + (len(lines) - 1) * LINE_SPACING * size
    d = (x1 - x0) * 0.28 + gap

    ov = OVERHANG * size

    def at(left: float, top: float) -> tuple[float, float, str, Rect]:
        return (left, top + ASCENT * size, "start", Rect(left - ov, top, w + 2 * ov, h))

    k = (y1 - y0) * 0.1
    yield at(x1 + gap, cy - h / 2)  # east
    yield at(cx + d, y0 - h + k)  # north-east
    yield at(cx + d, y1 - k)  # south-east
    yield at(x0 - gap - w, cy - h / 2)  # west
    yield at(cx - w / 2, y0 - gap - h)  # north
    yield at(cx - w / 2, y1 + gap)  # south
    yield at(cx - d - w, y0 - h + k)  # north-west
    yield at(cx - d - w, y1 - k)  # south-west


def _layouts(name: str) -> Iterable[tuple[str, ...]]:
    """The whole name on one line, then broken in two at a space or dash near its middle."""
    yield (name,)
    breaks = [i for i, ch in enumerate(name) if ch in " -–"]
    for i in sorted(breaks, key=lambda i: abs(len(name) / 2 - i)):
        head = name[: i + 1] if name[i] != " " else name[:i]
        tail = name[i + 1 :]
        if head.strip() and tail.strip():
            yield (head, tail)


def place_labels(
    city: CityMap,
    lay: SheetLayout,
    obstacles: Iterable,
    radius: Mapping[str, float],
    size: float | None = None,
) -> LabelResult:
    """Place a name label for every named station, never over an obstacle (shapely geometries).

    ``radius`` is each station's printed extent around its mark (a terminus
    halo or a special star reaches further than the circle).
    """
    from shapely import Point, STRtree, box

    size = size or lay.metrics.label_font
    r = lay.metrics.station_r
    fixed = list(obstacles)
    tree = STRtree(fixed)
    ids = list(lay.stations)
    centres = STRtree([Point(lay.stations[i]) for i in ids])
    area = lay.map_area
    placed: list[Label] = []
    placed_boxes: list = []
    skipped: list[str] = []
    wanted = 0
    for st in city.stations:
        name = clean_text(st.name or "").strip()
        if not name:
            continue
        wanted += 1
        a, b = lay.station_mark(st.id)
        e = radius.get(st.id, r)
        mark = (min(a[0], b[0]) - e, min(a[1], b[1]) - e, max(a[0], b[0]) + e, max(a[1], b[1]) + e)
        found = None
        for lines in _layouts(name):
            for at, (x, base, anchor, rect) in _candidates(lines, size, mark, st.label_at):
                if not area.contains(rect):
                    continue
                geom = box(rect.x, rect.y, rect.right, rect.bottom)
                if len(tree.query(geom, predicate="intersects")):
                    continue
                if any(rect.intersects(o) for o in placed_boxes):
                    continue
                own = geom.distance(Point(lay.stations[st.id]))
                near = centres.query(geom, predicate="dwithin", distance=own + AMBIGUOUS)
                if any(ids[i] != st.id for i in near):
                    continue
                found = Label(st.id, name, lines, x, base, anchor, rect, at)
                break
            if found:
                break
        if found is None:
            skipped.append(st.id)
            continue
        placed.append(found)
        b = found.box
        placed_boxes.append(
            Rect(b.x - LABEL_PAD, b.y - LABEL_PAD, b.w + 2 * LABEL_PAD, b.h + 2 * LABEL_PAD)
        )
    return LabelResult(tuple(placed), wanted, tuple(skipped))
