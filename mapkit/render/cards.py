"""The card deck as sheets to print double-sided and cut: fronts, and backs behind them.

Each card is drawn to its trim plus a bleed (its border colour runs 3 mm past the cut),
cards sit two bleeds apart on a centred grid (``sheet.card_grid``), and cut marks in
the front's margin carry every card edge to the guillotine. The back page puts each card's
back where the front lies when the sheet is turned over (``sheet.behind``), so a
duplex print lands every back behind its card. The deck, its counts and values are
the card table's (:mod:`mapkit.cards`); only the wording lives here.
"""

from __future__ import annotations

from mapkit.cards import CARD_EXPRESS, CARD_NAMES, CARD_VALUE, PLUS
from mapkit.render.fontmetrics import FONT_FAMILY, text_width
from mapkit.render.style import INK, PAPER_WHITE, fmt, fmt_points
from mapkit.rulesets import RULESETS, VOLL_VERPLANT, Ruleset
from mapkit.sheet import METRICS, CardGrid, Rect, behind, card_grid, page_boxes

FREE_FACE = "⊗"
"""The free ride's symbol: a crossed station (the map's special stations are stars)."""

CARD_BACK = "#1f4e8c"
BORDER = {"number": "#1f4e8c", "express": "#b3261e", "plus": "#1b7a3d", "free": "#6b3fa0"}


RULE_CLEARANCE = 1.0
"""Space kept between the rule text and the upside-down corner index (mm)."""
INDEX_INSET = 0.5
"""The corner index's glyphs start this far (in its font sizes) from the white frame's edges."""
DIGIT_HEIGHT = 0.73
"""DejaVu Sans Bold digits and capitals, above the baseline, in font sizes."""
DESCENT = 0.25
"""Room kept below a text's baseline, in font sizes."""
TITLE_SIZE = 4.0
"""The card's name under its face (mm), smaller only where a narrow card needs it."""
RULE_SIZES = tuple(round(2.6 - 0.1 * i, 1) for i in range(11))
"""Font sizes (mm) tried for the rule text, largest first: 2.6 mm (7.4 pt) to 1.6 mm (4.5 pt)."""
RULE_TOP = 0.66
"""Where the rule text starts, as a share of the white frame's height."""
LINE_HEIGHT = 1.3
"""Rule lines apart, in font sizes."""
UNDERLINED = frozenset({"6", "9"})
"""Faces underlined, as on playing cards, so a 6 turned upside down is not read as 9."""


def card_kind_name(kind: int) -> str:
    """``number``, ``express``, ``plus`` or ``free``: what family a card kind belongs to."""
    if kind == PLUS:
        return "plus"
    if CARD_NAMES[kind] == "free":
        return "free"
    return "express" if CARD_EXPRESS[kind] else "number"


def card_face(kind: int) -> str:
    """What a card shows: its value, ``×2`` for an express card, ``+`` or the free ride."""
    family = card_kind_name(kind)
    if family == "plus":
        return "+"
    if family == "free":
        return FREE_FACE
    return ("×" if family == "express" else "") + str(CARD_VALUE[kind])


def card_title(kind: int, ruleset: Ruleset = VOLL_VERPLANT) -> str:
    """The card's name, printed under its face (the edition's own where it has one)."""
    if ruleset.label(kind) != CARD_NAMES[kind]:
        return ruleset.label(kind)
    family = card_kind_name(kind)
    if family == "plus":
        return "Interchange"
    if family == "free":
        return "Free ride"
    if family == "express":
        return "Express"
    return "Reshuffle after" if kind == ruleset.reshuffle else "Move"


