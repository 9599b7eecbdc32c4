"""The back of a sheet (a rules summary) and the 14-card deck to cut out.

So a game can be played with nothing but the printout: ``--back`` prints, behind
each sheet, the cards, a round, the scoring (solo or multiplayer) and the solo
rating table; ``--cards`` prints the deck. Counts, values and the rating table
come from the card table (:mod:`mapkit.cards`) and the rules engine
(:mod:`mapkit.engine.scoring`);
only the wording lives here.
"""

from __future__ import annotations

from mapkit.cards import CARD_EXPRESS, CARD_NAMES, CARD_VALUE, DECK, DECK_COUNTS, PLUS
from mapkit.engine.scoring import LOWEST_RATING, RATINGS, solo_band
from mapkit.mapfile.model import CityMap
from mapkit.render.fontmetrics import text_width
from mapkit.render.panel import SCORE_DETAILS, SCORE_OPERATORS, score_titles
from mapkit.render.style import INK, PAPER_WHITE, fmt
from mapkit.render.svg import SheetDrawing
from mapkit.sheet import PAPERS, Rect

BODY = 3.5
LEAD = 1.35  # line height, in font sizes


def card_face(kind: int) -> str:
    """What a card shows: its value, ``×2`` for an express card, ``+`` or ``★`` (free ride)."""
    if kind == PLUS:
        return "+"
    if CARD_NAMES[kind] == "free":
        return "★"
    return ("×" if CARD_EXPRESS[kind] else "") + str(CARD_VALUE[kind])


def card_rule(kind: int) -> str:
    """One sentence per card kind: what a player does with it."""
    if kind == PLUS:
        return (
            "Interchange: write + in a window; the first empty stop from the wagon gets "
            "the number of lines stopping there, in a box."
        )
    if CARD_NAMES[kind] == "free":
        return "Free ride: cross any one empty station anywhere, or none. No window."
    v = CARD_VALUE[kind]
    if CARD_EXPRESS[kind]:
        return (
            f"Express: write {v}; up to {v} crosses from the first empty stop, skipping "
            "stops already marked."
        )
    tail = " Then all 14 cards are shuffled again." if v == 6 else ""
    return (
        f"Write {v} in a window; up to {v} crosses from the first empty stop on, "
        f"stopping at a marked one.{tail}"
    )


ROUND = (
    "Each round one card is revealed; every player uses it on a line of their choice.",
    "Choose a line with an empty window and write the card in it; cross stations from the "
    "wagon outward.",
    "A loop line (two arrows) may be crossed in either direction each time.",
    "The first to complete a line circles its diamond; everyone else strikes it and may still "
    "earn the square. Lines completed in the same round all score the diamond.",
    "The game ends when every window is filled.",
)


def _wrap(text: str, width: float, size: float) -> list[str]:
    lines, cur = [], ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        if cur and text_width(trial, size) > width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    return [*lines, cur] if cur else lines


class _Page:
    """A text page in the sheet's style, written column by column."""

    def __init__(self, d: SheetDrawing) -> None:
        self.d = d
        self.g = d.group("back", id="back")

    def block(self, col: Rect, y: float, title: str) -> float:
        self.d.text(self.g, title, col.x, y + 4.2, 4.2, bold=True, cls="back-title")
        return y + 8.0

    def para(
        self, col: Rect, y: float, text: str, size: float = BODY, indent: float = 0.0
    ) -> float:
        for line in _wrap(text, col.w - indent, size):
            y += size * LEAD
            self.d.text(self.g, line, col.x + indent, y, size, cls="back-text")
        return y + size * 0.5


