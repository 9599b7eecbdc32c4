"""Print geometry in millimetres: the one truth that validate and render share.

``layout(map, paper)`` places every printed element of a sheet on landscape
paper: the title band, the map area with its stations, line routes and wagons,
and the scoring panel on the right. The renderer draws exactly these
rectangles and points; the geometry checks test exactly these, so a map that
validate passes renders legibly.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from mapkit.bundles import Bundling, bundle_routes
from mapkit.mapfile.model import CityMap, Line
from mapkit.render.fontmetrics import text_width

Point = tuple[float, float]

PAPERS: dict[str, tuple[float, float]] = {
    "a4": (297.0, 210.0),
    "letter": (279.4, 215.9),
}


@dataclass(frozen=True)
class Metrics:
    """Sizes of printed elements, in mm. Chosen for the felt-tip pens the game ships with.

    The writing room is the one truth: a window's and a station's clear inside
    (inside the drawn outline) are fixed here, and the outer sizes derive from them.
    """

    margin: float = 5.0
    bleed: float = 3.0
    crop_mark: float = 5.0
    header_h: float = 14.0
    footer_h: float = 4.0
    panel_w: float = 40.0
    gap: float = 3.0
    station_inside: float = 5.6
    min_station_inside: float = 5.5
    station_stroke: float = 0.35
    interchange_stroke: float = 0.75
    station_clearance: float = 0.8
    line_w: float = 1.5
    parallel_gap: float = 0.3
    # grayscale strokes are thinner, so neighbours in a bundle keep a white gap that prints
    # (parallel_step - gray_line_w): black on black 0.3 mm apart merges into one band
    gray_line_w: float = 1.1
    window_inside: float = 6.6
    min_window_inside: float = 6.5
    window_inset: float = 0.35
    window_stroke: float = 0.3
    letter_w: float = 6.5
    wagon_pad: float = 0.7
    near_line: float = 0.6
    panel_row_h: float = 11.0
    min_panel_row_h: float = 8.0
    diamond: float = 8.5
    square: float = 7.0
    score_box_h: float = 11.0
    score_label_h: float = 4.0
    title_font: float = 9.0
    label_font: float = 2.6
    terminus_halo: float = 1.25
    halo_stroke: float = 0.25
    special_star: float = 2.3
    star_stroke: float = 0.3
    loop_arrow_reach: float = 4.8
    loop_arrow_len: float = 3.4
    loop_arrow_half_w: float = 1.9
    loop_arrow_stroke: float = 0.45
    wagon_stroke: float = 0.3
    total_stroke: float = 0.6
    casing: float = 0.35
    card_cut_mark: float = 4.0
    tag_font: float = 3.0
    tag_pad: float = 0.7

    @property
    def station_r(self) -> float:
        """Outer radius of a station circle (to the middle of its thickest ring)."""
        return (self.station_inside + self.interchange_stroke) / 2

    @property
    def station_outer(self) -> float:
        """Radius to the outer edge of a station's ring (the thick ring of an interchange)."""
        return self.station_r + self.interchange_stroke / 2

    @property
    def terminus_outer(self) -> float:
        """Radius to the outer edge of a terminus halo."""
        return self.station_r + self.terminus_halo + self.halo_stroke / 2

    @property
    def special_outer(self) -> float:
        """Radius to the outer edge of a special station's star."""
        return self.station_r + self.special_star + self.star_stroke / 2

    @property
    def loop_arrow_tip(self) -> float:
        """Distance from a loop's first station (pill middle) to its arrows' tips."""
        return self.station_r + self.loop_arrow_reach

    @property
    def box(self) -> float:
        """Side of one window cell: the inside plus the inset and the outline."""
        return self.window_inside + 2 * self.window_inset + self.window_stroke

    @property
    def min_box(self) -> float:
        """The smallest window cell that still leaves ``min_window_inside`` to write in."""
        return self.min_window_inside + 2 * self.window_inset + self.window_stroke

    def inside_of_box(self, box: float) -> float:
        """Clear writing room inside a window cell of side ``box``."""
        return box - 2 * self.window_inset - self.window_stroke

    @property
    def parallel_step(self) -> float:
        """Centre distance of neighbouring lines in a bundle: stroke plus gap."""
        return self.line_w + self.parallel_gap

    @property
    def min_station_distance(self) -> float:
        """Centre distance below which two station circles print too close."""
        return 2 * self.station_r + self.station_clearance


