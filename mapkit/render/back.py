"""The back of a sheet: the rules a player needs at the table, for this city only.

So a game can be played with nothing but the printout, ``--back`` prints behind each
sheet the cards, a round, the symbols of the sheet, the scoring (solo or multiplayer)
and the solo rating table. It follows the map: the loop rule only where a line loops,
the special-station rule only where there are special stations, each symbol drawn as
the sheet draws it. The text is set as large as the page allows (the tallest of the
three columns fills the page). Counts, values and the rating table come from the card
and rating tables (:mod:`mapkit.rulesets`, :mod:`mapkit.rating`): the map's ruleset says
which deck, interchange and penalty the back explains.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mapkit.mapfile.model import CityMap
from mapkit.rating import LOWEST_RATING, RATINGS, solo_band
from mapkit.render.cards import card_face, card_rule, wrap
from mapkit.render.panel import SCORE_OPERATORS, score_details, score_titles
from mapkit.render.style import INK, PAPER_WHITE, SPECIAL_FILL, fmt, fmt_points
from mapkit.render.svg import SheetDrawing, pill_path, star_points
from mapkit.sheet import Rect

LEAD = 1.35  # line height, in font sizes
# The symbol column, in font sizes (the symbols scale with the text): symbols reach from
# 0.3 to at most 5.0 sizes right of the column's edge, the text starts at 5.6.
ICON_EM = 5.6
ICON_CENTRE_EM = 2.6
MIN_SIZE, MAX_SIZE = 2.8, 5.2


@dataclass(frozen=True)
class Item:
    """A paragraph, optionally with a symbol drawn left of it (``icon(x, y, size)``)."""

    text: str
    icon: Callable[[float, float, float], None] | None = None


@dataclass(frozen=True)
class Block:
    title: str
    items: tuple[Item, ...]


def round_steps() -> list[str]:
    """A round, in the rules every city shares (loops and special stations are added)."""
    return [
        "Each round one card is revealed; every player uses it on a line of their choice.",
        "Choose a line with an empty window and write the card in it; cross stations from "
        "the wagon outward.",
        "The first to complete a line circles its diamond; everyone else strikes it and may "
        "still earn the square. Lines completed in the same round all score the diamond.",
        "The game ends when every window is filled.",
    ]


class _Back:
    def __init__(self, d: SheetDrawing) -> None:
        self.d = d
        self.g = d.group("back", id="back")
        self.m = d.m

    # -- symbols, drawn as the sheet draws them -------------------------------------------
    def station(self, x: float, y: float, s: float, *, ring: float, halo: str | None = None):
        r = s * 0.9
        if halo:
            self.g.add(
                self.d.dwg.path(
                    pill_path((x, y), (x, y), r + s * 0.35),
                    fill=halo,
                    stroke=INK,
                    stroke_width=self.m.halo_stroke,
                )
            )
        self.g.add(
            self.d.dwg.circle(
                (fmt(x), fmt(y)), fmt(r), fill=PAPER_WHITE, stroke=INK, stroke_width=ring
            )
        )

    def star(self, x: float, y: float, s: float) -> None:
        self.g.add(
            self.d.dwg.polygon(
                fmt_points(star_points((x, y), s * 1.5, s * 1.05)),
                fill=PAPER_WHITE if self.d.grayscale else SPECIAL_FILL,
                stroke=INK,
                stroke_width=self.m.star_stroke,
                stroke_linejoin="round",
                **{"class": "back-symbol", "data-symbol": "special"},
            )
        )
        self.station(x, y, s, ring=self.m.station_stroke)

    def loop_arrows(self, x: float, y: float, s: float) -> None:
        self.station(x, y, s * 0.8, ring=self.m.station_stroke)
        for sign in (-1, 1):
            tip = x + sign * s * 2.3
            base = tip - sign * s * 0.9
            self.g.add(
                self.d.dwg.polygon(
                    fmt_points([(tip, y), (base, y - s * 0.5), (base, y + s * 0.5)]),
                    fill=PAPER_WHITE,
                    stroke=INK,
                    stroke_width=self.m.loop_arrow_stroke,
                    stroke_linejoin="round",
                    **{"class": "back-symbol", "data-symbol": "loop"},
                )
            )

    def face(self, kind: int) -> Callable[[float, float, float], None]:
        def draw(x: float, y: float, s: float) -> None:
            count = self.d.city.ruleset.counts[kind]
            self.d.text(self.g, f"{count}×", x - s * 1.6, y, s * 0.9, middle=True, cls="back-count")
            self.d.text(
                self.g, card_face(kind), x + s * 1.4, y, s * 1.45, anchor="middle", bold=True,
                middle=True, cls="back-face",
            )  # fmt: skip

        return draw

    def symbol_text(self, text: str, cls: str = "back-symbol-text") -> Callable:
        def draw(x: float, y: float, s: float) -> None:
            self.d.text(
                self.g, text, x, y, s * 1.2, anchor="middle", bold=True, middle=True, cls=cls
            )

        return draw

    # -- layout ---------------------------------------------------------------------------
    def height(self, block: Block, width: float, size: float) -> float:
        h = size * 2.2
        for item in block.items:
            lines = wrap(item.text, width - ICON_EM * size, size)
            h += max(len(lines) * size * LEAD, size * 2.2 if item.icon else 0.0) + size * 0.6
        return h + size * 0.8

    def draw(self, col: Rect, blocks: list[Block], size: float) -> None:
        """The blocks down one column; each item's symbol and text in one ``back-item`` group."""
        back = self.g
        y = col.y
        for block in blocks:
            self.d.text(
                self.g, block.title, col.x, y + size * 1.3, size * 1.3, bold=True,
                cls="back-title",
            )  # fmt: skip
            y += size * 2.2
            for item in block.items:
                lines = wrap(item.text, col.w - ICON_EM * size, size)
                tall = max(len(lines) * size * LEAD, size * 2.2 if item.icon else 0.0)
                self.g = self.d.group("back-item", back)
                if item.icon:
                    item.icon(col.x + ICON_CENTRE_EM * size, y + min(tall, size * 2.2) / 2, size)
                ty = y
                for line in lines:
                    ty += size * LEAD
                    self.d.text(
                        self.g, line, col.x + ICON_EM * size, ty - size * 0.3, size,
                        cls="back-text",
                    )  # fmt: skip
                self.g = back
                y += tall + size * 0.6
            y += size * 0.8