def card_rule(kind: int, ruleset: Ruleset = VOLL_VERPLANT) -> str:
    """One sentence per card kind: what a player does with it."""
    family = card_kind_name(kind)
    if family == "plus":
        number = "twice the number" if ruleset.interchange == "written-twice" else "the number"
        return (
            "Interchange: write + in a window; the first empty stop from the wagon gets "
            f"{number} of lines stopping there, in a box."
        )
    if family == "free":
        return "Free ride: cross any one empty station anywhere, or none. No window."
    v = CARD_VALUE[kind]
    if family == "express":
        return (
            f"Express: write {v}; up to {v} crosses from the first empty stop, skipping "
            "stops already marked."
        )
    tail = (
        f" Then all {ruleset.deck_size} cards are shuffled again."
        if kind == ruleset.reshuffle
        else ""
    )
    return (
        f"Write {v} in a window; up to {v} crosses from the first empty stop on, "
        f"stopping at a marked one.{tail}"
    )


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Words in lines no wider than ``width`` mm at ``size`` (DejaVu Sans advances)."""
    lines, cur = [], ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        if cur and text_width(trial, size, bold=bold) > width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    return [*lines, cur] if cur else lines


def _document(paper: str, cls: str, finish: str):
    from mapkit.render.svg import finished_page

    trim = page_boxes(paper).trim
    dwg = finished_page(paper, finish)
    root = dwg.g(font_family=FONT_FAMILY, id=cls, **{"class": cls})
    dwg.add(root)
    root.add(dwg.rect((0, 0), (fmt(trim.w), fmt(trim.h)), fill=PAPER_WHITE))
    return dwg, root


def _cut_marks(dwg, root, grid: CardGrid) -> None:
    """A mark in the margin on every card edge, outside the grid and its bleed."""
    g = dwg.g(**{"class": "cut-marks"})
    root.add(g)
    box = grid.grid
    gap = 0.5
    top, bottom = box.y - gap, box.bottom + gap
    left, right = box.x - gap, box.right + gap
    length = METRICS.card_cut_mark
    xs = sorted({round(v, 3) for c in grid.cells for v in (c.x, c.right)})
    ys = sorted({round(v, 3) for c in grid.cells for v in (c.y, c.bottom)})
    kw = {"stroke": INK, "stroke_width": 0.25, "class": "cut-line"}
    for x in xs:
        g.add(dwg.line((fmt(x), fmt(top)), (fmt(x), fmt(top - length)), **kw))
        g.add(dwg.line((fmt(x), fmt(bottom)), (fmt(x), fmt(bottom + length)), **kw))
    for y in ys:
        g.add(dwg.line((fmt(left), fmt(y)), (fmt(left - length), fmt(y)), **kw))
        g.add(dwg.line((fmt(right), fmt(y)), (fmt(right + length), fmt(y)), **kw))


def _text(dwg, parent, s: str, x: float, y: float, size: float, **kw) -> None:
    attrs = {"font_size": fmt(size), "fill": kw.pop("fill", INK), "text_anchor": "middle"}
    if kw.pop("bold", False):
        attrs["font_weight"] = "bold"
    attrs.update(kw)
    parent.add(dwg.text(s, insert=(fmt(x), fmt(y)), **attrs))


def _index(dwg, parent, face: str, inner: Rect, size: float) -> None:
    """The corner index: top left, and the same turned by 180° about the card's centre into
    the bottom-right corner, so a card held either way up reads at its top left. A 6 (or
    9) is underlined, as on playing cards, so the turned one is not read as a 9."""
    width = text_width(face, size, bold=True)
    left = inner.x + INDEX_INSET * size
    baseline = inner.y + (INDEX_INSET + DIGIT_HEIGHT) * size
    cx, cy = inner.center
    for cls, turn in (("card-corner", {}), ("card-index", {"transform": _turn(cx, cy)})):
        _text(
            dwg, parent, face, left + width / 2, baseline, size, bold=True,
            **{"class": cls}, **turn,
        )  # fmt: skip
        _underline(dwg, parent, face, left, baseline, width, size, **turn)


def _turn(x: float, y: float) -> str:
    return f"rotate(180 {fmt(x)} {fmt(y)})"


def _underline(
    dwg, parent, face: str, left: float, baseline: float, width: float, size: float, **kw
) -> None:
    if face not in UNDERLINED:
        return
    parent.add(
        dwg.rect(
            (fmt(left), fmt(baseline + 0.08 * size)),
            (fmt(width), fmt(0.08 * size)),
            fill=INK,
            **{"class": "card-underline"},
            **kw,
        )
    )


def _front(
    dwg, root, kind: int, cell: Rect, bleed: float, rule_size: float, ruleset: Ruleset
) -> None:
    g = dwg.g(**{"class": "card", "data-card": CARD_NAMES[kind]})
    root.add(g)
    colour = BORDER[card_kind_name(kind)]
    g.add(
        dwg.rect(
            (fmt(cell.x - bleed), fmt(cell.y - bleed)),
            (fmt(cell.w + 2 * bleed), fmt(cell.h + 2 * bleed)),
            fill=colour,
            **{"class": "card-bleed"},
        )
    )
    inner = _inner(cell)
    g.add(
        dwg.rect(
            (fmt(inner.x), fmt(inner.y)), (fmt(inner.w), fmt(inner.h)), rx=2.5, fill=PAPER_WHITE
        )
    )
    face = card_face(kind)
    big = _face_size(inner)
    cx = inner.center[0]
    face_y = inner.y + inner.h * 0.42
    _text(dwg, g, face, cx, face_y, big, bold=True, **{"class": "card-face"})
    face_w = text_width(face, big, bold=True)
    _underline(dwg, g, face, cx - face_w / 2, face_y, face_w, big)
    _index(dwg, g, face, inner, _corner_size(inner))
    title = card_title(kind, ruleset)
    title_size = min(TITLE_SIZE, TITLE_SIZE * (inner.w - 2.0) / text_width(title, TITLE_SIZE, True))
    _text(dwg, g, title, cx, inner.y + inner.h * 0.56, title_size, bold=True, fill=colour)
    y = inner.y + inner.h * RULE_TOP
    lines = _rule_lines(kind, inner, face, rule_size, ruleset)
    assert lines is not None  # rule_size chose a size at which every rule fits
    for line in lines:
        y += rule_size * LINE_HEIGHT
        _text(dwg, g, line, cx, y, rule_size, **{"class": "card-rule"})


def _rule_lines(
    kind: int, inner: Rect, face: str, size: float, ruleset: Ruleset
) -> list[str] | None:
    """The card's rule in lines at ``size``, clear of the turned corner index: across the
    card while they end above it, else narrower, centred, to end 1 mm before it; None when
    they would not end above the white frame's bottom edge."""
    rule = card_rule(kind, ruleset).split(": ", 1)[-1]
    rule = rule[0].upper() + rule[1:]
    corner = _corner_size(inner)
    # the turned index fills the bottom-right corner up to its glyphs' full height (and the
    # depth below a baseline, turned above it)
    index_left = (
        inner.right - INDEX_INSET * corner - text_width(face, corner, bold=True) - RULE_CLEARANCE
    )
    index_top = inner.bottom - (INDEX_INSET + DIGIT_HEIGHT + DESCENT) * corner - RULE_CLEARANCE
    top = inner.y + inner.h * RULE_TOP

    def bottom(lines: list[str]) -> float:
        return top + len(lines) * size * LINE_HEIGHT + size * DESCENT

    lines = wrap(rule, inner.w - 6.0, size)
    if bottom(lines) <= index_top:
        return lines
    lines = wrap(rule, 2 * (index_left - inner.center[0]), size)
    return lines if bottom(lines) <= inner.bottom - RULE_CLEARANCE else None