def back_svg(
    city: CityMap, *, paper: str = "a4", grayscale: bool = False, solo: bool = False
) -> str:
    """The rules summary printed behind a sheet of ``city``."""
    d = SheetDrawing(city, paper, grayscale=grayscale, solo=solo)
    d.draw_background(panel=False)
    d.draw_header(title=f"{city.name}: how to play")
    lay = d.lay
    area = Rect(lay.printable.x, lay.header.bottom + 2.0, lay.printable.w, 0.0)
    gap = 8.0
    w = (area.w - 2 * gap) / 3
    cols = [Rect(area.x + i * (w + gap), area.y, w, 0.0) for i in range(3)]
    page = _Page(d)

    col = cols[0]
    y = page.block(col, col.y, f"The {len(DECK)} cards")
    for kind, count in enumerate(DECK_COUNTS):
        face = card_face(kind)
        page.d.text(page.g, f"{count}×", col.x, y + 4.0, 3.2, cls="back-count")
        page.d.text(page.g, face, col.x + 13.0, y + 4.2, 5.0, bold=True, anchor="middle")
        y = page.para(col, y - 1.0, card_rule(kind), size=3.1, indent=19.0) + 1.6

    col = cols[1]
    y = page.block(col, col.y, "A round")
    steps = list(ROUND)
    if city.special_stations:
        steps.insert(
            -1,
            "Variant with special stations (stars): marking one gives an extra action with "
            "the same card in another empty window.",
        )
    for step in steps:
        y = page.para(col, y, "• " + step)
    y = page.block(col, y + 3.0, "Scoring")
    for box, caption in score_titles(solo).items():
        detail = f": {SCORE_DETAILS[box]}" if box in SCORE_DETAILS else ""
        y = page.para(col, y, f"{SCORE_OPERATORS[box]} {caption}{detail}".strip())
    y = page.para(col, y, "Most points wins; a tie goes to fewer empty stations.", size=3.1)

    col = cols[2]
    y = page.block(col, col.y, "Solo rating")
    bounds = [lo for lo, _ in RATINGS]
    for lo, text in RATINGS:
        page.d.text(page.g, solo_band(lo), col.x, y + BODY * LEAD, BODY, bold=True)
        y = page.para(col, y, text, indent=14.0)
    page.d.text(page.g, solo_band(min(bounds) - 1), col.x, y + BODY * LEAD, BODY, bold=True)
    page.para(col, y, LOWEST_RATING, indent=14.0)
    d.draw_footer("rules")
    return d.tostring()


def cards_svg(paper: str = "a4") -> str:
    """The 14 cards on one page, with dashed cut lines, to play without the box."""
    import svgwrite

    w, h = PAPERS[paper]
    dwg = svgwrite.Drawing(size=(f"{fmt(w)}mm", f"{fmt(h)}mm"), profile="full", debug=False)
    dwg["viewBox"] = f"0 0 {fmt(w)} {fmt(h)}"
    root = dwg.g(font_family="DejaVu Sans", id="cards", **{"class": "cards"})
    dwg.add(root)
    root.add(dwg.rect((0, 0), (fmt(w), fmt(h)), fill=PAPER_WHITE))
    margin, cols, rows = 8.0, 5, 3
    cw, ch = (w - 2 * margin) / cols, (h - 2 * margin) / rows
    for i, kind in enumerate(DECK):
        x, y = margin + (i % cols) * cw, margin + (i // cols) * ch
        g = dwg.g(**{"class": "card", "data-card": CARD_NAMES[kind]})
        root.add(g)
        g.add(
            dwg.rect(
                (fmt(x), fmt(y)),
                (fmt(cw), fmt(ch)),
                fill="none",
                stroke=INK,
                stroke_width=0.25,
                stroke_dasharray="2 1.5",
                **{"class": "cut-line"},
            )
        )
        g.add(
            dwg.rect(
                (fmt(x + 4), fmt(y + 4)),
                (fmt(cw - 8), fmt(ch - 8)),
                rx=3,
                fill=PAPER_WHITE,
                stroke=INK,
                stroke_width=0.6,
            )
        )
        face = card_face(kind)
        g.add(
            dwg.text(
                face,
                insert=(fmt(x + cw / 2), fmt(y + ch / 2 + 8.0)),
                font_size=22,
                font_weight="bold",
                text_anchor="middle",
                fill=INK,
                **{"class": "card-face"},
            )
        )
        label = {"+": "interchange", "★": "free ride", "6": "then shuffle all 14"}.get(
            face, "express" if "×" in face else ""
        )
        if label:
            g.add(
                dwg.text(
                    label,
                    insert=(fmt(x + cw / 2), fmt(y + ch - 10.0)),
                    font_size=4,
                    text_anchor="middle",
                    fill=INK,
                )
            )
    return dwg.tostring()