METRICS = Metrics()

ALL_LINES_ROW = "*"
"""The panel row of the all-lines bonus (below the lines' rows), by this line id."""


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def center(self) -> Point:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def contains(self, other: Rect, tol: float = 1e-6) -> bool:
        return (
            other.x >= self.x - tol
            and other.y >= self.y - tol
            and other.right <= self.right + tol
            and other.bottom <= self.bottom + tol
        )

    def intersects(self, other: Rect) -> bool:
        return not (
            other.x >= self.right
            or other.right <= self.x
            or other.y >= self.bottom
            or other.bottom <= self.y
        )

    def contains_point(self, p: Point, tol: float = 1e-6) -> bool:
        return (
            self.x - tol <= p[0] <= self.right + tol and self.y - tol <= p[1] <= self.bottom + tol
        )


@dataclass(frozen=True)
class Wagon:
    """A line's wagon: the letter cell and one box per window, centred on the depot."""

    line_id: str
    anchor: Point
    rect: Rect
    letter_cell: Rect
    boxes: tuple[Rect, ...]
    box_size: float

    @property
    def writable(self) -> bool:
        return self.box_size >= METRICS.min_box - 1e-9


@dataclass(frozen=True)
class PanelRow:
    """One row of the bonus panel: letter, diamond (first), square (others)."""

    line_id: str
    """The row's line, a branch of a branching line (``C1``), or ``ALL_LINES_ROW``."""
    rect: Rect
    letter: Point
    diamond: Point
    diamond_size: float
    square: Rect


@dataclass(frozen=True)
class SheetLayout:
    paper: str
    width: float
    height: float
    metrics: Metrics
    printable: Rect
    header: Rect
    footer: Rect
    map_area: Rect
    panel: Rect
    panel_rows: tuple[PanelRow, ...]
    panel_fits: bool
    score_boxes: dict[str, Rect]
    scale: float
    offset: Point
    origin: Point
    stations: dict[str, Point]
    routes: dict[str, tuple[Point, ...]]
    """Drawn paths by key: a line's id (from its wagon), and ``C/2`` for the second branch of a
    branching line C, from the fork (:func:`path_keys`)."""
    wagons: dict[str, Wagon]
    drawn_routes: dict[str, tuple[Point, ...]] = field(default_factory=dict)
    station_marks: dict[str, tuple[Point, Point]] = field(default_factory=dict)

    def line_paths(self, line: Line) -> list[tuple[Point, ...]]:
        """Every drawn path of a line in mm, as printed (bundle offsets included)."""
        return [self.drawn_routes.get(k) or self.routes[k] for k in path_keys(line)]

    def station_mark(self, station_id: str) -> tuple[Point, Point]:
        """The printed station: a pill of radius ``station_r`` between two points.

        Both points are the station itself unless parallel lines pass through
        it side by side; then the pill spans them, so the station reads as shared.
        """
        c = self.stations[station_id]
        return self.station_marks.get(station_id, (c, c))

    def to_mm(self, x: float, y: float) -> Point:
        return (
            self.offset[0] + (x - self.origin[0]) * self.scale,
            self.offset[1] + (y - self.origin[1]) * self.scale,
        )


FINISHES = ("trim", "bleed", "crop")
"""How a page ends: at the paper's edge (a home printer), with a bleed, or with a bleed and
crop marks in a slug around it (print shops)."""


