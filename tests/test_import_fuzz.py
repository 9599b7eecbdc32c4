"""Bad input never crashes an importer: it either makes a map the schema accepts or raises
ImportFailure (one line for the user)."""

from __future__ import annotations

import io
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mapkit.importers import ImportConfig, ImportFailure, network_to_map, read_gtfs
from mapkit.importers.graph import read_graph_doc
from mapkit.mapfile import load_source, writer
from tests.feeds import CROSS_ROUTES, CROSS_STATIONS, feed_files, zipped

FLAT = ImportConfig(layout=False)
FILES = feed_files(CROSS_STATIONS, CROSS_ROUTES)
SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)

WORDS = st.sampled_from(
    ["", "0", "1", "-1", "12", "400", "1e400", "nan", "inf", "-91", "181", "48.0", "11.0",
     "S0", "P0", "P1", "r1", "r2", "x", '"', "a,b", "\x00", "é", "2"]
)  # fmt: skip


def _outcome(data: bytes) -> None:
    try:
        result = network_to_map(read_gtfs(io.BytesIO(data)), FLAT)
    except ImportFailure as exc:
        text = str(exc)
        assert text and "\n" not in text and exc.exit_code in (1, 2)
        return
    loaded = load_source(writer.dumps(result.doc))
    assert loaded.map is not None, loaded.diagnostics


@SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes_are_refused(data):
    _outcome(data)


@SETTINGS
@given(st.data())
def test_mutated_feeds_import_or_fail_cleanly(data):
    files: dict[str, str | bytes] = {}
    for name, text in FILES.items():
        choice = data.draw(st.sampled_from(["keep", "keep", "keep", "mutate", "drop", "bytes"]))
        if choice == "drop":
            continue
        if choice == "bytes":
            files[name] = data.draw(st.binary(max_size=200))
            continue
        if choice == "mutate":
            lines = text.split("\n")
            for _ in range(data.draw(st.integers(1, 4))):
                row = data.draw(st.integers(0, len(lines) - 1))
                cells = lines[row].split(",")
                col = data.draw(st.integers(0, len(cells) - 1))
                cells[col] = data.draw(WORDS)
                lines[row] = ",".join(cells)
            text = "\n".join(lines)
        files[name] = text
    _outcome(zipped(files))


def _graph_outcome(doc) -> None:
    try:
        result = network_to_map(read_graph_doc(doc, "g.json"), FLAT)
    except ImportFailure as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert load_source(writer.dumps(result.doc)).map is not None


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**9), 10**9) | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)  # fmt: skip


def _feature(kind, props, coords):
    return {
        "type": "Feature",
        "geometry": {"type": kind, "coordinates": coords},
        "properties": props,
    }


@SETTINGS
@given(st.data())
def test_random_line_graphs_import_or_fail_cleanly(data):
    n = data.draw(st.integers(1, 6))
    coord = st.floats(-1e8, 1e8, allow_nan=False) | st.floats(-180, 180)
    feats = []
    for i in range(n):
        props = {"id": str(i)}
        if data.draw(st.booleans()):
            props["station_id"] = data.draw(st.sampled_from(["a", "b", "c", str(i)]))
            props["station_label"] = data.draw(st.text(max_size=70))
        feats.append(_feature("Point", props, [data.draw(coord), data.draw(coord)]))
    for _ in range(data.draw(st.integers(0, 8))):
        lines = data.draw(
            st.lists(
                st.fixed_dictionaries(
                    {
                        "id": st.sampled_from(["1", "2", "3"]),
                        "color": st.sampled_from(["ff0000", "zz", "#00ff00", ""]),
                    }
                ),
                max_size=3,
            )
        )
        props = {
            "from": str(data.draw(st.integers(0, n))),
            "to": str(data.draw(st.integers(0, n))),
            "lines": lines,
        }
        feats.append(_feature("LineString", props, [[0, 0], [1, 1]]))
    if data.draw(st.booleans()):
        feats.append(data.draw(JSON))
    _graph_outcome({"type": "FeatureCollection", "features": feats})


@SETTINGS
@given(JSON)
def test_any_json_is_a_line_graph_or_refused(doc):
    _graph_outcome({"type": "FeatureCollection", "features": [doc]})
    _graph_outcome(doc)
    _graph_outcome({"type": "FeatureCollection", "features": doc})


def test_parse_refuses_nan_and_deep_nesting():
    from mapkit.importers.graph import parse_geojson

    for raw, words in [
        (b'{"type": "FeatureCollection", "features": [NaN]}', "is not JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "nests too deeply"),
        (b"\xff\xfe", "is not UTF-8"),
        (json.dumps({"type": "Feature"}).encode(), "is not a GeoJSON FeatureCollection"),
    ]:
        try:
            parse_geojson(raw, "g.json")
        except ImportFailure as exc:
            assert words in str(exc), (raw[:20], str(exc))
        else:
            raise AssertionError(raw[:20])
