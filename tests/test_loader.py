"""Loading maps: layers stop at the first failing one; the model carries derived facts."""

from __future__ import annotations

import pytest

from mapkit.mapfile import MapError, load_map, load_source
from mapkit.resources import resolve_map, shipped_maps
from tests.conftest import dumps


def test_model_derived_facts(tiny_doc):
    city = load_source(dumps(tiny_doc)).map
    assert city is not None
    assert city.lines_at("b") == ("A", "B")
    assert city.intersection_count("b") == 2
    assert city.intersections == {"a": 1, "b": 2, "c": 1, "d": 1}
    assert city.line("A").terminus == "c"
    assert city.line("B").first_stop == "d"
    assert city.total_windows == 3
    assert [s.id for s in city.special_stations] == ["d"]
    assert city.route(city.line("A")) == ((-2.0, 0.0), (0.0, 0.0), (2.0, 0.0), (4.0, 0.0))
    assert city.station_pointer("c") == "/stations/2"


def test_loop_route_closes_and_has_no_terminus(tiny_doc):
    tiny_doc["lines"][0]["loop"] = True
    city = load_source(dumps(tiny_doc)).map
    line = city.line("A")
    assert line.terminus is None
    assert city.route(line)[-1] == city.route(line)[1]


def test_model_is_immutable(tiny_doc):
    city = load_source(dumps(tiny_doc)).map
    with pytest.raises(AttributeError):
        city.stations[0].x = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda d: d["lines"][0]["stops"].append("zz"), [("REF001", "/lines/0/stops/3")]),
        (
            lambda d: d["stations"].append({"id": "a", "x": 9, "y": 9}),
            [("REF002", "/stations/4/id")],
        ),
        (lambda d: d["lines"][1].update(id="A"), [("REF003", "/lines/1/id")]),
        (lambda d: d["lines"][0]["stops"].append("a"), [("REF004", "/lines/0/stops/3")]),
        (lambda d: d["lines"][1].update(loop=True), [("REF005", "/lines/1/stops")]),
        (
            lambda d: d["lines"][0].update(shape=[[-2, 0], [4, 0], [5, 1]]),
            [("REF007", "/lines/0/shape")],
        ),
        (lambda d: d["lines"][0]["points"].update(first=0), [("REF006", "/lines/0/points")]),
        (
            lambda d: d["lines"][0].update(shape=[[-2, 1], [0, 0], [4, 0]]),
            [("REF007", "/lines/0/shape/0")],
        ),
        (
            lambda d: d["lines"][0].update(shape=[[-2, 0], [0, 0], [2, 1], [4, 0]]),
            [("REF007", "/lines/0/shape")],
        ),
    ],
)
def test_identity_errors(tiny_doc, mutate, expected):
    mutate(tiny_doc)
    result = load_source(dumps(tiny_doc))
    assert [(d.code, d.pointer) for d in result.diagnostics] == expected
    assert result.map is None


def test_shape_through_stops_is_accepted(tiny_doc):
    tiny_doc["lines"][0]["shape"] = [[-2, 0], [-1, -1], [0, 0], [1, 0], [2, 0], [3, 1], [4, 0]]
    result = load_source(dumps(tiny_doc))
    assert result.diagnostics == []
    assert result.map.route(result.map.line("A"))[1] == (-1.0, -1.0)


def test_layers_stop_at_syntax(tiny_doc):
    text = dumps(tiny_doc).replace('"name": "Tiny"', '"name": NaN')
    (d,) = load_source(text).diagnostics
    assert d.code == "JSON003" and d.pointer == "/name"


def test_load_map_raises_with_diagnostics(tmp_path, tiny_doc):
    tiny_doc["lines"][0]["stops"].append("nowhere")
    path = tmp_path / "bad.json"
    path.write_text(dumps(tiny_doc))
    with pytest.raises(MapError) as exc:
        load_map(path)
    assert exc.value.diagnostics[0].code == "REF001"
    assert "bad.json:" in str(exc.value) and "REF001" in str(exc.value)


def test_shipped_names_resolve():
    for path in shipped_maps():
        assert resolve_map(path.stem) == path
    assert str(resolve_map("no-such-city")) == "no-such-city"