@dataclass(frozen=True)
class PageBoxes:
    """A page's PDF boxes in mm, from the page's top-left corner.

    ``trim`` is the paper size the sheet is cut to; ``bleed`` is the trim plus the colour
    that runs past it; ``media`` is the whole page (bleed plus a slug for crop marks).
    """

    media: Rect
    bleed: Rect
    trim: Rect

    @property
    def outset(self) -> float:
        """How far the page reaches beyond the trim on every side."""
        return self.trim.x


def page_boxes(paper: str, finish: str = "trim", m: Metrics = METRICS) -> PageBoxes:
    """The boxes of one landscape page of ``paper`` finished as ``finish`` (one of FINISHES)."""
    if finish not in FINISHES:
        raise ValueError(f"finish must be one of {', '.join(FINISHES)}")
    w, h = PAPERS[paper]
    bleed = 0.0 if finish == "trim" else m.bleed
    out = bleed + (m.crop_mark + 1.0 if finish == "crop" else 0.0)
    return PageBoxes(
        media=Rect(0.0, 0.0, w + 2 * out, h + 2 * out),
        bleed=Rect(out - bleed, out - bleed, w + 2 * bleed, h + 2 * bleed),
        trim=Rect(out, out, w, h),
    )


SCORE_BOXES = ("lines", "interchanges", "empty", "total")


def wagon_size(line: Line, m: Metrics = METRICS) -> tuple[float, float, float]:
    """(width, height, box side) of a line's wagon; boxes shrink to honour max_width_mm."""
    return wagon_extent(line.windows, line.depot.max_width_mm, m)


def wagon_extent(
    windows: int, max_width_mm: float | None = None, m: Metrics = METRICS
) -> tuple[float, float, float]:
    """(width, height, box side) of a wagon with ``windows`` boxes, at most ``max_width_mm``."""
    box = m.box
    width = m.letter_w + windows * box + 2 * m.wagon_pad
    if max_width_mm is not None and width > max_width_mm:
        box = max((max_width_mm - m.letter_w - 2 * m.wagon_pad) / windows, 0.0)
        width = m.letter_w + windows * box + 2 * m.wagon_pad
    return width, box + 2 * m.wagon_pad, box


def _fit_scale(items: Iterable[tuple[float, float, float, float]], w: float, h: float) -> float:
    """Largest scale s so every item (x, y, half-width, half-height) fits a w x h box.

    For each axis and each pair (i, j) with p_j > p_i: s*(p_j - p_i) + a_i + a_j <= size.
    Items are grouped by half-extent so only group extremes need pairing.
    """
    items = list(items)
    best = math.inf
    for axis, size in ((0, w), (1, h)):
        groups: dict[float, list[float]] = defaultdict(lambda: [math.inf, -math.inf])
        for it in items:
            g = groups[it[2 + axis]]
            g[0] = min(g[0], it[axis])
            g[1] = max(g[1], it[axis])
        for ai, (lo_i, _) in groups.items():
            for aj, (_, hi_j) in groups.items():
                span = hi_j - lo_i
                room = size - ai - aj
                if span > 0:
                    best = min(best, max(room, 0.0) / span)
    if not math.isfinite(best):
        return 1.0
    return best