def _face_size(inner: Rect) -> float:
    return min(inner.w * 0.42, inner.h * 0.3)


def _corner_size(inner: Rect) -> float:
    return _face_size(inner) * 0.32


def _inner(cell: Rect) -> Rect:
    """The white frame inside a card's coloured border."""
    inset = METRICS.margin - 1.0
    return Rect(cell.x + inset, cell.y + inset, cell.w - 2 * inset, cell.h - 2 * inset)


def rule_size(size: tuple[float, float], rulesets: tuple[Ruleset, ...] | None = None) -> float:
    """The rule text's font size (mm) on cards of ``size``: the largest of
    :data:`RULE_SIZES` at which every card's rule fits (of every ruleset's deck, or of
    ``rulesets``'), one size for the whole deck. ValueError for a card too small to hold them."""
    inner = _inner(Rect(0.0, 0.0, *size))
    decks = [(r, k) for r in (rulesets or tuple(RULESETS.values())) for k in r.kinds]
    for s in RULE_SIZES:
        if all(_rule_lines(k, inner, card_face(k), s, r) is not None for r, k in decks):
            return s
    raise ValueError(
        f"a {size[0]:g} x {size[1]:g} mm card is too small for the card rules"
        f" at {RULE_SIZES[-1]:g} mm text"
    )


