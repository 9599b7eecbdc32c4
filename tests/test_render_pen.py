"""The filled sheet: a player's marks drawn from a hand-built PaperSheet."""

from __future__ import annotations

import pytest

from mapkit.paper import PaperSheet, Scoring
from mapkit.render.svg import sheet_svg
from tests.test_render_common import fixture_city, parse, texts, with_class

SHEET = PaperSheet(
    player="ana",
    round=9,
    crosses=frozenset({"n1", "n2", "n3", "c3", "s1", "s2", "l1", "l2"}),
    interchanges={"c2": 3, "c4": 2},
    windows={"A": ("4", "x2", "+"), "C": ("3",), "E": ("5", "+"), "B": ("6",)},
    diamonds={"A": "circled", "C": "struck", "B": "struck", "D": "open"},
    squares={"B": "circled", "C": "open"},
    scoring=Scoring(line_points=8, interchange_points=10, penalty=2, total=16),
)


@pytest.fixture(scope="module")
def root():
    return parse(sheet_svg(fixture_city(), filled=SHEET).svg)


def test_crosses_on_the_marked_stations(root):
    crosses = with_class(root, "pen-cross", "g")
    assert sorted(c.get("data-station") for c in crosses) == sorted(SHEET.crosses)
    assert all(len(list(c)) == 2 for c in crosses)  # two pen strokes each


def test_interchange_numbers_are_boxed(root):
    boxes = with_class(root, "pen-interchange", "g")
    got = {b.get("data-station"): texts(b) for b in boxes}
    assert got == {"c2": ["3"], "c4": ["2"]}


def test_window_values_written(root):
    written = ["".join(t.itertext()) for t in with_class(root, "pen-window", "text")]
    assert written == ["4", "x2", "+", "3", "5", "+", "6"]


def test_bonus_marks(root):
    circles = sorted(c.get("data-line") for c in with_class(root, "pen-circle"))
    assert circles == ["A", "B"]  # A's diamond, B's square
    strikes = sorted(c.get("data-line") for c in with_class(root, "pen-strike"))
    assert strikes == ["B", "C"]


def test_final_scoring_filled(root):
    scores = ["".join(t.itertext()) for t in with_class(root, "pen-score", "text")]
    assert scores == ["8", "10", "2", "16"]
    assert "ana · after round 9" in texts(root)


def test_marks_are_deterministic():
    city = fixture_city()
    assert sheet_svg(city, filled=SHEET).svg == sheet_svg(city, filled=SHEET).svg


def test_empty_paper_sheet_draws_no_marks():
    root = parse(sheet_svg(fixture_city(), filled=PaperSheet(player="ben")).svg)
    pen = [el for el in root.iter() if (el.get("class") or "").startswith("pen-")]
    assert pen == []


def test_unknown_ids_are_ignored():
    sheet = PaperSheet(player="x", crosses=frozenset({"nope"}), windows={"Z": ("3",)})
    root = parse(sheet_svg(fixture_city(), filled=sheet).svg)
    assert with_class(root, "pen-cross") == []