def _panel(
    m: Metrics, panel: Rect, line_ids: list[str]
) -> tuple[tuple[PanelRow, ...], bool, dict[str, Rect]]:
    score_h = len(SCORE_BOXES) * (m.score_box_h + m.score_label_h)
    score_top = panel.bottom - score_h
    rows_area = Rect(panel.x, panel.y, panel.w, score_top - m.gap - panel.y)
    n = max(len(line_ids), 1)
    row_h = min(m.panel_row_h, rows_area.h / n)
    fits = row_h >= m.min_panel_row_h
    scale = min(1.0, row_h / m.panel_row_h)
    rows = []
    for i, lid in enumerate(line_ids):
        r = Rect(panel.x, panel.y + i * row_h, panel.w, row_h)
        cy = r.y + row_h / 2
        d = m.diamond * scale
        sq = m.square * scale
        rows.append(
            PanelRow(
                line_id=lid,
                rect=r,
                letter=(panel.x + 6.0, cy),
                diamond=(panel.x + 18.5, cy),
                diamond_size=d,
                square=Rect(panel.x + 31.0 - sq / 2, cy - sq / 2, sq, sq),
            )
        )
    boxes = {}
    for i, name in enumerate(SCORE_BOXES):
        top = score_top + i * (m.score_box_h + m.score_label_h) + m.score_label_h
        boxes[name] = Rect(panel.right - m.total_stroke / 2 - 20.0, top, 20.0, m.score_box_h)
    return tuple(rows), fits, boxes


def _station_marks(
    stations: dict[str, Point], bundling: Bundling, m: Metrics
) -> dict[str, tuple[Point, Point]]:
    """Per station on a bundle: a pill across it, as long as the bundle is wide."""
    marks: dict[str, tuple[Point, Point]] = {}
    for sid, c in stations.items():
        b = bundling.at_point.get((round(c[0], 2), round(c[1], 2)))
        if b is None or b.lines < 2:
            continue
        half = (b.lines - 1) / 2 * m.parallel_step
        nx, ny = b.normal
        marks[sid] = ((c[0] - nx * half, c[1] - ny * half), (c[0] + nx * half, c[1] + ny * half))
    return marks


def station_reach(city: CityMap, m: Metrics = METRICS, arrows: bool = True) -> dict[str, float]:
    """How far each station's printed mark reaches from its centre: ring, halo, star and
    (with ``arrows``) the loop arrows at a loop's first stop.

    The layout fits these reaches into the map area, so no mark crosses the margin
    (a pill across a bundle reaches further; ``GEO010`` measures what is drawn).
    """
    ends = {end for ln in city.lines for end in ln.termini}
    loops = {ln.first_stop for ln in city.lines if ln.loop} if arrows else set()
    out = {}
    for st in city.stations:
        r = m.station_outer
        if st.id in ends:
            r = max(r, m.terminus_outer)
        if st.special:
            r = max(r, m.special_outer)
        if st.id in loops:
            r = max(r, m.loop_arrow_tip + m.loop_arrow_stroke / 2)
        out[st.id] = r
    return out


def _frame(paper: str, m: Metrics) -> tuple[Rect, Rect, Rect, Rect, Rect]:
    """(printable, header, footer, panel, map area) of landscape ``paper``."""
    width, height = PAPERS[paper]
    printable = Rect(m.margin, m.margin, width - 2 * m.margin, height - 2 * m.margin)
    header = Rect(printable.x, printable.y, printable.w, m.header_h)
    footer = Rect(printable.x, printable.bottom - m.footer_h, printable.w, m.footer_h)
    panel = Rect(printable.right - m.panel_w, header.bottom, m.panel_w, footer.y - header.bottom)
    map_area = Rect(
        printable.x, header.bottom, panel.x - m.gap - printable.x, footer.y - header.bottom
    )
    return printable, header, footer, panel, map_area


def map_area(paper: str, m: Metrics = METRICS) -> Rect:
    """Where the map (stations, lines, wagons) is drawn on landscape ``paper``, in mm."""
    return _frame(paper, m)[4]


