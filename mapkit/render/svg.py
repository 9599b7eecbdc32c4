"""The printable sheet as SVG, drawn from ``sheet.layout``: nothing here decides a size.

Every element a test or a tool may count carries a class: ``station`` (one
group per station), ``window`` (one box per window), ``wagon``, ``line``,
``panel-row``, ``diamond``, ``square``, ``score-box``, ``label``,
``loop-arrow``, ``terminus-mark``, ``special-mark``, ``branch-tag``; the pen layer of a filled
sheet uses ``pen-*`` classes (see :mod:`mapkit.render.pen`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from mapkit import __version__
from mapkit.mapfile.model import CityMap
from mapkit.paper import PaperSheet
from mapkit.render.fontmetrics import FONT_FAMILY, text_width
from mapkit.render.labels import LINE_SPACING, LabelResult, place_labels
from mapkit.render.panel import draw_panel, draw_scoring
from mapkit.render.style import (
    INK,
    PAPER_WHITE,
    SPECIAL_FILL,
    LineStyle,
    clean_text,
    colour_style,
    fmt,
    fmt_points,
    gray,
    gray_styles,
    text_on,
)
from mapkit.sheet import (
    METRICS,
    Metrics,
    PageBoxes,
    Rect,
    SheetLayout,
    branch_tags,
    layout,
    loop_arrows,
    page_boxes,
)

Point = tuple[float, float]

BACKGROUNDS = ("home", "full")


@dataclass
class RenderResult:
    """The SVG text and what happened to the station names."""

    svg: str
    labels: LabelResult | None = None
    layout: SheetLayout | None = field(default=None, repr=False)


def pill_path(a: Point, b: Point, r: float) -> str:
    """SVG path of a stadium of radius r around segment a-b (a circle when a == b)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1e-6:
        x, y = a
        return (
            f"M{fmt(x - r)},{fmt(y)}a{fmt(r)},{fmt(r)} 0 1,0 {fmt(2 * r)},0"
            f"a{fmt(r)},{fmt(r)} 0 1,0 {fmt(-2 * r)},0Z"
        )
    nx, ny = -dy / length * r, dx / length * r
    p1 = (a[0] + nx, a[1] + ny)
    p2 = (b[0] + nx, b[1] + ny)
    p3 = (b[0] - nx, b[1] - ny)
    p4 = (a[0] - nx, a[1] - ny)
    rr = fmt(r)
    return (
        f"M{fmt(p1[0])},{fmt(p1[1])}L{fmt(p2[0])},{fmt(p2[1])}"
        f"A{rr},{rr} 0 0,0 {fmt(p3[0])},{fmt(p3[1])}"
        f"L{fmt(p4[0])},{fmt(p4[1])}A{rr},{rr} 0 0,0 {fmt(p1[0])},{fmt(p1[1])}Z"
    )


def halo_sectors(
    c: Point, lay: SheetLayout, line_ids: list[str], reach: float
) -> list[list[Point]]:
    """Per line ending at ``c``, a wedge (polygon) around the direction its line arrives from.

    The wedges' borders lie halfway between neighbouring arrival directions, so they
    cover the whole turn and each line's colour sits on its own side.
    """

    def arrival(lid: str) -> float:
        pts = lay.drawn_routes.get(lid) or lay.routes[lid]
        p = next((q for q in reversed(pts[:-1]) if math.dist(q, pts[-1]) > 1e-6), pts[0])
        return math.atan2(p[1] - pts[-1][1], p[0] - pts[-1][0])

    angles = {lid: arrival(lid) for lid in line_ids}
    order = sorted(line_ids, key=lambda lid: (angles[lid], line_ids.index(lid)))
    n = len(order)
    out: dict[str, list[Point]] = {}
    for i, lid in enumerate(order):
        here = angles[lid]
        prev = angles[order[i - 1]] - (2 * math.pi if i == 0 else 0.0)
        nxt = angles[order[(i + 1) % n]] + (2 * math.pi if i == n - 1 else 0.0)
        lo, hi = (prev + here) / 2, (here + nxt) / 2
        if hi - lo < 1e-6:  # lines arriving the same way: share the turn evenly
            lo, hi = here - math.pi / n, here + math.pi / n
        steps = max(2, math.ceil((hi - lo) / (math.pi / 8)))
        rim = [
            (c[0] + reach * math.cos(lo + (hi - lo) * k / steps),
             c[1] + reach * math.sin(lo + (hi - lo) * k / steps))
            for k in range(steps + 1)
        ]  # fmt: skip
        out[lid] = [c, *rim]
    return [out[lid] for lid in line_ids]


