"""Measured on the drawn SVG: bundles of parallel lines, pills, writing room (issue 9, 1-2)."""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

from mapkit.mapfile import load_map
from mapkit.mapfile.model import build_map
from mapkit.render.svg import sheet_svg
from mapkit.sheet import METRICS, Metrics, layout
from tests.test_render_common import SVG_NS, parse, with_class

ROOT = Path(__file__).resolve().parents[1]
SHEETS = [f"maps/{c}.json" for c in ("amsterdam", "berlin", "paris", "madrid")] + [
    "examples/minimal.json",
    "examples/tutorial.json",
    # the Metro X benchmark sheets: Metro City had two strokes overlapping for 1.3 mm
    "benchmarks/maps/metro-city.json",
    "benchmarks/maps/tube-town.json",
]
Point = tuple[float, float]


def drawn_lines(svg: str) -> dict[str, list[Point]]:
    """Each line's stroke as drawn (the last polyline of its group), in mm."""
    out = {}
    for g in with_class(parse(svg), "line", "g"):
        poly = [el for el in g if el.tag == SVG_NS + "polyline"][-1]
        pts = [tuple(map(float, p.split(","))) for p in poly.get("points").split()]
        out[g.get("data-line")] = pts
    return out


def parallel_distances(
    lines: dict[str, list[Point]], near: float = 4.0, min_overlap: float = 1.0
) -> dict[tuple[str, str], list[float]]:
    """Per pair of lines, the centre distances where they run side by side.

    Two segments run side by side when they are within 10 degrees of parallel,
    overlap along their length by at least ``min_overlap`` mm and are nearer than
    ``near`` mm; the distance is taken at both ends of the overlap, so a taper shows.
    """
    segs = {
        k: [(a, b) for a, b in itertools.pairwise(v) if math.dist(a, b) >= min_overlap]
        for k, v in lines.items()
    }
    out: dict[tuple[str, str], list[float]] = {}
    for l1, l2 in itertools.combinations(sorted(segs), 2):
        for (a, b), (c, d) in itertools.product(segs[l1], segs[l2]):
            length = math.dist(a, b)
            ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
            m = math.dist(c, d)
            vx, vy = (d[0] - c[0]) / m, (d[1] - c[1]) / m
            if abs(ux * vy - uy * vx) > math.sin(math.radians(10)):
                continue
            t = sorted((p[0] - a[0]) * ux + (p[1] - a[1]) * uy for p in (c, d))
            lo, hi = max(0.0, t[0]), min(length, t[1])
            if hi - lo < min_overlap:
                continue
            dist = min(
                abs((a[0] + s * ux - c[0]) * -vy + (a[1] + s * uy - c[1]) * vx) for s in (lo, hi)
            )
            if dist < near:
                out.setdefault((l1, l2), []).append(dist)
    return out


@pytest.mark.parametrize("path", SHEETS)
def test_parallel_lines_never_overlap_and_keep_one_offset(path):
    city = load_map(ROOT / path)
    pairs = parallel_distances(drawn_lines(sheet_svg(city).svg))
    step = METRICS.parallel_step
    for pair, dists in pairs.items():
        assert min(dists) >= METRICS.line_w, (path, pair, min(dists))
        for d in dists:  # neighbours one step apart, or further out in the same bundle
            assert abs(d / step - round(d / step)) * step < 0.02, (path, pair, d)