def layout(city: CityMap, paper: str = "a4", m: Metrics = METRICS) -> SheetLayout:
    """Place every printed element of ``city`` on landscape ``paper``, in mm."""
    width, height = PAPERS[paper]
    printable, header, footer, panel, map_area = _frame(paper, m)
    bonus_row = [ALL_LINES_ROW] if city.all_lines is not None else []
    rows, fits, boxes = _panel(m, panel, [u.label for u in city.units] + bonus_row)

    items: list[tuple[float, float, float, float]] = []
    reach = station_reach(city, m)
    for s in city.stations:
        items.append((s.x, s.y, reach[s.id], reach[s.id]))
    sizes = {}
    for ln in city.lines:
        ww, wh, box = wagon_size(ln, m)
        sizes[ln.id] = (ww, wh, box)
        edge = m.wagon_stroke / 2
        items.append((ln.depot.x, ln.depot.y, ww / 2 + edge, wh / 2 + edge))
        for px, py in ln.shape or ():
            items.append((px, py, m.line_w / 2 + m.casing / 2, m.line_w / 2 + m.casing / 2))
    scale = _fit_scale(items, map_area.w, map_area.h)
    lo_x = min(it[0] * scale - it[2] for it in items)
    hi_x = max(it[0] * scale + it[2] for it in items)
    lo_y = min(it[1] * scale - it[3] for it in items)
    hi_y = max(it[1] * scale + it[3] for it in items)
    ox = map_area.x + (map_area.w - (hi_x - lo_x)) / 2 - lo_x
    oy = map_area.y + (map_area.h - (hi_y - lo_y)) / 2 - lo_y
    origin = (0.0, 0.0)

    def to_mm(x: float, y: float) -> Point:
        return (ox + x * scale, oy + y * scale)

    stations = {s.id: to_mm(s.x, s.y) for s in city.stations}
    routes = {}
    for ln in city.lines:
        for key, path in zip(path_keys(ln), city.drawn_paths(ln), strict=True):
            if key != ln.id:  # a further branch is drawn from the fork, not the wagon
                path = path[len(ln.trunk) :]
            routes[key] = tuple(to_mm(x, y) for x, y in path)
    wagons = {}
    for ln in city.lines:
        ww, wh, box = sizes[ln.id]
        cx, cy = to_mm(ln.depot.x, ln.depot.y)
        rect = Rect(cx - ww / 2, cy - wh / 2, ww, wh)
        letter = Rect(rect.x + m.wagon_pad, rect.y + m.wagon_pad, m.letter_w, box)
        boxes_ = tuple(
            Rect(letter.right + i * box, rect.y + m.wagon_pad, box, box) for i in range(ln.windows)
        )
        wagons[ln.id] = Wagon(ln.id, (cx, cy), rect, letter, boxes_, box)
    bundling = bundle_routes(routes, m.parallel_step)
    return SheetLayout(
        paper=paper,
        width=width,
        height=height,
        metrics=m,
        printable=printable,
        header=header,
        footer=footer,
        map_area=map_area,
        panel=panel,
        panel_rows=rows,
        panel_fits=fits,
        score_boxes=boxes,
        scale=scale,
        offset=(ox, oy),
        origin=origin,
        stations=stations,
        routes=routes,
        wagons=wagons,
        drawn_routes=bundling.drawn,
        station_marks=_station_marks(stations, bundling, m),
    )


def path_keys(line: Line) -> tuple[str, ...]:
    """The keys of a line's drawn paths in ``SheetLayout.routes``: its id, and ``C/2`` for a
    branching line's second branch."""
    return (line.id, *(f"{line.id}/{b + 1}" for b in range(1, len(line.branches))))


def loop_arrows(city: CityMap, lay: SheetLayout) -> dict[str, tuple[tuple[Point, ...], ...]]:
    """Per loop line, its two arrow triangles at the first stop, pointing to both neighbours."""
    m = lay.metrics
    out = {}
    for ln in city.lines:
        if not ln.loop:
            continue
        a, b = lay.station_mark(ln.first_stop)
        c = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        half = math.hypot(b[0] - a[0], b[1] - a[1]) / 2
        arrows = []
        for nxt in (ln.stops[1], ln.stops[-1]):
            p = lay.stations[nxt]
            dx, dy = p[0] - c[0], p[1] - c[1]
            d = math.hypot(dx, dy) or 1.0
            ux, uy = dx / d, dy / d
            tip = m.loop_arrow_tip + half
            base = tip - m.loop_arrow_len
            nx, ny = -uy * m.loop_arrow_half_w, ux * m.loop_arrow_half_w
            arrows.append(
                (
                    (c[0] + ux * tip, c[1] + uy * tip),
                    (c[0] + ux * base + nx, c[1] + uy * base + ny),
                    (c[0] + ux * base - nx, c[1] + uy * base - ny),
                )
            )
        out[ln.id] = tuple(arrows)
    return out