def star_points(c: Point, outer: float, inner: float, n: int = 8) -> list[Point]:
    pts = []
    for i in range(2 * n):
        rad = outer if i % 2 == 0 else inner
        ang = math.pi * i / n - math.pi / 2
        pts.append((c[0] + rad * math.cos(ang), c[1] + rad * math.sin(ang)))
    return pts


def page_document(boxes: PageBoxes):
    """An svgwrite document for one page: sized in mm, the origin at the trim's top-left
    corner, and the page's PDF boxes recorded on the root (``data-trim-box``,
    ``data-bleed-box``: x y w h in mm from the page's corner) for the PDF export."""
    import svgwrite

    md, out = boxes.media, boxes.outset
    dwg = svgwrite.Drawing(size=(f"{fmt(md.w)}mm", f"{fmt(md.h)}mm"), profile="full", debug=False)
    dwg["viewBox"] = f"{fmt(-out)} {fmt(-out)} {fmt(md.w)} {fmt(md.h)}"
    for name, r in (("data-trim-box", boxes.trim), ("data-bleed-box", boxes.bleed)):
        dwg[name] = " ".join(fmt(v) for v in (r.x, r.y, r.w, r.h))
    return dwg


def sheet_finish(background: str = "home", grayscale: bool = False, crop_marks: bool = True) -> str:
    """How a page of a document ends (one of ``sheet.FINISHES``), from the render options:
    a grayscale sheet is always a white home page; ``full`` bleeds, with crop marks unless
    ``crop_marks`` is false. Every page of one PDF (sheets, backs, cards) takes the same
    finish, so a print shop gets pages of one size with the same boxes."""
    if background not in BACKGROUNDS:
        raise ValueError(f"background must be one of {', '.join(BACKGROUNDS)}")
    if grayscale or background == "home":
        return "trim"
    return "crop" if crop_marks else "bleed"


def draw_crop_marks(dwg, parent, trim: Rect, m: Metrics = METRICS) -> None:
    """Trim marks at the four corners of ``trim`` (the page's own coordinates: the trim's
    top-left corner is 0, 0), outside the bleed, for a print shop's guillotine."""
    g = dwg.g(id="crop-marks", **{"class": "crop-marks"})
    parent.add(g)
    start, end = m.bleed, m.bleed + m.crop_mark
    for x, sx in ((0.0, -1), (trim.w, 1)):
        for y, sy in ((0.0, -1), (trim.h, 1)):
            for a, b in (
                ((x + sx * start, y), (x + sx * end, y)),
                ((x, y + sy * start), (x, y + sy * end)),
            ):
                g.add(
                    dwg.line(
                        (fmt(a[0]), fmt(a[1])),
                        (fmt(b[0]), fmt(b[1])),
                        stroke="#000000",
                        stroke_width=0.25,
                        **{"class": "crop-mark"},
                    )
                )


def finished_page(paper: str, finish: str):
    """An svgwrite document for a page of ``paper`` finished as ``finish``, with its crop
    marks when it has them; the trim's top-left corner is 0, 0."""
    boxes = page_boxes(paper, finish)
    dwg = page_document(boxes)
    if finish == "crop":
        draw_crop_marks(dwg, dwg, boxes.trim)
    return dwg


