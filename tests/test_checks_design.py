"""The numbers behind the design checks: covering, exact chances, colour science."""

from __future__ import annotations

import pytest

from mapkit.checks import colour
from mapkit.checks.completion import completion_chance, min_windows, structure


def key(pattern: str, loop: bool = False):
    """'o' a stop only this line serves, 's' a stop shared with another line."""
    return structure([c == "s" for c in pattern], loop)


@pytest.mark.parametrize(
    ("pattern", "loop", "need"),
    [
        ("ssss", False, 0),
        ("oooooo", False, 1),  # one 6
        ("ooooooo", False, 2),
        ("ososso", False, 1),  # express 3 skips the marked shared stops
        ("oososso", False, 2),  # 4 own stops over a span of 7
        ("oossoo", False, 1),  # a 6 crosses the (still empty) shared stops
        ("osssssso", False, 1),  # too far apart for a 6: one express 2
        ("oooosoooo", False, 2),
        ("oooooooooooo", True, 2),  # loop: a 6 each way from the first stop
        ("ooooooooooooo", True, 3),
        ("sooooooooooooo", True, 3),
    ],
)
def test_min_windows(pattern: str, loop: bool, need: int) -> None:
    assert min_windows(key(pattern, loop)) == need


def test_exact_chances() -> None:
    assert completion_chance(key("oooooo"), 1) == pytest.approx(1 / 13)  # only the 6
    assert completion_chance(key("ooooo"), 1) == pytest.approx(3 / 13)  # 5, 5, 6
    assert completion_chance(key("ooo"), 1) == pytest.approx(9 / 13)  # numbers and x3
    # two 6s in a row: the 6, then the 6 again after the reshuffle
    assert completion_chance(key("o" * 12), 2) == pytest.approx(1 / 169)
    assert completion_chance(key("ssss"), 1) == 1.0
    assert completion_chance(key("o" * 13), 2) == 0.0


def test_huge_lines_do_not_hang() -> None:
    assert completion_chance(key("o" * 30, loop=True), 8) is None


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [  # Sharma, Wu and Dalal (2005) test data
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ],
)
def test_ciede2000(lab1, lab2, expected) -> None:
    assert colour.ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_red_green_collapse_for_deuteranopia() -> None:
    red, green = "#d11e29", "#83c143"
    assert colour.delta_e(red, green) > 50
    orange = "#f2801e"
    assert colour.delta_e(orange, green, "deuteranopia") < 6


def test_recommended_palette_passes() -> None:
    import itertools

    from mapkit.checks import design

    palette = list(colour.PALETTE.values())
    for a, b in itertools.combinations(palette, 2):
        assert colour.delta_e(a, b) >= design.MIN_DE_NORMAL
        assert min(colour.delta_e(a, b, v) for v in colour.VISIONS) >= design.MIN_DE_CVD
    for sheet in ("#ffffff", *colour.PALE_SHEETS.values()):
        for c in palette:
            assert colour.delta_e(c, sheet) >= design.MIN_SHEET_DE_NORMAL
            assert min(colour.delta_e(c, sheet, v) for v in colour.VISIONS) >= (
                design.MIN_SHEET_DE_CVD
            )
            assert colour.lab(c)[0] <= design.MAX_LIGHTNESS


def test_recommended_palette_is_inside_the_press_gamut_and_keeps_its_margins() -> None:
    """Every colour inside the press hull (DES007 measures 0), the pairs at least 17.7 apart
    for normal vision and 11.5 for each dichromacy; the palette before issue 19 had a blue
    #0022ee 15.5 and a periwinkle #6666ee 13.0 beyond the hull (DES007 bound: 8)."""
    import itertools

    from mapkit.checks import design

    palette = list(colour.PALETTE.values())
    assert [colour.press_excess(c) for c in palette] == [0.0] * 11
    pairs = list(itertools.combinations(palette, 2))
    assert min(colour.delta_e(a, b) for a, b in pairs) == pytest.approx(17.80, abs=0.01)
    dichromat = min(colour.delta_e(a, b, v) for a, b in pairs for v in colour.VISIONS[1:])
    assert dichromat == pytest.approx(11.58, abs=0.01)
    assert colour.press_excess("#0022ee") == pytest.approx(15.5, abs=0.05)
    assert colour.press_excess("#6666ee") == pytest.approx(13.0, abs=0.05)
    assert design.press_fault("#0022ee") == colour.press_excess("#0022ee")
    assert design.press_fault("#1344ad") is None  # Paris B, 5.9: within the bound


def _two_lines(color_b: str, meet: bool) -> str:
    import json

    b_stops = ["b1", "a2", "b3"] if meet else ["b1", "b2", "b3"]
    doc = {
        "format": "mapkit-map/1", "id": "two", "name": "Two",
        "stations": [{"id": f"{p}{i}", "x": i * 2, "y": 0 if p == "a" else 6}
                     for p in "ab" for i in (1, 2, 3)],
        "lines": [
            {"id": "A", "color": "#cc0044", "windows": 2, "points": {"first": 3, "others": 1},
             "depot": {"x": 0, "y": 0}, "stops": ["a1", "a2", "a3"]},
            {"id": "B", "color": color_b, "windows": 2, "points": {"first": 3, "others": 1},
             "depot": {"x": 0, "y": 6}, "stops": b_stops},
        ],
    }  # fmt: skip
    return json.dumps(doc)


@pytest.mark.parametrize(
    ("color_b", "meet", "warns"),
    [
        ("#448800", True, True),  # red and green: ΔE 6.8 for a dichromat, where lines meet
        ("#448800", False, False),  # the same pair far apart: the letters tell them apart
        ("#cc0044", False, True),  # the same colour always warns
        ("#0022ee", True, False),
    ],
)
def test_des003_threshold_follows_whether_lines_meet(color_b, meet, warns) -> None:
    from mapkit.checks import validate_source

    diags = validate_source(_two_lines(color_b, meet), select=["DES003"]).diagnostics
    assert bool(diags) == warns, [d.message for d in diags]
    if meet and warns:
        assert "below 10; they meet at station 'a2'" in diags[0].message


def test_shipped_cities_keepmeeting_pairs_apart_for_colour_blind_players() -> None:
    from pathlib import Path

    from mapkit.checks.context import CheckContext
    from mapkit.checks.design import meeting_pairs
    from mapkit.mapfile import load_source

    maps = Path(__file__).resolve().parents[1] / "maps"
    for name in ("amsterdam", "berlin", "paris", "madrid"):
        res = load_source((maps / f"{name}.json").read_text(encoding="utf-8"))
        for a, b, where in meeting_pairs(CheckContext(res, res.map)):
            if where:
                for vision in colour.VISIONS[1:]:
                    assert colour.delta_e(a.color, b.color, vision) >= 10, (name, a.id, b.id)


def test_layout_figures_measure_octilinear_share_and_spacing() -> None:
    import math
    from pathlib import Path

    from mapkit.checks.design import layout_figures
    from mapkit.mapfile import load_map

    broken = Path(__file__).resolve().parents[1] / "examples" / "broken"
    base = load_map(broken / "_base.json")
    assert [layout_figures(base, ln)[0] for ln in base.lines] == [0.0, 0.0, 0.0]
    bent = load_map(broken / "DES006.json")
    share, short, long = layout_figures(bent, bent.line("A"))
    slanted = 2 * math.hypot(10, 4)
    assert share == pytest.approx(slanted / (slanted + 10))
    assert (short, long) == pytest.approx((10.0, math.hypot(10, 4)))
