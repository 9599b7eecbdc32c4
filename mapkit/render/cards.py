"""The card deck as sheets to print double-sided and cut: fronts, and backs behind them.

Each card is drawn to its trim plus a bleed (its border colour runs 3 mm past the cut),
cards sit two bleeds apart on a centred grid (``sheet.card_grid``), and cut marks in
the front's margin carry every card edge to the guillotine. The back page puts each card's
back where the front lies when the sheet is turned over (``sheet.behind``), so a
duplex print lands every back behind its card. The card kinds and values are the card
table's (:mod:`mapkit.cards`), the deck, its counts and names the ruleset's
(:mod:`mapkit.rulesets`); only the wording lives here.
"""

from __future__ import annotations

from mapkit.cards import CARD_EXPRESS, CARD_NAMES, CARD_VALUE, PLUS
from mapkit.render.fontmetrics import FONT_FAMILY, text_width
from mapkit.render.style import INK, PAPER_WHITE, fmt, fmt_points
from mapkit.rulesets import VOLL_VERPLANT, Ruleset
from mapkit.sheet import METRICS, CardGrid, Rect, behind, card_grid, page_boxes

FREE_FACE = "⊗"
"""The free ride's symbol: a crossed station (the map's special stations are stars)."""

CARD_BACK = "#1f4e8c"
BORDER = {"number": "#1f4e8c", "express": "#b3261e", "plus": "#1b7a3d", "free": "#6b3fa0"}


# Space kept between the rule text and the upside-down corner index (mm).
RULE_CLEARANCE = 1.0


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
    if dict(ruleset.labels).get(kind):
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


def _document(paper: str, cls: str):
    from mapkit.render.svg import page_document

    trim = page_boxes(paper).trim
    dwg = page_document(page_boxes(paper))
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


def _front(dwg, root, kind: int, cell: Rect, bleed: float, ruleset: Ruleset) -> None:
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
    inset = METRICS.margin - 1.0
    inner = Rect(cell.x + inset, cell.y + inset, cell.w - 2 * inset, cell.h - 2 * inset)
    g.add(
        dwg.rect(
            (fmt(inner.x), fmt(inner.y)), (fmt(inner.w), fmt(inner.h)), rx=2.5, fill=PAPER_WHITE
        )
    )
    face = card_face(kind)
    big = min(inner.w * 0.42, inner.h * 0.3)
    cx = inner.center[0]
    _text(dwg, g, face, cx, inner.y + inner.h * 0.42, big, bold=True, **{"class": "card-face"})
    corner = big * 0.32
    _text(dwg, g, face, inner.x + corner * 0.9, inner.y + corner * 1.15, corner, bold=True)
    index_x, index_y = inner.right - corner * 0.9, inner.bottom - corner * 1.15
    _text(
        dwg, g, face, index_x, index_y, corner, bold=True,
        transform=f"rotate(180 {fmt(index_x)} {fmt(index_y - corner * 0.36)})",
        **{"class": "card-index"},
    )  # fmt: skip
    title = card_title(kind, ruleset)
    _text(dwg, g, title, cx, inner.y + inner.h * 0.56, 4.0, bold=True, fill=colour)
    rule = card_rule(kind, ruleset).split(": ", 1)[-1]
    size = 2.6
    # the upside-down index reaches up to its glyph's full height above the card's bottom
    # corner; the rule text, centred, keeps its lines this clear of the index on both sides
    index_left = index_x - text_width(face, corner, bold=True) / 2 - RULE_CLEARANCE
    index_top = index_y - corner * 0.72 - RULE_CLEARANCE
    top = inner.y + inner.h * 0.66
    lines = wrap(rule, inner.w - 6.0, size)
    if top + len(lines) * size * 1.3 + size * 0.25 > index_top:
        lines = wrap(rule, 2 * (index_left - cx), size)
    y = top
    for line in lines:
        y += size * 1.3
        _text(dwg, g, line, cx, y, size, **{"class": "card-rule"})


def _back(dwg, root, cell: Rect, bleed: float) -> None:
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
            dwg, g, "Voll verplant", cx, y + 1.3, 3.6, bold=True, fill=PAPER_WHITE,
            transform=f"rotate({rot} {fmt(cx)} {fmt(y)})",
        )  # fmt: skip


def card_sheets(
    paper: str = "a4", size: tuple[float, float] = (63.0, 88.0), ruleset: Ruleset = VOLL_VERPLANT
) -> tuple[list[str], list[str]]:
    """The deck of ``ruleset`` on as many pages as it needs: (fronts, backs), one back page
    per front page.

    Backs are drawn upright as read, each behind its front; turning a back page for a
    printer that flips on the long edge is the PDF export's job.
    """
    grid = card_grid(paper, size)
    bleed = grid.bleed
    fronts, backs = [], []
    deck = ruleset.deck
    for start in range(0, len(deck), grid.per_page):
        kinds = deck[start : start + grid.per_page]
        dwg, root = _document(paper, "cards")
        bdwg, broot = _document(paper, "card-backs")
        for kind, cell in zip(kinds, grid.cells, strict=False):
            _front(dwg, root, kind, cell, bleed, ruleset)
            _back(bdwg, broot, behind(cell, grid.width), bleed)
        _cut_marks(dwg, root, grid)
        fronts.append(dwg.tostring())
        backs.append(bdwg.tostring())
    return fronts, backs