def blank_svg(paper: str = "a4", finish: str = "trim") -> str:
    """An empty page (with crop marks when ``finish`` is ``crop``): the back of a sheet
    that has none in a duplex PDF, so the pages after it keep their side."""
    return finished_page(paper, finish).tostring()


class SheetDrawing:
    """One sheet being drawn: the layout, the style choices and the svgwrite document."""

    def __init__(
        self,
        city: CityMap,
        paper: str = "a4",
        *,
        grayscale: bool = False,
        solo: bool = False,
        background: str = "home",
        crop_marks: bool = True,
    ) -> None:
        self.city = city
        self.lay = layout(city, paper)
        self.m = self.lay.metrics
        self.grayscale = grayscale
        self.solo = solo
        finish = sheet_finish(background, grayscale, crop_marks)
        self.background = "home" if finish == "trim" else "full"
        self.finish = finish
        self.boxes = page_boxes(paper, finish, self.m)
        self.dwg = page_document(self.boxes)
        self.root = self.dwg.g(
            font_family=FONT_FAMILY, id="sheet", **{"class": f"sheet city-{city.id}"}
        )
        self.dwg.add(self.root)
        # the colour under the lines: the city's on a full-colour sheet, else white paper
        self.sheet_color = city.sheet_color if self.background == "full" else PAPER_WHITE
        if grayscale:
            self.styles: dict[str, LineStyle] = gray_styles(
                [ln.id for ln in city.lines], self.meeting_lines()
            )
        else:
            self.styles = {ln.id: colour_style(ln.color, self.sheet_color) for ln in city.lines}
        self.extra_obstacles: list = []

    # -- helpers ---------------------------------------------------------

    def meeting_lines(self) -> dict[str, set[str]]:
        """Per line, the lines it meets: a shared station (bundles share theirs too)."""
        out: dict[str, set[str]] = {ln.id: set() for ln in self.city.lines}
        for st in self.city.stations:
            here = self.city.lines_at(st.id)
            for lid in here:
                out[lid].update(x for x in here if x != lid)
        return out

    def color(self, c: str) -> str:
        return gray(c) if self.grayscale else c

    def group(self, cls: str, parent=None, **attrs):
        g = self.dwg.g(**{"class": cls}, **attrs)
        (parent if parent is not None else self.root).add(g)
        return g

    def text(
        self,
        parent,
        s: str,
        x: float,
        y: float,
        size: float,
        *,
        anchor: str = "start",
        bold: bool = False,
        fill: str = INK,
        cls: str | None = None,
        middle: bool = False,
        **attrs,
    ):
        """Text at baseline y (or vertically centred on y when ``middle``)."""
        if middle:
            y += size * 0.36
        kw = {"font_size": fmt(size), "fill": fill}
        if anchor != "start":
            kw["text_anchor"] = anchor
        if bold:
            kw["font_weight"] = "bold"
        if cls:
            kw["class"] = cls
        kw.update(attrs)
        t = self.dwg.text(clean_text(s), insert=(fmt(x), fmt(y)), **kw)
        parent.add(t)
        return t

    # -- the sheet -------------------------------------------------------

    def draw_background(self, *, panel: bool = True) -> None:
        """The paper: city colour to the bleed (``full``) or a white page with colour accents.

        ``home`` keeps the city recognisable for a home printer without flooding
        the page: the title band and the scoring panel in the sheet colour, inside
        the margins (a fifth of the page instead of all of it).
        """
        lay, m = self.lay, self.m
        if self.background == "full":
            b = m.bleed
            self.root.add(
                self.dwg.rect(
                    (fmt(-b), fmt(-b)),
                    (fmt(lay.width + 2 * b), fmt(lay.height + 2 * b)),
                    fill=self.sheet_color,
                    id="background",
                )
            )
            if self.finish == "crop":
                draw_crop_marks(self.dwg, self.root, self.boxes.trim, m)
            return
        self.root.add(
            self.dwg.rect(
                (0, 0), (fmt(lay.width), fmt(lay.height)), fill=PAPER_WHITE, id="background"
            )
        )
        if self.grayscale:
            return
        tint = self.city.sheet_color
        g = self.group("sheet-tint", id="sheet-tint")
        hd, pn = lay.header, lay.panel
        tinted = [Rect(hd.x, hd.y, hd.w, hd.h - 1.5)]
        if panel:
            tinted.append(Rect(pn.x - 1.5, pn.y, pn.w + 1.5, lay.footer.y - pn.y))
        for r in tinted:
            g.add(self.dwg.rect((fmt(r.x), fmt(r.y)), (fmt(r.w), fmt(r.h)), rx=2.0, fill=tint))

    def draw_header(self, title: str | None = None, right: str | None = None) -> None:
        lay, m = self.lay, self.m
        g = self.group("header", id="header")
        hd = lay.header
        badge = hd.h - 3.0
        g.add(
            self.dwg.rect(
                (fmt(hd.x), fmt(hd.y)),
                (fmt(badge), fmt(badge)),
                rx=1.6,
                fill=INK,
                **{"class": "city-symbol"},
            )
        )
        initials = "".join([w[0] for w in self.city.name.split() if w[0].isalpha()][:2])
        initials = initials.upper() or "?"
        self.text(
            g,
            initials,
            hd.x + badge / 2,
            hd.y + badge / 2,
            badge * (0.55 if len(initials) == 1 else 0.42),
            anchor="middle",
            bold=True,
            fill=PAPER_WHITE,
            middle=True,
        )
        tx = hd.x + badge + 3.0
        name = title or self.city.name
        room = hd.right - tx - (text_width(right, 3.4) + 6.0 if right else 0.0)
        size = min(m.title_font, room / max(text_width(name, 1.0, bold=True), 1e-6))
        self.text(g, name, tx, hd.y + m.title_font * 0.95, size, bold=True, cls="title")
        sub = self.city.subtitle
        if sub and not title:
            self.text(g, sub, tx, hd.y + m.title_font + 3.4, 3.0, cls="subtitle")
        if right:
            self.text(g, right, hd.right, hd.y + 5.0, 3.4, anchor="end", cls="header-right")

    def draw_lines(self) -> None:
        lay = self.lay
        g = self.group("lines", id="lines")
        for ln in self.city.lines:
            lg = self.group("line", g, id=f"line-{ln.id}", **{"data-line": ln.id})
            for pts in lay.line_paths(ln):
                self.stroke(lg, pts, self.styles[ln.id])

    def stroke(self, parent, pts, st: LineStyle) -> None:
        """One line in its style: casing or outline, the stroke, a centre stripe."""
        m = self.m
        line_w = m.gray_line_w if self.grayscale else m.line_w
        points = fmt_points(pts)
        common = {"fill": "none", "stroke_linejoin": "round", "stroke_linecap": "round"}
        if st.casing or st.hollow:
            parent.add(
                self.dwg.polyline(
                    points,
                    stroke=st.casing or st.color,
                    stroke_width=fmt(line_w + (0.35 if st.casing else 0.0)),
                    **common,
                )
            )
        stroke = PAPER_WHITE if st.hollow else self.color(st.color)
        width = line_w - (0.6 if self.grayscale else 0.8) if st.hollow else line_w
        if st.casing:
            width = line_w - 0.2
        kw = dict(common)
        if st.dash:
            kw["stroke_dasharray"] = " ".join(fmt(d) for d in st.dash)
            kw["stroke_linecap"] = "butt"
        parent.add(self.dwg.polyline(points, stroke=stroke, stroke_width=fmt(width), **kw))
        if st.centre:
            parent.add(self.dwg.polyline(points, stroke=st.centre, stroke_width=fmt(0.4), **common))

    def draw_stations(self, fills: dict[str, str] | None = None) -> None:
        """Station marks; termini haloed, special stations starred, interchanges thick-ringed
        (a special terminus: the halo over the star, whose points reach past it).

        Where several lines end at one station the halo is split into one sector per
        line, each facing the way its line comes in, so every ending shows its colour.
        """
        lay, m, city = self.lay, self.m, self.city
        r = m.station_r
        under = self.group("station-decor", id="station-decor")
        g = self.group("stations", id="stations")
        ending: dict[str, list[str]] = {}
        for ln in city.lines:
            for end in ln.termini:
                ending.setdefault(end, []).append(ln.id)
        for st in city.stations:
            a, b = lay.station_mark(st.id)
            c = lay.stations[st.id]
            classes = ["station"]
            shared = city.intersection_count(st.id) > 1
            if shared:
                classes.append("interchange")
            if st.special:
                classes.append("special")
                under.add(
                    self.dwg.polygon(
                        fmt_points(star_points(c, r + m.special_star, r + 0.6)),
                        fill=PAPER_WHITE if self.grayscale else SPECIAL_FILL,
                        stroke=INK,
                        stroke_width=m.star_stroke,
                        stroke_linejoin="round",
                        **{"class": "special-mark"},
                    )
                )
            if st.id in ending:  # over a star: its points reach past the halo, both show
                classes.append("terminus")
                self.draw_halo(under, st.id, ending[st.id])
            sg = self.group(" ".join(classes), g, id=f"st-{st.id}", **{"data-station": st.id})
            fill = (fills or {}).get(st.id, PAPER_WHITE)
            sg.add(
                self.dwg.path(
                    pill_path(a, b, r),
                    fill=fill,
                    stroke=INK,
                    stroke_width=m.interchange_stroke if shared else m.station_stroke,
                )
            )

    def draw_halo(self, parent, station_id: str, line_ids: list[str]) -> None:
        """A terminus halo: one colour, or a sector per line ending here."""
        lay, m = self.lay, self.m
        a, b = lay.station_mark(station_id)
        outline = pill_path(a, b, m.station_r + m.terminus_halo)
        colours = [INK if self.grayscale else self.city.line(lid).color for lid in line_ids]
        if len(line_ids) == 1 or self.grayscale:
            parent.add(
                self.dwg.path(
                    outline,
                    fill=colours[0],
                    stroke=INK,
                    stroke_width=m.halo_stroke,
                    **{"class": "terminus-mark", "data-line": line_ids[0]},
                )
            )
            return
        c = lay.stations[station_id]
        reach = 2 * (m.terminus_outer + math.dist(a, b))
        for lid, colour, wedge in zip(
            line_ids, colours, halo_sectors(c, lay, line_ids, reach), strict=True
        ):
            clip = self.dwg.defs.add(self.dwg.clipPath(id=f"halo-{station_id}-{lid}"))
            clip.add(self.dwg.polygon(fmt_points(wedge)))
            parent.add(
                self.dwg.path(
                    outline,
                    fill=colour,
                    clip_path=f"url(#halo-{station_id}-{lid})",
                    **{"class": "terminus-mark", "data-line": lid},
                )
            )
        parent.add(self.dwg.path(outline, fill="none", stroke=INK, stroke_width=m.halo_stroke))

    def draw_loop_arrows(self) -> None:
        """Two arrows at a loop line's first stop: crosses may run either way."""
        g = self.group("loop-arrows", id="loop-arrows")
        for lid, arrows in loop_arrows(self.city, self.lay).items():
            for pts in arrows:
                g.add(
                    self.dwg.polygon(
                        fmt_points(pts),
                        fill=PAPER_WHITE,
                        stroke=INK,
                        stroke_width=self.m.loop_arrow_stroke,
                        stroke_linejoin="round",
                        **{"class": "loop-arrow", "data-line": lid},
                    )
                )
                self.extra_obstacles.append(pts)

    def draw_branch_tags(self) -> None:
        """Each branch's name (its bonus row's, ``A1``) in a box beside its terminus."""
        tags = branch_tags(self.city, self.lay)
        if not tags:
            return
        g = self.group("branch-tags", id="branch-tags")
        for tag in tags:
            fill = PAPER_WHITE if self.grayscale else self.city.line(tag.line_id).color
            tg = self.group(
                "branch-tag", g, id=f"tag-{tag.label}",
                **{"data-line": tag.line_id, "data-unit": tag.label, "data-station": tag.terminus},
            )  # fmt: skip
            r = tag.rect
            tg.add(
                self.dwg.rect(
                    (fmt(r.x), fmt(r.y)),
                    (fmt(r.w), fmt(r.h)),
                    rx=0.8,
                    fill=fill,
                    stroke=INK,
                    stroke_width=self.m.wagon_stroke,
                )
            )
            self.text(
                tg, tag.label, *r.center, self.m.tag_font, anchor="middle", bold=True,
                fill=text_on(fill), middle=True,
            )  # fmt: skip
            self.extra_obstacles.append(
                [(r.x, r.y), (r.right, r.y), (r.right, r.bottom), (r.x, r.bottom)]
            )

    def draw_wagons(self) -> None:
        lay = self.lay
        g = self.group("wagons", id="wagons")
        for ln in self.city.lines:
            wg = lay.wagons[ln.id]
            body = INK if self.grayscale else ln.color
            wgrp = self.group("wagon", g, id=f"wagon-{ln.id}", **{"data-line": ln.id})
            r = wg.rect
            wgrp.add(
                self.dwg.rect(
                    (fmt(r.x), fmt(r.y)),
                    (fmt(r.w), fmt(r.h)),
                    rx=1.3,
                    fill=body,
                    stroke=INK,
                    stroke_width=self.m.wagon_stroke,
                )
            )
            lc = wg.letter_cell
            self.text(
                wgrp,
                ln.id,
                lc.center[0],
                lc.center[1],
                min(wg.box_size * 0.78, lc.w * (0.8 if len(ln.id) == 1 else 0.5)),
                anchor="middle",
                bold=True,
                fill=text_on(body),
                middle=True,
                cls="wagon-letter",
            )
            inset = self.m.window_inset
            for i, bx in enumerate(wg.boxes):
                wgrp.add(
                    self.dwg.rect(
                        (fmt(bx.x + inset), fmt(bx.y + inset)),
                        (fmt(bx.w - 2 * inset), fmt(bx.h - 2 * inset)),
                        rx=0.5,
                        fill=PAPER_WHITE,
                        stroke=INK,
                        stroke_width=self.m.window_stroke,
                        id=f"win-{ln.id}-{i}",
                        **{"class": "window", "data-line": ln.id},
                    )
                )

    def draw_footer(self, extra: str = "") -> None:
        lay = self.lay
        f = lay.footer
        g = self.group("footer", id="footer")
        left = f"{self.city.ruleset.game} · fan-made sheet"
        if self.city.author:
            left += f" · map by {self.city.author}"
        self.text(g, left, f.x, f.bottom - 0.6, 2.2, fill=INK)
        right = f"mapkit {__version__} · {self.city.id}" + (f" · {extra}" if extra else "")
        self.text(g, right, f.right, f.bottom - 0.6, 2.2, anchor="end", fill=INK)
        if self.grayscale:
            self.draw_legend()

    def draw_legend(self) -> None:
        """Which pattern is which line, centred in the footer (black-and-white sheets)."""
        f = self.lay.footer
        n = len(self.city.lines)
        entry = min(19.0, (f.w - 84.0) / max(n, 1))
        sample = entry - 5.0
        x = f.center[0] - entry * n / 2
        y = f.center[1]
        g = self.group("legend", id="legend")
        for ln in self.city.lines:
            eg = self.group("legend-entry", g, **{"data-line": ln.id})
            self.text(eg, ln.id, x + 1.2, y, 2.8, anchor="middle", bold=True, middle=True)
            self.stroke(eg, [(x + 3.0, y), (x + 3.0 + sample, y)], self.styles[ln.id])
            x += entry

    def mark_radius(self) -> dict[str, float]:
        """How far each station's printed mark reaches around its pill (halo, star)."""
        r = self.m.station_r
        ends = {end for ln in self.city.lines for end in ln.termini}
        out = {}
        for st in self.city.stations:
            m = self.m
            extra = m.special_star if st.special else m.terminus_halo if st.id in ends else 0.0
            out[st.id] = r + extra + 0.2
        return out

    def obstacles(self) -> list:
        """Everything printed on the map, as shapely geometries, for label placement."""
        from shapely import LineString, Polygon, box
        from shapely import Point as SPoint

        lay, m = self.lay, self.m
        out: list = []
        for sid, e in self.mark_radius().items():
            a, b = lay.station_mark(sid)
            out.append(LineString([a, b]).buffer(e) if a != b else SPoint(a).buffer(e))
        for pts in lay.drawn_routes.values():
            if len(pts) >= 2:
                out.append(LineString(pts).buffer(m.line_w / 2 + 0.3))
        for wg in lay.wagons.values():
            rr = wg.rect
            out.append(box(rr.x - 0.3, rr.y - 0.3, rr.right + 0.3, rr.bottom + 0.3))
        for pts in self.extra_obstacles:
            out.append(Polygon(pts).buffer(0.3))
        return out

    def draw_labels(self) -> LabelResult:
        res = place_labels(self.city, self.lay, self.obstacles(), self.mark_radius())
        g = self.group("labels", id="labels")
        size = self.m.label_font
        for lb in res.labels:
            t = self.text(
                g,
                lb.lines[0],
                lb.x,
                lb.baseline,
                size,
                anchor=lb.anchor,
                cls="label",
                **{"data-station": lb.station_id, "data-at": lb.at},
            )
            for k, more in enumerate(lb.lines[1:], start=1):
                y = lb.baseline + k * size * LINE_SPACING
                t.add(self.dwg.tspan(clean_text(more), x=[fmt(lb.x)], y=[fmt(y)]))
        return res

    def tostring(self) -> str:
        return self.dwg.tostring()