@dataclass(frozen=True)
class BranchTag:
    """A branch's name as its bonus row prints it (``A1``), in a box beside its terminus."""

    label: str
    line_id: str
    terminus: str
    rect: Rect
    room: float
    """Paper (mm) between its ink and the nearest printed mark, measured up to
    ``TAG_ROOM_MEASURED``; below ``metrics.near_line`` no spot had room (``GEO011``)."""


def tag_size(label: str, m: Metrics = METRICS) -> tuple[float, float]:
    """(width, height) of a branch tag's box: the bold label and ``tag_pad`` round it."""
    return text_width(label, m.tag_font, bold=True) + 2 * m.tag_pad, m.tag_font + 2 * m.tag_pad


TAG_TURNS = 8
"""Directions tried on each side of straight on past a branch's end: eighths of a half turn."""
TAG_STEPS = (0.0, 1.0, 2.0)
"""How much further out (mm) a tag is tried when no direction has room at the terminus."""
TAG_ROOM_MEASURED = 4
"""How far (in ``near_line``s) a tag's room is measured: enough to rank the tight spots."""


def branch_tags(city: CityMap, lay: SheetLayout) -> tuple[BranchTag, ...]:
    """Per branch of every branching line, its tag beside the branch's terminus, so the player
    knows which branch is which row of the panel.

    The tag goes in the first direction, from straight on past the branch's end turning either
    way, that leaves ``metrics.near_line`` of paper to every printed mark (stations with their
    halos and stars, lines, wagons, loop arrows, the tags before it) inside the map area,
    nearest the terminus first; where no spot has that room, the roomiest one.
    """
    from shapely import LineString, Polygon, STRtree, box
    from shapely import Point as SPoint

    branching = [ln for ln in city.lines if ln.branches]
    if not branching:
        return ()
    m = lay.metrics
    reach = station_reach(city, m, arrows=False)
    e = m.wagon_stroke / 2  # wagons and tags are outlined: their ink reaches past their box
    ink: list = []
    for st in city.stations:
        a, b = lay.station_mark(st.id)
        ink.append((SPoint(a) if a == b else LineString([a, b])).buffer(reach[st.id]))
    for ln in city.lines:
        ink += [
            LineString(pts).buffer(m.line_w / 2 + m.casing / 2)
            for pts in lay.line_paths(ln)
            if len(pts) >= 2
        ]
    ink += [box(w.rect.x - e, w.rect.y - e, w.rect.right + e, w.rect.bottom + e)
            for w in lay.wagons.values()]  # fmt: skip
    for arrows in loop_arrows(city, lay).values():
        ink += [Polygon(pts).buffer(m.loop_arrow_stroke / 2) for pts in arrows]
    tree = STRtree(ink)
    area = lay.map_area
    room = TAG_ROOM_MEASURED * m.near_line

    def clearance(r: Rect, placed: list) -> float:
        shape = box(r.x - e, r.y - e, r.right + e, r.bottom + e)
        if not area.contains(Rect(*shape.bounds[:2], r.w + 2 * e, r.h + 2 * e)):
            return -math.inf
        near = [ink[k] for k in tree.query(shape, predicate="dwithin", distance=room)]
        return min([shape.distance(g) for g in near + placed], default=room)

    out: list[BranchTag] = []
    placed: list = []
    for ln in branching:
        for unit, stops, pts in zip(ln.units, ln.paths, lay.line_paths(ln), strict=True):
            end = stops[-1]
            c = lay.stations[end]
            prev = next((p for p in reversed(pts[:-1]) if math.dist(p, pts[-1]) > 1e-6), pts[0])
            ahead = math.atan2(pts[-1][1] - prev[1], pts[-1][0] - prev[0])
            a, b = lay.station_mark(end)
            base = reach[end] + math.dist(a, b) / 2 + m.near_line + e
            best: tuple[float, Rect] | None = None
            for r in _tag_spots(c, ahead, base, tag_size(unit.label, m)):
                here = clearance(r, placed)
                if best is None or here > best[0] + 1e-9:
                    best = (here, r)
                if here >= m.near_line - 1e-9:
                    break
            assert best is not None
            here, rect = best
            out.append(BranchTag(unit.label, ln.id, end, rect, here))
            placed.append(box(rect.x - e, rect.y - e, rect.right + e, rect.bottom + e))
    return tuple(out)


