"""Station name placement: try positions around each station, keep the first free one.

A label may touch nothing printed: station marks, lines, wagons, loop arrows,
special-station stars or other labels, and it stays inside the map area. When
no position is free the name is shortened with an ellipsis, and skipped when
even a short form does not fit. Overlap is never the answer.
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
MIN_CHARS = 4
AMBIGUOUS = 1.5  # mm: a label must be this much nearer its own station than any other


@dataclass(frozen=True)
class Label:
    station_id: str
    text: str
    x: float
    baseline: float
    anchor: str  # "start", "middle" or "end"
    box: Rect
    shortened: bool


@dataclass(frozen=True)
class LabelResult:
    labels: tuple[Label, ...]
    wanted: int
    shortened: int
    skipped: tuple[str, ...]

    @property
    def placed(self) -> int:
        return len(self.labels)


def _candidates(
    text: str, size: float, mark: tuple[float, float, float, float]
) -> Iterable[tuple[float, float, str, Rect]]:
    """(x, baseline, anchor, box) around a station's bounding box, best first."""
    x0, y0, x1, y1 = mark
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w = text_width(text, size)
    h = (ASCENT + DESCENT) * size
    d = (x1 - x0) * 0.28 + GAP

    def at(left: float, top: float) -> tuple[float, float, str, Rect]:
        return (left, top + ASCENT * size, "start", Rect(left, top, w, h))

    k = (y1 - y0) * 0.1
    yield at(x1 + GAP, cy - h / 2)  # east
    yield at(cx + d, y0 - h + k)  # north-east
    yield at(cx + d, y1 - k)  # south-east
    yield at(x0 - GAP - w, cy - h / 2)  # west
    yield at(cx - w / 2, y0 - GAP - h)  # north
    yield at(cx - w / 2, y1 + GAP)  # south
    yield at(cx - d - w, y0 - h + k)  # north-west
    yield at(cx - d - w, y1 - k)  # south-west


def _shorter(name: str) -> Iterable[str]:
    n = len(name)
    seen = set()
    for k in (int(n * 0.75), int(n * 0.55), MIN_CHARS + 2, MIN_CHARS):
        if MIN_CHARS <= k < n - 1 and k not in seen:
            seen.add(k)
            yield name[:k].rstrip() + "…"


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
    shortened = 0
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
        for text in (name, *_shorter(name)):
            for x, base, anchor, rect in _candidates(text, size, mark):
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
                found = Label(st.id, text, x, base, anchor, rect, text != name)
                break
            if found:
                break
        if found is None:
            skipped.append(st.id)
            continue
        shortened += found.shortened
        placed.append(found)
        b = found.box
        placed_boxes.append(
            Rect(b.x - LABEL_PAD, b.y - LABEL_PAD, b.w + 2 * LABEL_PAD, b.h + 2 * LABEL_PAD)
        )
    return LabelResult(tuple(placed), wanted, shortened, tuple(skipped))