def _columns(city: CityMap, b: _Back, solo: bool) -> list[list[Block]]:
    rules = city.ruleset
    cards = Block(
        f"The {rules.deck_size} cards",
        tuple(Item(card_rule(kind, rules), b.face(kind)) for kind in rules.kinds),
    )
    round_items = [Item(step) for step in round_steps()]
    loops = [ln.id for ln in city.lines if ln.loop]
    if loops:
        which = ", ".join(loops)
        round_items.insert(
            2,
            Item(
                f"Loop line{'s' if len(loops) > 1 else ''} {which} (two arrows at the first "
                "stop): each time, cross in either direction from the wagon.",
                b.loop_arrows,
            ),
        )
    two_ended = [ln for ln in city.lines if ln.both_ends]
    if two_ended:
        which = ", ".join(ln.id for ln in two_ended)
        halo = INK if b.d.grayscale else two_ended[0].color
        round_items.insert(
            2,
            Item(
                f"Line{'s' if len(two_ended) > 1 else ''} {which} (a halo at both ends): each "
                "time, choose an end and cross inward from its first empty stop.",
                _station(b, 0.35, halo=halo),
            ),
        )
    forks = [ln for ln in city.lines if ln.branches]
    if forks:
        which = ", ".join(ln.id for ln in forks)
        halo = INK if b.d.grayscale else forks[0].color
        pays = (
            "each branch run pays"
            if forks[0].branch_scoring == "each"
            else ("with both run, the better pays")
        )
        round_items.insert(
            2,
            Item(
                f"Line{'s' if len(forks) > 1 else ''} {which} fork (a halo at every branch end): "
                "a move past the fork picks a branch and stays on it. The line is complete via "
                f"a branch when the trunk and that branch are crossed; each branch has its own "
                f"bonus row ({forks[0].id}1, {forks[0].id}2); {pays}.",
                _station(b, 0.35, halo=halo),
            ),
        )
    if city.special_stations:
        n = len(city.special_stations)
        round_items.insert(
            -1,
            Item(
                f"Special stations ({n}, on a star): marking one gives an extra action with "
                "the same card in another empty window.",
                b.star,
            ),
        )
    symbols = [
        Item("A station: cross it when your line reaches it.", _station(b, 0.35)),
        Item("A thick ring: an interchange, where lines share the station.", _station(b, 0.75)),
        Item(
            "A coloured halo: the end of the line in that colour.",
            _station(b, 0.35, halo=INK if b.d.grayscale else city.lines[0].color),
        ),
        Item("Each wagon: its letter, then one window per card it takes.", _wagon(b)),
    ]
    if city.all_lines is not None:
        bonus = city.all_lines
        what = (
            "a cross on every line"
            if bonus.condition == "every_line_has_cross"
            else "every line completed"
        )
        round_items.insert(
            -1,
            Item(
                f"All lines: the first to have {what} scores {bonus.first} (everyone who does "
                f"in that round), later ones {bonus.others}; add it to the completed lines.",
                b.symbol_text("◇"),
            ),
        )
    details = score_details(solo, rules)
    tie = (
        "Most points wins; a tie goes to fewer empty stations."
        if rules.tie_break == "fewer-empty"
        else "Most points wins; equal scores share the place."
    )
    scoring = Block(
        "Scoring",
        (
            *(
                Item(
                    caption + (f": {details[box]}" if box in details else ""),
                    b.symbol_text(SCORE_OPERATORS[box] or "◇", "back-score-op"),
                )
                for box, caption in score_titles(solo, rules).items()
            ),
            Item(tie),
        ),
    )
    bounds = [lo for lo, _ in RATINGS]
    rating = Block(
        "Solo rating",
        (
            *(Item(text, b.symbol_text(solo_band(lo))) for lo, text in RATINGS),
            Item(LOWEST_RATING, b.symbol_text(solo_band(min(bounds) - 1))),
        ),
    )
    return [
        [cards],
        [Block("A round", tuple(round_items)), Block("On the sheet", tuple(symbols))],
        [scoring, rating],
    ]


