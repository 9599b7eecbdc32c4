"""Back page and card deck (issue 9, point 5): play with nothing but the printout."""

from __future__ import annotations

from collections import Counter

import pytest
from typer.testing import CliRunner

from mapkit.cards import CARD_NAMES, DECK, DECK_COUNTS
from mapkit.cli import app
from mapkit.engine.scoring import LOWEST_RATING, RATINGS
from mapkit.render.back import back_svg, card_face, cards_svg
from mapkit.render.panel import SCORE_OPERATORS, SCORE_TITLES, SOLO_SCORE_TITLES
from tests.test_render_common import fixture_city, parse, with_class


def _texts(root, cls: str) -> list[str]:
    return ["".join(el.itertext()) for el in with_class(root, cls, "text")]


def test_back_lists_the_engine_deck_scoring_and_rating_table():
    root = parse(back_svg(fixture_city()))
    all_text = " ".join("".join(el.itertext()) for el in root.iter())
    assert _texts(root, "back-count") == [f"{n}×" for n in DECK_COUNTS]
    assert sum(DECK_COUNTS) == len(DECK) == 14
    for kind in range(len(CARD_NAMES)):
        assert card_face(kind) in all_text
    for _, verdict in RATINGS:
        assert verdict in all_text
    assert LOWEST_RATING in all_text
    for box, caption in SCORE_TITLES.items():
        assert f"{SCORE_OPERATORS[box]} {caption}".strip() in all_text
    solo = " ".join(
        "".join(el.itertext()) for el in parse(back_svg(fixture_city(), solo=True)).iter()
    )
    assert f"− {SOLO_SCORE_TITLES['empty']}" in solo and SCORE_TITLES["empty"] not in solo


def test_card_page_has_the_14_cards_of_the_deck():
    root = parse(cards_svg())
    cards = with_class(root, "card", "g")
    want = dict(zip(CARD_NAMES, DECK_COUNTS, strict=True))
    assert Counter(c.get("data-card") for c in cards) == want
    assert len(with_class(root, "cut-line")) == 14


def test_pad_with_back_interleaves_front_and_back_then_the_cards(tmp_path, monkeypatch):
    import mapkit.render.export as export

    seen: list[list[str]] = []
    monkeypatch.setattr(
        export, "svgs_to_pdf", lambda pages, title=None: seen.append(pages) or b"%PDF"
    )
    out = tmp_path / "pad.pdf"
    args = ["render", "berlin", "--pdf", "--copies", "3", "--back", "--cards", "-o", str(out)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    (pages,) = seen
    kinds = [
        "back" if 'id="back"' in p else "cards" if 'class="cards"' in p else "front" for p in pages
    ]
    assert kinds == ["front", "back"] * 3 + ["cards"]


@pytest.mark.parametrize("flag", ["--back", "--cards"])
def test_back_and_cards_need_pdf(flag, tmp_path):
    res = CliRunner().invoke(app, ["render", "berlin", flag, "-o", str(tmp_path / "x.svg")])
    assert res.exit_code == 2 and "add --pdf" in res.output