def _bundle_doc() -> dict:
    """A, B, C run together p-q-r; A comes from above and leaves upwards, C below, B straight."""
    line = {"windows": 2, "points": {"first": 4, "others": 2}}
    return {
        "format": "mapkit-map/1", "id": "bundle", "name": "Bundle",
        "stations": [
            {"id": "o", "x": 0, "y": 0}, {"id": "p", "x": 2, "y": 0}, {"id": "q", "x": 4, "y": 0},
            {"id": "r", "x": 6, "y": 0}, {"id": "up", "x": 8, "y": -2},
            {"id": "on", "x": 8, "y": 0}, {"id": "down", "x": 8, "y": 2},
            {"id": "s", "x": 0, "y": -2}, {"id": "t", "x": 0, "y": 2},
        ],
        "lines": [
            {"id": "A", "color": "#dd001f", **line, "depot": {"x": 0, "y": -3.5},
             "stops": ["s", "p", "q", "r", "up"]},
            {"id": "B", "color": "#1344ad", **line, "depot": {"x": -1.5, "y": 0},
             "stops": ["o", "p", "q", "r", "on"]},
            {"id": "C", "color": "#f59200", **line, "depot": {"x": 0, "y": 3.5},
             "stops": ["t", "p", "q", "r", "down"]},
        ],
    }  # fmt: skip


def test_bundle_order_avoids_crossings_and_pills_span_the_bundle():
    from shapely import LineString

    city = build_map(_bundle_doc())
    lay = layout(city)
    drawn = {k: LineString(v) for k, v in drawn_lines(sheet_svg(city).svg).items()}
    for x, y in itertools.combinations("ABC", 2):
        assert not drawn[x].intersects(drawn[y]), (x, y)
    qx, qy = lay.stations["q"]
    at_q = {k: next(p[1] for p in lay.drawn_routes[k] if abs(p[0] - qx) < 0.01) for k in "ABC"}
    step = METRICS.parallel_step
    # A joins from above and leaves upwards (smaller y): it runs on the upper side
    assert [at_q[k] - qy for k in "ABC"] == pytest.approx([-step, 0.0, step], abs=1e-6)
    for sid in ("p", "q", "r"):
        a, b = lay.station_mark(sid)
        assert math.dist(a, b) == pytest.approx(2 * step)
        assert a[0] == pytest.approx(b[0])  # perpendicular to the horizontal bundle


def test_writing_room_in_windows_and_circles_as_drawn():
    city = load_map(ROOT / "maps" / "berlin.json")
    root = parse(sheet_svg(city).svg)
    for w in with_class(root, "window", "rect"):
        sw = float(w.get("stroke-width"))
        assert float(w.get("width")) - sw >= METRICS.min_window_inside - 1e-9
        assert float(w.get("height")) - sw >= METRICS.min_window_inside - 1e-9
    for g in with_class(root, "station", "g"):
        path = next(el for el in g if el.tag == SVG_NS + "path")
        r = float(re.search(r"a([0-9.]+),", path.get("d"), flags=re.I).group(1))
        assert 2 * r - float(path.get("stroke-width")) >= METRICS.min_station_inside - 1e-9


def test_metrics_keep_the_writing_room():
    m = Metrics()
    assert m.window_inside >= m.min_window_inside == 6.5
    assert m.inside_of_box(m.box) == pytest.approx(m.window_inside)
    assert 2 * m.station_r - m.interchange_stroke >= m.min_station_inside == 5.5
    assert m.margin >= 5.0


def _pattern(group) -> tuple:
    """A drawn line's look without its grey levels: each stroke's width and dashes."""
    return tuple(
        (el.get("stroke-width"), el.get("stroke-dasharray"))
        for el in group
        if el.tag == SVG_NS + "polyline"
    )


@pytest.mark.parametrize("path", SHEETS[:4])
def test_grayscale_patterns_tell_meeting_lines_apart_and_have_a_legend(path):
    city = load_map(ROOT / path)
    root = parse(sheet_svg(city, grayscale=True).svg)
    drawn = {g.get("data-line"): g for g in with_class(root, "line", "g")}
    for st in city.stations:
        for a, b in itertools.combinations(city.lines_at(st.id), 2):
            assert _pattern(drawn[a]) != _pattern(drawn[b]), (path, st.id, a, b)
    for g in drawn.values():
        for el in g:
            dash = el.get("stroke-dasharray")
            if dash:
                assert el.get("stroke-linecap") == "butt"
                assert min(float(v) for v in dash.split()) >= 1.2
    legend = {e.get("data-line"): e for e in with_class(root, "legend-entry", "g")}
    assert list(legend) == [ln.id for ln in city.lines]
    for lid, entry in legend.items():
        assert _pattern(entry) == _pattern(drawn[lid])
        assert [t for el in entry.iter(SVG_NS + "text") for t in el.itertext()] == [lid]


