"""The heatmap drawing used by `mapkit simulate --heatmap`."""

from __future__ import annotations

from mapkit.render.heatmap import heatmap_svg
from mapkit.render.style import scale_color
from tests.test_render_common import fixture_city, parse, texts, with_class


def _values_by_station(root):
    return {el.get("data-station"): "".join(el.itertext()) for el in with_class(root, "heat-value")}


def test_heatmap_prints_every_station_value_and_a_legend():
    city = fixture_city()
    values = {s.id: i / 20 for i, s in enumerate(city.stations)}
    del values["n1"]
    svg = heatmap_svg(city, values, title="empty stations", legend="How often it stays empty")
    root = parse(svg)
    got = _values_by_station(root)
    assert len(got) == len(city.stations)
    assert got["n1"] == "–"
    assert got["n2"] == "5"  # 1/20 as a percentage
    assert got["l4"] == "65"
    assert len(with_class(root, "station", "g")) == len(city.stations)
    assert len(with_class(root, "legend-bar")) == 1
    ticks = ["".join(t.itertext()) for t in with_class(root, "legend-tick")]
    assert ticks == ["0%", "32%", "65%"]
    assert 'Fixture City <script>&"x · empty stations' in texts(root)
    (top,) = with_class(root, "station", "g")[-1:]
    assert top.get("id") == "st-l4"
    assert next(iter(top)).get("fill") == scale_color(1.0)


def test_heatmap_plain_numbers_and_empty_values():
    city = fixture_city()
    root = parse(
        heatmap_svg(city, {"c2": 2.5, "c3": 12.0, "zzz": 9}, title="t", legend="l", percent=False)
    )
    got = _values_by_station(root)
    assert got["c2"] == "2.5"
    assert got["c3"] == "12"
    assert got["n1"] == "–"
    root = parse(heatmap_svg(city, {}, title="t", legend="l", paper="letter"))
    assert root.get("width") == "279.4mm"
