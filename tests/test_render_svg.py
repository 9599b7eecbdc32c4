"""The blank sheet as SVG: structure, counts, sizes, escaping, labels, grayscale."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mapkit.mapfile.model import build_map
from mapkit.render.svg import sheet_svg
from mapkit.sheet import PAPERS
from tests.test_render_common import fixture_city, parse, texts, with_class


@pytest.fixture(scope="module")
def city():
    return fixture_city()


@pytest.fixture(scope="module")
def root(city):
    return parse(sheet_svg(city, labels=True).svg)


def test_one_mark_per_station_and_one_box_per_window(city, root):
    stations = with_class(root, "station", "g")
    assert sorted(el.get("id") for el in stations) == sorted(f"st-{s.id}" for s in city.stations)
    windows = with_class(root, "window", "rect")
    assert len(windows) == city.total_windows == 14
    for ln in city.lines:
        ids = [w.get("id") for w in windows if w.get("id").startswith(f"win-{ln.id}-")]
        assert ids == [f"win-{ln.id}-{i}" for i in range(ln.windows)]
    m_box = min(float(w.get("width")) for w in windows)
    assert m_box >= 5.0  # a digit or a + written with a felt-tip pen


def test_ids_are_unique(root):
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sized_in_mm_with_matching_viewbox(city, paper):
    root = parse(sheet_svg(city, paper=paper).svg)
    w, h = PAPERS[paper]
    assert root.get("width") == f"{w:g}mm"
    assert root.get("height") == f"{h:g}mm"
    assert root.get("viewBox") == f"0 0 {w:g} {h:g}"


def test_text_is_escaped(city):
    svg = sheet_svg(city, labels=True).svg
    root = parse(svg)
    assert not list(root.iter("{http://www.w3.org/2000/svg}script"))
    all_text = texts(root)
    assert 'Fixture City <script>&"x' in all_text
    assert '<script>&"x' in all_text  # the station label
    assert "<script>" not in svg


def test_game_marks(city, root):
    assert len(with_class(root, "loop-arrow")) == 2 * sum(ln.loop for ln in city.lines)
    assert len(with_class(root, "special-mark")) == 2
    ending = sorted(ln.id for ln in city.lines if ln.terminus)
    halos = with_class(root, "terminus-mark")
    assert sorted(h.get("data-line") for h in halos) == ending  # one colour per line ending
    assert len({ln.terminus for ln in city.lines if ln.terminus}) == 3
    interchange = {el.get("id") for el in with_class(root, "interchange", "g")}
    assert interchange == {f"st-{s.id}" for s in city.stations if city.intersection_count(s.id) > 1}


def test_panel_rows_and_scoring_boxes(city, root):
    rows = with_class(root, "panel-row", "g")
    assert [r.get("id") for r in rows] == [f"row-{ln.id}" for ln in city.lines]
    for row, ln in zip(rows, city.lines, strict=True):
        words = texts(row)
        assert words == [ln.id, str(ln.first), str(ln.others)]
        assert len(with_class(row, "diamond")) == 1
        assert len(with_class(row, "square")) == 1
    boxes = [el.get("id") for el in with_class(root, "score-box")]
    assert boxes == ["score-lines", "score-interchanges", "score-empty", "score-total"]
    ops = [t for el in with_class(root, "score-op") for t in el.itertext()]
    assert ops == ["+", "−", "="]


def test_labels_are_placed_without_overlap(city):
    from shapely import Point, box

    res = sheet_svg(city, labels=True)
    lay = res.layout
    lr = res.labels
    assert lr.wanted == 14
    assert lr.placed + len(lr.skipped) == 14
    assert lr.placed >= 12
    r = lay.metrics.station_r
    boxes = [box(b.box.x, b.box.y, b.box.right, b.box.bottom) for b in lr.labels]
    for i, a in enumerate(boxes):
        assert lay.map_area.contains(lr.labels[i].box)
        for b in boxes[i + 1 :]:
            assert not a.intersects(b)
        for sid, c in lay.stations.items():
            assert a.distance(Point(c)) > r, (lr.labels[i].text, sid)
    placed = [el for el in with_class(parse(res.svg), "label", "text")]
    assert len(placed) == lr.placed


def test_labels_are_left_out_rather_than_shortened_or_overlapped():
    doc = {
        "format": "mapkit-map/1",
        "id": "crowded",
        "name": "Crowded",
        "stations": [
            {"id": f"s{i}", "x": i % 6, "y": i // 6, "name": "A very long station name indeed"}
            for i in range(36)
        ],
        "lines": [
            {
                "id": chr(65 + r),
                "color": "#336699",
                "windows": 2,
                "points": {"first": 2, "others": 1},
                "depot": {"x": -1.2, "y": r},
                "stops": [f"s{r * 6 + c}" for c in range(6)],
            }
            for r in range(6)
        ],
    }
    res = sheet_svg(build_map(doc), labels=True)
    lr = res.labels
    assert lr.wanted == 36
    assert lr.skipped
    assert all(lb.text == "A very long station name indeed" for lb in lr.labels)


def test_grayscale_uses_no_colour_and_distinct_patterns(city):
    svg = sheet_svg(city, grayscale=True).svg
    for hexcol in re.findall(r"#[0-9a-fA-F]{6}", svg):
        r, g, b = hexcol[1:3], hexcol[3:5], hexcol[5:7]
        # ink (#1d2433) is the one near-black allowed besides pure grays
        assert r == g == b or hexcol.lower() == "#1d2433", hexcol
    root = parse(svg)
    styles = set()
    for el in with_class(root, "line", "g"):
        strokes = tuple(
            (p.get("stroke"), p.get("stroke-dasharray"), p.get("stroke-width")) for p in el
        )
        styles.add(strokes)
    assert len(styles) == len(city.lines)


def test_colour_sheet_uses_line_colours(city):
    root = parse(sheet_svg(city).svg)
    for ln in city.lines:
        (g,) = [el for el in with_class(root, "line", "g") if el.get("id") == f"line-{ln.id}"]
        assert ln.color in {p.get("stroke") for p in g}
    full = parse(sheet_svg(city, background="full").svg)
    assert full.find(".//*[@id='background']").get("fill") == city.sheet_color


def _random_map(draw) -> dict:
    n = draw(st.integers(3, 14))
    xs = draw(st.lists(st.integers(0, 20), min_size=n, max_size=n))
    ys = draw(st.lists(st.integers(0, 12), min_size=n, max_size=n))
    pts = list(dict.fromkeys(zip(xs, ys, strict=True)))
    if len(pts) < 3:
        pts = [(0, 0), (1, 0), (2, 0)]
    stations = [
        {"id": f"s{i}", "x": x, "y": y, "name": draw(st.text(max_size=12)) or None}
        for i, (x, y) in enumerate(pts)
    ]
    for s in stations:
        if s["name"] is None:
            del s["name"]
    ids = [s["id"] for s in stations]
    lines = []
    for k in range(draw(st.integers(1, 5))):
        stops = draw(st.lists(st.sampled_from(ids), min_size=3, max_size=8, unique=True))
        loop = draw(st.booleans())
        lines.append(
            {
                "id": chr(65 + k),
                "color": draw(st.sampled_from(["#d11e29", "#ffee00", "#222222", "#88ccff"])),
                "windows": draw(st.integers(1, 8)),
                "points": {"first": 3, "others": 1},
                "depot": {"x": draw(st.integers(-3, 23)), "y": draw(st.integers(-3, 15))},
                "stops": stops,
                "loop": loop,
            }
        )
    return {"format": "mapkit-map/1", "id": "rnd", "name": "R", "stations": stations,
            "lines": lines}  # fmt: skip


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.booleans(), st.booleans())
def test_any_model_renders_a_parsable_complete_sheet(data, grayscale, labels):
    city = build_map(data.draw(st.composite(_random_map)()))
    root = parse(sheet_svg(city, grayscale=grayscale, labels=labels).svg)
    assert len(with_class(root, "station", "g")) == len(city.stations)
    assert len(with_class(root, "window", "rect")) == city.total_windows


def test_drawn_elements_carry_semantic_attributes():
    """The studio and tests find stations, lines and windows by data attributes."""
    import xml.etree.ElementTree as ET

    from mapkit.mapfile import load_map

    city = load_map(Path(__file__).resolve().parents[1] / "maps" / "berlin.json")
    root = ET.fromstring(sheet_svg(city).svg)
    groups = [e for e in root.iter() if e.get("class")]
    stations = {e.get("data-station") for e in groups if "station" in e.get("class").split()}
    lines = {e.get("data-line") for e in groups if e.get("class") == "line"}
    windows = [e for e in groups if e.get("class") == "window"]
    assert stations == {s.id for s in city.stations}
    assert lines == {ln.id for ln in city.lines}
    assert len(windows) == sum(ln.windows for ln in city.lines)
    assert all(w.get("data-line") in lines for w in windows)


def test_labels_and_windows_name_what_they_belong_to():
    """Every placed name says its station; every window its line (the studio relies on it)."""
    from mapkit.mapfile import load_map

    city = load_map(Path(__file__).resolve().parents[1] / "maps" / "paris.json")
    res = sheet_svg(city, labels=True)
    root = parse(res.svg)
    labels = with_class(root, "label", "text")
    assert [el.get("data-station") for el in labels] == [lb.station_id for lb in res.labels.labels]
    names = {s.id: s.name for s in city.stations}
    for el in labels:  # a long name may wrap onto two lines, at a space or a dash
        assert "".join(el.itertext()).replace(" ", "") == names[el.get("data-station")].replace(
            " ", ""
        )
    for w in with_class(root, "window", "rect"):
        assert w.get("id").startswith(f"win-{w.get('data-line')}-")


@pytest.mark.parametrize(
    ("name", "badge"),
    [("Los Angeles", "LA"), ("Metro - Los Angeles", "ML"), ("7th Street", "S"), ("Berlin", "B")],
)
def test_the_title_badge_is_the_initials_of_the_first_two_words_that_start_with_a_letter(
    name, badge
):
    root = parse(sheet_svg(replace(fixture_city(), name=name)).svg)
    (group,) = [g for g in root.iter() if any(c in with_class(g, "city-symbol") for c in g)]
    assert texts(group)[0] == badge
