"""The card deck (issue 19, point 3): standard sizes, bleed, cut marks, backs behind fronts."""

from __future__ import annotations

from collections import Counter

import pytest
from typer.testing import CliRunner

from mapkit.cards import CARD_NAMES, DECK, DECK_COUNTS
from mapkit.cli import app
from mapkit.render.cards import card_sheets
from mapkit.sheet import CARD_SIZES, METRICS, PAPERS, card_grid, card_size
from tests.test_render_common import SVG_NS, parse, with_class


def _rect(el) -> tuple[float, float, float, float]:
    return tuple(float(el.get(k)) for k in ("x", "y", "width", "height"))  # type: ignore[return-value]


def test_poker_deck_is_two_pages_of_63_by_88_mm_cards_with_3_mm_bleed():
    fronts, backs = card_sheets("a4", CARD_SIZES["poker"])
    assert len(fronts) == len(backs) == 2
    cards = [c for page in fronts for c in with_class(parse(page), "card", "g")]
    assert Counter(c.get("data-card") for c in cards) == dict(
        zip(CARD_NAMES, DECK_COUNTS, strict=True)
    )
    assert len(cards) == len(DECK) == 14
    for c in cards:
        (bleed,) = with_class(c, "card-bleed", "rect")
        _, _, w, h = _rect(bleed)
        assert (w, h) == (63.0 + 2 * METRICS.bleed, 88.0 + 2 * METRICS.bleed)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [*CARD_SIZES, "60x90"])
def test_every_back_lies_behind_its_front(paper, size):
    """Turned over its side edge, the sheet puts x at width - x: each back's rectangle is
    exactly where its front is."""
    width, _ = PAPERS[paper]
    fronts, backs = card_sheets(paper, card_size(size))
    for front, back in zip(fronts, backs, strict=True):
        f = [_rect(with_class(c, "card-bleed")[0]) for c in with_class(parse(front), "card")]
        b = [_rect(c.find(SVG_NS + "rect")) for c in with_class(parse(back), "card-back")]
        want = sorted((width - x - w, y, w, h) for x, y, w, h in f)
        assert sorted(b) == [pytest.approx(r, abs=0.01) for r in want]  # SVG keeps 0.01 mm


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", list(CARD_SIZES))
def test_cut_marks_carry_every_card_edge_and_keep_the_margin(paper, size):
    width, height = PAPERS[paper]
    grid = card_grid(paper, CARD_SIZES[size])
    (front, *_), _ = card_sheets(paper, CARD_SIZES[size])
    lines = [
        tuple(float(el.get(k)) for k in ("x1", "y1", "x2", "y2"))
        for el in with_class(parse(front), "cut-line", "line")
    ]
    verticals = {x1 for x1, y1, x2, y2 in lines if x1 == x2}
    horizontals = {y1 for x1, y1, x2, y2 in lines if y1 == y2}
    assert verticals == {round(v, 2) for c in grid.cells for v in (c.x, c.right)}
    assert horizontals == {round(v, 2) for c in grid.cells for v in (c.y, c.bottom)}
    box = grid.grid
    for x1, y1, x2, y2 in lines:
        for x, y in ((x1, y1), (x2, y2)):
            assert METRICS.margin <= x <= width - METRICS.margin
            assert METRICS.margin <= y <= height - METRICS.margin
            assert not (box.x < x < box.right and box.y < y < box.bottom)  # never on a card


def test_card_sizes():
    assert card_size("poker") == (63.0, 88.0)
    assert card_size("Bridge") == (57.0, 88.0)
    assert card_size("70x120") == (70.0, 120.0)
    assert card_grid("a4", (63.0, 88.0)).per_page == 8
    assert card_grid("a4", (70.0, 120.0)).per_page == 3
    for bad in ("huge", "63x", "x88", "nanxnan", "10x10", "63x250"):
        with pytest.raises(ValueError):
            card_size(bad)