def test_colour_sheets_have_no_legend():
    city = load_map(ROOT / SHEETS[0])
    assert with_class(parse(sheet_svg(city).svg), "legend") == []


def test_two_loop_lines_on_one_ring_run_side_by_side_all_round():
    line = {"windows": 2, "points": {"first": 4, "others": 2}, "loop": True}
    ring = ["n", "e", "s", "w"]
    doc = {
        "format": "mapkit-map/1", "id": "rings", "name": "Rings",
        "stations": [{"id": "n", "x": 2, "y": 0}, {"id": "e", "x": 4, "y": 2},
                     {"id": "s", "x": 2, "y": 4}, {"id": "w", "x": 0, "y": 2}],
        "lines": [
            {"id": "A", "color": "#dd001f", **line, "depot": {"x": 2, "y": -1.5}, "stops": ring},
            {"id": "B", "color": "#1344ad", **line, "depot": {"x": 2, "y": 5.5},
             "stops": ["s", "w", "n", "e"]},
        ],
    }  # fmt: skip
    pairs = parallel_distances(drawn_lines(sheet_svg(build_map(doc)).svg))
    assert set(pairs) == {("A", "B")}
    assert min(pairs[("A", "B")]) == pytest.approx(METRICS.parallel_step, abs=0.02)
    assert len(pairs[("A", "B")]) >= 4  # all four sides of the ring


def test_every_pair_of_gray_patterns_differs_in_shape_not_only_in_grey():
    """Kind (dashed, hollow, centre stripe), dashes per period, longest dash (1.5 mm apart) or
    inked share (0.2 apart): one must differ, so a pattern reads without its grey."""
    from mapkit.render.style import GRAY_PATTERNS, MID_GRAY, LineStyle, shapes_differ

    for (i, a), (j, b) in itertools.combinations(enumerate(GRAY_PATTERNS), 2):
        assert shapes_differ(a, b), (i, j)
    # the old Paris E and J: both dash-and-shorter-dash, 6 mm long, ~72 % inked
    old_e = LineStyle(MID_GRAY, (6.0, 1.4, 1.2, 1.4))
    old_j = LineStyle(MID_GRAY, (6.0, 1.6, 2.6, 1.6))
    assert not shapes_differ(old_e, old_j)
    assert shapes_differ(old_e, LineStyle(MID_GRAY, (6.0, 1.4, 1.2, 1.4, 1.2, 1.4)))


@pytest.mark.parametrize("path", SHEETS[:4])
def test_grayscale_bundles_keep_a_white_gap_between_strokes(path):
    """Neighbours in a bundle run parallel_step apart; in grayscale every stroke is thin enough
    that 0.6 mm of paper shows between any two, so three black lines never make one band."""
    city = load_map(ROOT / path)
    root = parse(sheet_svg(city, grayscale=True).svg)
    widths = {
        g.get("data-line"): max(float(el.get("stroke-width")) for el in g)
        for g in with_class(root, "line", "g")
    }
    assert len(widths) == len(city.lines)
    for a, b in itertools.combinations(widths, 2):
        assert METRICS.parallel_step - (widths[a] + widths[b]) / 2 >= 0.6, (a, b)
    colour = parse(sheet_svg(city).svg)
    widest = max(float(el.get("stroke-width")) for g in with_class(colour, "line", "g") for el in g)
    assert METRICS.parallel_step - widest < 0.6  # colour tells bundles apart by colour instead
