"""mapkit import graph: LOOM line graphs (GeoJSON) to maps, and a round trip from GTFS."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict

import pytest
from typer.testing import CliRunner

from mapkit.cli import app
from mapkit.importers import ImportConfig, ImportFailure, Network, network_to_map, read_gtfs
from mapkit.importers.draft import draft_lines
from mapkit.importers.graph import read_graph, read_graph_doc
from mapkit.importers.stations import merge_nearby
from tests.conftest import ROOT

GRAPH = ROOT / "tests" / "data" / "line-graph.geojson"
LA = ROOT / "tests" / "data" / "la-metro-rail.zip"
FLAT = ImportConfig(layout=False)


def test_the_hand_made_graph_gives_its_three_lines_with_a_ring():
    net = read_graph(GRAPH)
    assert [r.name for r in net.routes] == ["1", "2", "3"]
    assert len(net.places) == 10  # the bend node n9 is no station
    doc = network_to_map(net, FLAT).doc
    lines = {ln["id"]: ln for ln in doc["lines"]}
    assert lines["A"]["stops"] == ["west-end", "mill", "centre", "market", "east-end"]
    assert lines["A"]["color"] == "#e8001b"
    assert set(lines["B"]["stops"]) == {"north-end", "park", "centre", "market", "harbour", "pier"}
    assert lines["B"]["stops"][0] in ("north-end", "pier")
    assert lines["C"]["loop"] is True and set(lines["C"]["stops"]) == {
        "hill",
        "mill",
        "centre",
        "park",
    }
    assert doc["name"] == "line-graph"


def test_web_mercator_and_lon_lat_graphs_give_the_same_places():
    doc = json.loads(GRAPH.read_text())
    from mapkit.importers.graph import _mercator_to_lat_lon

    for f in doc["features"]:
        if f["geometry"]["type"] == "Point":
            lat, lon = _mercator_to_lat_lon(*f["geometry"]["coordinates"])
            f["geometry"]["coordinates"] = [lon, lat]
    a, b = read_graph(GRAPH), read_graph_doc(doc, "x")
    for pid, p in a.places.items():
        assert b.places[pid].lat == pytest.approx(p.lat, abs=1e-9)
        assert b.places[pid].lon == pytest.approx(p.lon, abs=1e-9)
    assert a.places["west"].lat == pytest.approx(48.0, abs=0.3)


def _line_graph(net: Network) -> dict:
    """The network's lines (as the importer merges them) as a LOOM line graph in lon/lat."""
    lines = draft_lines(net, [])
    on_edge: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for ln in lines:
        stops = ln.stops + ln.stops[:1] if ln.loop else ln.stops
        for a, b in itertools.pairwise(stops):
            key = (a, b) if a < b else (b, a)
            entry = {"id": ln.route.id, "label": ln.route.name, "color": ln.route.color[1:]}
            if entry not in on_edge[key]:
                on_edge[key].append(entry)
    used = sorted({s for key in on_edge for s in key})
    features = [
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [net.places[s].lon, net.places[s].lat]},
            "properties": {"id": f"n{s}", "station_id": s, "station_label": net.places[s].name},
        }
        for s in used
    ]
    features += [
        {
            "type": "Feature",
            "geometry": {"type": "LineString", "coordinates": []},
            "properties": {"from": f"n{a}", "to": f"n{b}", "lines": entries},
        }
        for (a, b), entries in sorted(on_edge.items())
    ]
    return {"type": "FeatureCollection", "features": features}


def test_la_round_trip_through_a_line_graph_gives_the_same_map():
    net = merge_nearby(read_gtfs(LA), 150)
    from_gtfs = network_to_map(net, FLAT).doc
    from_graph = network_to_map(read_graph_doc(_line_graph(net), "la.json", net.name), FLAT).doc

    def by_id(doc: dict) -> list[dict]:
        return sorted(doc["stations"], key=lambda s: s["id"])

    assert len(from_gtfs["stations"]) == 70
    assert by_id(from_graph) == by_id(from_gtfs)
    for a, b in zip(from_graph["lines"], from_gtfs["lines"], strict=True):
        assert a["name"] == b["name"] and a["color"] == b["color"]
        assert a["stops"] in (b["stops"], b["stops"][::-1])


def _failure(doc) -> str:
    with pytest.raises(ImportFailure) as exc:
        read_graph_doc(doc, "g.json")
    return str(exc.value)


def test_not_a_line_graph_is_refused():
    assert _failure([]) == "g.json is not a GeoJSON FeatureCollection"
    assert _failure({"type": "FeatureCollection", "features": 3}) == (
        "g.json: its FeatureCollection has no features list"
    )
    points_only = json.loads(GRAPH.read_text())
    points_only["features"] = [
        f for f in points_only["features"] if f["geometry"]["type"] == "Point"
    ]
    assert _failure(points_only) == (
        "g.json is not a line graph: no LineString feature has from, to and lines"
    )


def test_edges_to_missing_nodes_and_out_of_range_coordinates_are_named():
    doc = json.loads(GRAPH.read_text())
    doc["features"][-1]["properties"]["to"] = "ghost"
    assert _failure(doc) == "g.json: feature 21 runs to node 'ghost', which no Point feature has"
    doc = json.loads(GRAPH.read_text())
    doc["features"][0]["geometry"]["coordinates"] = [1e9, 5]
    assert _failure(doc) == (
        "g.json: coordinate (1e+09, 5) is out of range: neither lon/lat nor Web Mercator metres"
    )
    doc = json.loads(GRAPH.read_text())
    for f in doc["features"]:
        if f["geometry"]["type"] == "Point":
            f["geometry"]["coordinates"] = [10.0, 50.0]
    doc["features"][0]["geometry"]["coordinates"] = [10.0, 95.0]
    assert _failure(doc) == (
        "g.json: coordinate (10, 95) is out of range: outside lon -180..180, lat -90..90 "
        "(the other points are lon/lat)"
    )


def test_cli_graph_import_and_its_failures(tmp_path):
    runner = CliRunner()
    out = tmp_path / "g.json"
    res = runner.invoke(app, ["import", "graph", str(GRAPH), "-o", str(out), "--no-layout"])
    assert res.exit_code == 0, res.output
    assert "10 stations, 3 lines (A-C)" in res.stdout
    assert runner.invoke(app, ["validate", "--strict", str(out)]).exit_code == 0
    res = runner.invoke(
        app, ["import", "graph", str(GRAPH), "-o", str(out), "--routes", "1,9", "--no-layout"]
    )
    assert res.exit_code == 2
    assert res.stderr == "mapkit: no line 9 in the graph (its lines: 1, 2, 3)\n"
    bad = tmp_path / "bad.geojson"
    bad.write_text('{"type": "FeatureCollection", "features": [NaN]}')
    out2 = tmp_path / "none.json"
    res = runner.invoke(app, ["import", "graph", str(bad), "-o", str(out2)])
    assert res.exit_code == 1 and not out2.exists()
    assert res.stderr.startswith("mapkit: bad.geojson is not JSON")