@pytest.mark.parametrize(
    "size, message",
    [("jumbo", "unknown card size 'jumbo'"), ("20x20", "each side must be 30 to 190 mm"),
     ("100x190", "does not fit on a4 paper"),
     ("35x50", "a 35 x 50 mm card is too small for the card rules at 1.6 mm text")],
)  # fmt: skip
def test_bad_card_size_exits_2_and_writes_nothing(tmp_path, size, message):
    out = tmp_path / "deck.pdf"
    args = ["render", "berlin", "--pdf", "--cards", "--card-size", size, "-o", str(out)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1
    assert not out.exists()


def _text_box(el) -> tuple[float, float, float, float]:
    """Left, top, right, bottom of a centred text's glyphs (digits and capitals: 0.73 em tall),
    turned about the point its ``rotate(180 x y)`` names."""
    from mapkit.render.fontmetrics import text_width

    x, y, size = float(el.get("x")), float(el.get("y")), float(el.get("font-size"))
    w = text_width(el.text, size, bold=el.get("font-weight") == "bold")
    left, top, right, bottom = x - w / 2, y - 0.73 * size, x + w / 2, y + 0.25 * size
    turn = el.get("transform")
    if turn:
        rx, ry = (float(v) for v in turn.removeprefix("rotate(180 ").rstrip(")").split())
        left, top, right, bottom = 2 * rx - right, 2 * ry - bottom, 2 * rx - left, 2 * ry - top
    return left, top, right, bottom


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [*CARD_SIZES, "60x90", "44x63"])
def test_rule_text_ends_before_the_upside_down_corner_index(paper, size):
    """Every rule line beside the bottom-right index ends 1 mm before the index's glyph,
    and every line stays inside the card's white frame."""
    fronts, _ = card_sheets(paper, card_size(size))
    checked = 0
    for card in (c for page in fronts for c in with_class(parse(page), "card", "g")):
        (index,) = with_class(card, "card-index", "text")
        i_left, i_top, _, _ = _text_box(index)
        frame = _rect(card.findall(SVG_NS + "rect")[1])
        for line in with_class(card, "card-rule", "text"):
            left, _, right, bottom = _text_box(line)
            assert frame[0] < left and right < frame[0] + frame[2]
            assert bottom <= frame[1] + frame[3] - 0.99, (card.get("data-card"), line.text)
            if bottom > i_top:
                checked += 1
                assert right <= i_left - 0.99, (card.get("data-card"), line.text)
    if size == "44x63":
        assert checked  # on mini cards every rule reaches down beside the index


@pytest.mark.parametrize(
    ("size", "text"), [("poker", 2.6), ("bridge", 2.6), ("44x63", 1.9), ("41x63", 1.8)]
)
def test_rules_take_the_largest_size_that_fits_the_whole_deck(size, text):
    """One size for the deck: 2.6 mm on poker cards, smaller only on mini cards."""
    fronts, _ = card_sheets("a4", card_size(size))
    sizes = {
        float(t.get("font-size")) for page in fronts for t in with_class(parse(page), "card-rule")
    }
    assert sizes == {text}


def test_the_bottom_index_is_the_top_one_turned_about_the_cards_centre():
    """As on playing cards: the card turned by 180° shows the same corner, and the 6 is
    underlined so that, turned, it does not read as a 9."""
    fronts, _ = card_sheets("a4", CARD_SIZES["poker"])
    for card in (c for page in fronts for c in with_class(parse(page), "card", "g")):
        (top,) = with_class(card, "card-corner", "text")
        (turned,) = with_class(card, "card-index", "text")
        frame = _rect(card.findall(SVG_NS + "rect")[1])
        cx, cy = frame[0] + frame[2] / 2, frame[1] + frame[3] / 2
        assert (turned.get("x"), turned.get("y"), turned.text) == (
            top.get("x"), top.get("y"), top.text,
        )  # fmt: skip
        assert turned.get("transform") == f"rotate(180 {cx:g} {cy:g})"
        # glyphs 3.70 mm (half the index's font size) in from the frame's corner, top left
        # and, turned, bottom right (before, the turned one stood 8.5 mm up from the bottom)
        t_left, t_top, _, _ = _text_box(top)
        _, _, right, bottom = _text_box(turned)
        assert t_left - frame[0] == pytest.approx(3.70, abs=0.01)
        assert t_top - frame[1] == pytest.approx(3.70, abs=0.01)
        assert frame[0] + frame[2] - right == pytest.approx(3.70, abs=0.01)
        assert frame[1] + frame[3] - bottom == pytest.approx(3.70, abs=0.01)
        lines = with_class(card, "card-underline", "rect")
        if card.get("data-card") == "6":
            assert len(lines) == 3  # the face and both corners
            assert lines[-1].get("transform") == turned.get("transform")
        else:
            assert lines == []