def _back(dwg, root, cell: Rect, bleed: float, game: str) -> None:
    """The same on every card, and the same turned by 180°: no back gives a card away."""
    g = dwg.g(**{"class": "card-back"})
    root.add(g)
    g.add(
        dwg.rect(
            (fmt(cell.x - bleed), fmt(cell.y - bleed)),
            (fmt(cell.w + 2 * bleed), fmt(cell.h + 2 * bleed)),
            fill=CARD_BACK,
        )
    )
    inset = METRICS.margin - 1.0
    g.add(
        dwg.rect(
            (fmt(cell.x + inset), fmt(cell.y + inset)),
            (fmt(cell.w - 2 * inset), fmt(cell.h - 2 * inset)),
            rx=2.5,
            fill="none",
            stroke=PAPER_WHITE,
            stroke_width=0.6,
        )
    )
    cx, cy = cell.center
    r = min(cell.w, cell.h) * 0.3
    g.add(
        dwg.polygon(
            fmt_points([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]),
            fill="none",
            stroke=PAPER_WHITE,
            stroke_width=1.5,
        )
    )
    g.add(dwg.circle((fmt(cx), fmt(cy)), fmt(r * 0.35), fill=PAPER_WHITE))
    for dy, rot in ((-1, 0), (1, 180)):
        y = cy + dy * (cell.h / 2 - inset - 5.5)
        _text(
            dwg, g, game, cx, y + 1.3, 3.6, bold=True, fill=PAPER_WHITE,
            transform=f"rotate({rot} {fmt(cx)} {fmt(y)})",
        )  # fmt: skip


def card_sheets(
    paper: str = "a4",
    size: tuple[float, float] = (63.0, 88.0),
    finish: str = "trim",
    ruleset: Ruleset = VOLL_VERPLANT,
) -> tuple[list[str], list[str]]:
    """The deck of ``ruleset`` on as many pages as it needs: (fronts, backs), one back page
    per front page.

    Backs are drawn upright as read, each behind its front; turning a back page for a
    printer that flips on the long edge is the PDF export's job. ``finish`` (one of
    ``sheet.FINISHES``) gives the pages the boxes and crop marks of the sheets they are
    printed with: a print shop takes a PDF whose pages are all of one size.
    """
    grid = card_grid(paper, size)
    bleed = grid.bleed
    text = rule_size(size, (ruleset,))
    deck = ruleset.deck
    fronts, backs = [], []
    for start in range(0, len(deck), grid.per_page):
        kinds = deck[start : start + grid.per_page]
        dwg, root = _document(paper, "cards", finish)
        bdwg, broot = _document(paper, "card-backs", finish)
        for kind, cell in zip(kinds, grid.cells, strict=False):
            _front(dwg, root, kind, cell, bleed, text, ruleset)
            _back(bdwg, broot, behind(cell, grid.width), bleed, ruleset.game)
        _cut_marks(dwg, root, grid)
        fronts.append(dwg.tostring())
        backs.append(bdwg.tostring())
    return fronts, backs