def _station(b: _Back, ring: float, halo: str | None = None):
    def draw(x: float, y: float, s: float) -> None:
        b.station(x, y, s, ring=ring, halo=halo)

    return draw


def _wagon(b: _Back):
    def draw(x: float, y: float, s: float) -> None:
        w, h = s * 3.6, s * 1.4
        b.g.add(
            b.d.dwg.rect(
                (fmt(x - w / 2), fmt(y - h / 2)), (fmt(w), fmt(h)), rx=0.8, fill=INK, stroke=INK
            )
        )
        b.d.text(b.g, "A", x - w / 2 + s * 0.55, y, s * 0.9, anchor="middle", bold=True,
                 fill=PAPER_WHITE, middle=True)  # fmt: skip
        for k in range(2):
            bx = x - w / 2 + s * 1.2 + k * s * 1.2
            b.g.add(
                b.d.dwg.rect(
                    (fmt(bx), fmt(y - h / 2 + s * 0.15)),
                    (fmt(s * 1.1), fmt(h - s * 0.3)),
                    rx=0.3,
                    fill=PAPER_WHITE,
                )
            )

    return draw


def back_svg(
    city: CityMap,
    *,
    paper: str = "a4",
    grayscale: bool = False,
    solo: bool = False,
    background: str = "home",
    crop_marks: bool = True,
) -> str:
    """The rules summary printed behind a sheet of ``city``, in the sheet's style."""
    d = SheetDrawing(
        city, paper, grayscale=grayscale, solo=solo, background=background, crop_marks=crop_marks
    )
    d.draw_background(panel=False)
    d.draw_header(title=f"{city.name}: how to play")
    lay = d.lay
    area = Rect(
        lay.printable.x,
        lay.header.bottom + 2.0,
        lay.printable.w,
        lay.footer.y - 1.0 - lay.header.bottom - 2.0,
    )
    gap = 8.0
    w = (area.w - 2 * gap) / 3
    cols = [Rect(area.x + i * (w + gap), area.y, w, area.h) for i in range(3)]
    back = _Back(d)
    columns = _columns(city, back, solo)

    def tallest(size: float) -> float:
        return max(
            sum(back.height(bl, col.w, size) for bl in blocks)
            for col, blocks in zip(cols, columns, strict=True)
        )

    lo, hi = MIN_SIZE, MAX_SIZE
    for _ in range(20):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if tallest(mid) <= area.h else (lo, mid)
    for col, blocks in zip(cols, columns, strict=True):
        back.draw(col, blocks, lo)
    d.draw_footer("rules")
    return d.tostring()
