"""The right-hand panel of a sheet: bonus rows per line and the end-game scoring boxes.

Drawn into a :class:`mapkit.render.svg.SheetDrawing` from ``sheet.layout``'s panel
rectangles (classes ``panel-row``, ``diamond``, ``square``, ``score-box``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mapkit.render.style import INK, PAPER_WHITE, fmt, fmt_points, text_on
from mapkit.rulesets import VOLL_VERPLANT, Ruleset
from mapkit.sheet import ALL_LINES_ROW

if TYPE_CHECKING:
    from mapkit.render.svg import SheetDrawing

SCORE_TITLES = {
    "lines": "completed lines",
    "interchanges": "interchanges ×2",
    "empty": "empty stations ÷2, round down",
    "total": "total",
}
# Solo (rulebook, "Solo game"): every completed line scores its diamond, and the
# empty stations are not halved.
SOLO_SCORE_TITLES = {
    **SCORE_TITLES,
    "lines": "completed lines (all ◇)",
    "empty": "empty stations (not halved)",
}
SCORE_OPERATORS = {"lines": "", "interchanges": "+", "empty": "−", "total": "="}
SCORE_DETAILS = {"interchanges": "the sum of your boxed interchange numbers"}
"""What the back's rules summary adds to a score box's caption."""


def score_titles(solo: bool, ruleset: Ruleset = VOLL_VERPLANT) -> dict[str, str]:
    """The caption of each score box: the sheet's boxes and the back's summary say the same.
    An edition that writes interchanges doubled adds them as written; a penalty table is
    named here and printed in full on the back (:func:`score_details`)."""
    titles = dict(SOLO_SCORE_TITLES if solo else SCORE_TITLES)
    if ruleset.interchange == "written-twice":
        titles["interchanges"] = "interchanges (as written)"
    if ruleset.penalty.kind == "table":
        titles["empty"] = "empty stations (table)"
    elif solo and ruleset.penalty.solo_halved:
        titles["empty"] = SCORE_TITLES["empty"]
    return titles


def score_details(solo: bool, ruleset: Ruleset = VOLL_VERPLANT) -> dict[str, str]:
    """What the back's rules summary adds to each score box's caption."""
    details = dict(SCORE_DETAILS)
    if ruleset.penalty.kind == "table":
        details["empty"] = ruleset.penalty.describe(solo)
    return details


@dataclass(frozen=True)
class _Row:
    """What a bonus row shows: a line's, or the all-lines bonus's (``all``)."""

    id: str
    color: str
    first: int
    others: int


def draw_panel(d: SheetDrawing) -> None:
    """The bonus panel: per line its letter, the first finisher's diamond, the others' square."""
    lay = d.lay
    g = d.group("panel", id="panel")
    for row in lay.panel_rows:
        if row.line_id == ALL_LINES_ROW:
            bonus = d.city.all_lines
            assert bonus is not None
            ln = _Row("all", INK, bonus.first, bonus.others)
        else:  # a line, or a branch of a branching line (``C1``, ``C2``)
            unit = next(u for u in d.city.units if u.label == row.line_id)
            color = d.city.lines[unit.line].color
            ln = _Row(unit.label, color, unit.first, unit.others)
        rg = d.group("panel-row", g, id=f"row-{ln.id}")
        cy = row.letter[1]
        rad = min(row.rect.h * 0.36, 3.8)
        fill = PAPER_WHITE if d.grayscale else ln.color
        rg.add(
            d.dwg.circle(
                (fmt(row.letter[0]), fmt(cy)), fmt(rad), fill=fill, stroke=INK, stroke_width=0.3
            )
        )
        d.text(
            rg,
            ln.id,
            row.letter[0],
            cy,
            rad * (1.1 if len(ln.id) == 1 else 0.7),
            anchor="middle",
            bold=True,
            fill=text_on(fill),
            middle=True,
        )
        dx, dy = row.diamond
        h = row.diamond_size / 2
        rg.add(
            d.dwg.polygon(
                fmt_points([(dx, dy - h), (dx + h, dy), (dx, dy + h), (dx - h, dy)]),
                fill=PAPER_WHITE,
                stroke=INK,
                stroke_width=0.45,
                stroke_linejoin="round",
                id=f"diamond-{ln.id}",
                **{"class": "diamond"},
            )
        )
        d.text(rg, str(ln.first), dx, dy, h * 0.95, anchor="middle", bold=True, middle=True)
        sq = row.square
        rg.add(
            d.dwg.rect(
                (fmt(sq.x), fmt(sq.y)),
                (fmt(sq.w), fmt(sq.h)),
                fill=PAPER_WHITE,
                stroke=INK,
                stroke_width=0.35,
                id=f"square-{ln.id}",
                **{"class": "square"},
            )
        )
        d.text(rg, str(ln.others), *sq.center, sq.h * 0.5, anchor="middle", middle=True)


def draw_scoring(d: SheetDrawing) -> None:
    """The four end-game boxes, each with its title, operator and a small picture."""
    lay = d.lay
    g = d.group("scoring", id="scoring", **{"data-game": "solo" if d.solo else "multiplayer"})
    titles = score_titles(d.solo, d.city.ruleset)
    px = lay.panel.x
    for name, bx in lay.score_boxes.items():
        d.text(
            g,
            titles[name],
            bx.right,
            bx.y - 0.9,
            2.3,
            anchor="end",
            cls="score-title",
        )
        g.add(
            d.dwg.rect(
                (fmt(bx.x), fmt(bx.y)),
                (fmt(bx.w), fmt(bx.h)),
                rx=0.8,
                fill=PAPER_WHITE,
                stroke=INK,
                stroke_width=0.6 if name == "total" else 0.4,
                id=f"score-{name}",
                **{"class": "score-box"},
            )
        )
        op = SCORE_OPERATORS[name]
        if op:
            d.text(
                g, op, bx.x - 3.2, bx.center[1], 6.0, anchor="middle", bold=True, middle=True,
                cls="score-op",
            )  # fmt: skip
        _score_icon(d, g, name, px + 6.0, bx.center[1])


def _score_icon(d: SheetDrawing, g, name: str, x: float, y: float) -> None:
    """Small pictures that say what each scoring box counts, without words."""
    s = 2.6
    ink = {"stroke": INK, "stroke_width": 0.35, "fill": PAPER_WHITE}
    if name == "lines":
        g.add(d.dwg.polygon(fmt_points([(x, y - s), (x + s, y), (x, y + s), (x - s, y)]), **ink))
        d.text(g, "✓", x, y, 2.8, anchor="middle", bold=True, middle=True)
    elif name == "interchanges":
        g.add(d.dwg.rect((fmt(x - s), fmt(y - s)), (fmt(2 * s), fmt(2 * s)), **ink))
        d.text(g, "3", x, y, 3.0, anchor="middle", middle=True)
    elif name == "empty":
        g.add(d.dwg.circle((fmt(x), fmt(y)), fmt(s), **ink))
    else:
        d.text(g, "Σ", x, y, 5.0, anchor="middle", bold=True, middle=True)
