"""benchmarks/octi_baseline.py (the benchmark's reimplementation of octi's published method):
its drawing of a small network is octilinear, keeps the topology and every station."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

from mapkit.layout.report import measure, off_octilinear
from mapkit.mapfile.model import build_map

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import octi_baseline as ob  # noqa: E402


def _doc() -> dict:
    """Two lines crossing at a hub, drawn off the eight directions, with degree-2 stops."""
    xy = {
        "w2": (0.0, 1.3), "w1": (1.1, 1.0), "hub": (2.2, 1.2), "e1": (3.1, 0.7), "e2": (4.3, 1.0),
        "n1": (2.5, 0.1), "s1": (1.9, 2.3), "s2": (2.4, 3.2),
    }  # fmt: skip
    line = {"windows": 1, "points": {"first": 2, "others": 1}}
    return {
        "format": "mapkit-map/1", "id": "cross", "name": "Cross",
        "stations": [{"id": k, "x": x, "y": y} for k, (x, y) in xy.items()],
        "lines": [
            {"id": "A", "color": "#dd001f", **line, "depot": {"x": -1.0, "y": 1.3},
             "stops": ["w2", "w1", "hub", "e1", "e2"]},
            {"id": "B", "color": "#1344ad", **line, "depot": {"x": 2.5, "y": -1.0},
             "stops": ["n1", "hub", "s1", "s2"]},
        ],
    }  # fmt: skip


def test_contracted_graph_and_ldeg_order() -> None:
    city = build_map(_doc())
    g = ob.line_graph(city)
    assert g.anchors == ["e2", "hub", "n1", "s2", "w2"]
    assert sorted(c.stations[1:-1] for c in g.chains) == [[], ["e1"], ["s1"], ["w1"]]
    assert [g.ldeg(s) for s in g.anchors] == [1, 4, 1, 1, 1]
    # the hub first: its four chains are the first (and only) ones in the order
    assert sorted(ob.ldeg_order(g)) == [0, 1, 2, 3]


def test_drawing_is_octilinear_and_keeps_topology() -> None:
    doc = _doc()
    city = build_map(doc)
    for share in ob.GRID_SIZES:
        d = ob.octilinearize(city, doc, share)
        assert {s.id for s in d.city.stations} == {s.id for s in city.stations}
        rep = measure(city, d.city, d.seconds)
        assert rep.octilinear_share == 1.0
        assert rep.hairpins == 0
        assert rep.bend_score == 0  # both lines straight through the hub
        assert rep.topology_violations == 0
        for ln in d.city.lines:
            shape = ln.shape[1:]
            assert all(off_octilinear(q[0] - p[0], q[1] - p[1]) < 1e-6
                       for p, q in itertools.pairwise(shape))  # fmt: skip
            # every stop on the line's drawn path, in order
            on = [p for p in shape if any(p == d.city.station(s).xy for s in ln.stops)]
            assert on == [d.city.station(s).xy for s in ln.stops]