def _tag_spots(c: Point, ahead: float, base: float, size: tuple[float, float]) -> Iterable[Rect]:
    """Where a tag of ``size`` may go around a terminus at ``c``, in the order tried: nearest
    first, and at each distance from straight on (``ahead``, radians) turning either way, the
    box's nearest point ``base`` (plus a step of ``TAG_STEPS``) from ``c``."""
    w, h = size
    for extra in TAG_STEPS:
        for k in range(TAG_TURNS + 1):
            for side in (1, -1) if 0 < k < TAG_TURNS else (1,):
                t = ahead + side * k * math.pi / TAG_TURNS
                ux, uy = math.cos(t), math.sin(t)
                d = base + extra + min(w / 2 / max(abs(ux), 1e-9), h / 2 / max(abs(uy), 1e-9))
                while math.hypot(max(abs(ux * d) - w / 2, 0.0), max(abs(uy * d) - h / 2, 0.0)) < (
                    base + extra - 1e-9
                ):  # a corner nearer than the edge the ray meets: out until the box is clear
                    d += 0.1
                yield Rect(c[0] + ux * d - w / 2, c[1] + uy * d - h / 2, w, h)


FLIPS = ("long", "short")
"""The paper edge a duplex printer turns the sheet over between front and back."""


def back_turned(flip: str) -> bool:
    """Whether the back page is printed turned by 180 degrees for a printer flipping on ``flip``.

    A sheet is read by turning it over like a book page, over its short side edge, so
    the back is the same way up as the front (head to head). A printer flipping on the
    short edge does exactly that; one flipping on the long edge (most printers' default)
    turns the sheet top over bottom, so the back page is printed turned to come out
    upright.
    """
    if flip not in FLIPS:
        raise ValueError(f"flip must be one of {', '.join(FLIPS)}")
    return flip == "long"


def behind(r: Rect, page_w: float) -> Rect:
    """Where, on the back page (upright, as read), a rectangle of the front lies: the
    sheet turned over its side edge mirrors it left to right."""
    return Rect(page_w - r.x - r.w, r.y, r.w, r.h)


CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 88.0),
    "tarot": (70.0, 120.0),
}


@dataclass(frozen=True)
class CardGrid:
    """Cards on one landscape page: each card's trim, bled by ``bleed`` into a gutter of
    two bleeds, the grid centred on the page, with room for cut marks of at least
    ``card_cut_mark`` between it and the margin."""

    paper: str
    width: float
    height: float
    card_w: float
    card_h: float
    bleed: float
    cells: tuple[Rect, ...]

    @property
    def per_page(self) -> int:
        return len(self.cells)

    @property
    def grid(self) -> Rect:
        """The cards' trims and bleeds together."""
        b = self.bleed
        x0 = min(c.x for c in self.cells) - b
        y0 = min(c.y for c in self.cells) - b
        x1 = max(c.right for c in self.cells) + b
        y1 = max(c.bottom for c in self.cells) + b
        return Rect(x0, y0, x1 - x0, y1 - y0)