def sheet_svg(
    city: CityMap,
    *,
    paper: str = "a4",
    grayscale: bool = False,
    labels: bool = False,
    filled: PaperSheet | None = None,
    solo: bool = False,
    background: str = "home",
    crop_marks: bool = True,
) -> RenderResult:
    """Draw one sheet (optionally with a player's marks) and return the SVG text.

    ``solo`` captions the scoring boxes with the solo rules (every completed line
    scores its diamond, empty stations count in full). ``background`` is ``home``
    (white page, the city colour in the title band, panel and frame) or ``full``
    (the city colour to a 3 mm bleed, for a print shop: with crop marks in a slug around
    it, or without, the page ending at the bleed, when ``crop_marks`` is false).
    """
    d = SheetDrawing(
        city, paper, grayscale=grayscale, solo=solo, background=background, crop_marks=crop_marks
    )
    d.draw_background()
    right = None
    if filled is not None:
        right = filled.player + (f" · after round {filled.round}" if filled.round else "")
    d.draw_header(right=right)
    d.draw_lines()
    d.draw_stations()
    d.draw_loop_arrows()
    d.draw_wagons()
    d.draw_branch_tags()
    placed = d.draw_labels() if labels else None
    draw_panel(d)
    draw_scoring(d)
    d.draw_footer("grayscale" if grayscale else "")
    if filled is not None:
        from mapkit.render.pen import draw_pen

        draw_pen(d, filled)
    return RenderResult(d.tostring(), placed, d.lay)


__all__ = [
    "RenderResult",
    "SheetDrawing",
    "blank_svg",
    "pill_path",
    "sheet_finish",
    "sheet_svg",
    "text_width",
]