def card_size(spec: str) -> tuple[float, float]:
    """A card size by name (poker, bridge, tarot) or as ``WxH`` in mm; ValueError otherwise."""
    key = spec.strip().lower()
    if key in CARD_SIZES:
        return CARD_SIZES[key]
    parts = key.replace("×", "x").split("x")
    try:
        w, h = (float(p) for p in parts)
    except ValueError:
        raise ValueError(
            f"unknown card size {spec!r}: use {', '.join(CARD_SIZES)} or WxH in mm (63x88)"
        ) from None
    if not (math.isfinite(w) and math.isfinite(h)) or min(w, h) < 30 or max(w, h) > 190:
        raise ValueError(f"card size {spec!r}: each side must be 30 to 190 mm")
    return (w, h)


def card_grid(paper: str, size: tuple[float, float], m: Metrics = METRICS) -> CardGrid:
    """As many cards of ``size`` as fit inside the margins of landscape ``paper``."""
    width, height = PAPERS[paper]
    w, h = size
    b = m.bleed
    edge = m.margin + m.card_cut_mark
    room_w, room_h = width - 2 * edge, height - 2 * edge
    cols = int(room_w // (w + 2 * b) + 1e-9)
    rows = int(room_h // (h + 2 * b) + 1e-9)
    if cols < 1 or rows < 1:
        raise ValueError(f"a {w:g} x {h:g} mm card does not fit on {paper} paper")
    grid_w, grid_h = cols * (w + 2 * b), rows * (h + 2 * b)
    x0, y0 = (width - grid_w) / 2 + b, (height - grid_h) / 2 + b
    cells = tuple(
        Rect(x0 + i * (w + 2 * b), y0 + j * (h + 2 * b), w, h)
        for j in range(rows)
        for i in range(cols)
    )
    return CardGrid(paper, width, height, w, h, b, cells)


@dataclass(frozen=True)
class InkMark:
    """The extent of one printed element of the map, with its ink (strokes, halos, caps)."""

    kind: str  # "station", "line", "wagon", "loop arrow" or "branch tag"
    element_id: str
    bounds: Rect


def _bounds(points: Iterable[Point], pad: float) -> Rect:
    xs, ys = zip(*points, strict=True)
    return Rect(
        min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    )


def ink_marks(city: CityMap, lay: SheetLayout) -> list[InkMark]:
    """Every station, line, wagon, loop arrow and branch tag of the map as printed, in mm on
    the page.

    A station reaches as far as its ring, halo or star around its pill; a line as far as
    half its stroke (and casing) beyond its drawn route, offsets in a bundle included.
    """
    m = lay.metrics
    reach = station_reach(city, m, arrows=False)  # the arrows are marks of their own
    out = []
    for st in city.stations:
        out.append(InkMark("station", st.id, _bounds(lay.station_mark(st.id), reach[st.id])))
    for ln in city.lines:
        for pts in lay.line_paths(ln):
            if pts:
                out.append(InkMark("line", ln.id, _bounds(pts, m.line_w / 2 + m.casing / 2)))
        w = lay.wagons[ln.id].rect
        e = m.wagon_stroke / 2
        out.append(InkMark("wagon", ln.id, Rect(w.x - e, w.y - e, w.w + 2 * e, w.h + 2 * e)))
    for lid, arrows in loop_arrows(city, lay).items():
        for pts in arrows:
            out.append(InkMark("loop arrow", lid, _bounds(pts, m.loop_arrow_stroke / 2)))
    e = m.wagon_stroke / 2
    for tag in branch_tags(city, lay):
        r = tag.rect
        out.append(
            InkMark("branch tag", tag.line_id, Rect(r.x - e, r.y - e, r.w + 2 * e, r.h + 2 * e))
        )
    return out
