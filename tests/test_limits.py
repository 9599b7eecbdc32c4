"""Issue 8, items 3 and 5: bounds instead of exhaustion; ids a person can tell apart."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit.checks import validate_path, validate_source
from mapkit.cli import app
from mapkit.mapfile import MAX_FILE_BYTES, load_source
from mapkit.mapfile.schema import load_schema

ROOT = Path(__file__).resolve().parent.parent
BASE = json.loads((ROOT / "examples" / "broken" / "_base.json").read_text())
GAMES = ROOT / "examples" / "games"
runner = CliRunner()


def _bounds_map() -> dict:
    spec = importlib.util.spec_from_file_location("bounds_map", ROOT / "benchmarks/bounds_map.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.bounds_map()


def test_the_schema_bounds_every_list_and_number():
    schema = load_schema("map")
    defs, top = schema["definitions"], schema["properties"]
    assert top["stations"]["maxItems"] == 400 and top["lines"]["maxItems"] == 26
    assert defs["line"]["properties"]["stops"]["maxItems"] == 100
    assert defs["line"]["properties"]["shape"]["maxItems"] == 400
    assert (defs["coordinate"]["minimum"], defs["coordinate"]["maximum"]) == (-100000, 100000)
    points = defs["line"]["properties"]["points"]["properties"]
    assert points["first"]["maximum"] == points["others"]["maximum"] == 100
    assert defs["line"]["properties"]["windows"]["maximum"] == 8
    assert str(MAX_FILE_BYTES) in schema["$comment"]
    game = load_schema("game")
    assert game["properties"]["rounds"]["maxItems"] == 1000
    assert game["definitions"]["move"]["properties"]["crosses"]["maximum"] == 6


def test_a_map_at_the_bounds_is_accepted():
    """Only the reading layers here: how long the whole check takes is benchmarks' business."""
    doc = _bounds_map()
    text = json.dumps(doc, indent=1)
    assert len(text) < MAX_FILE_BYTES
    result = load_source(text)
    assert result.diagnostics == [] and result.map is not None
    assert len(result.map.stations) == 400 and len(result.map.lines) == 26


def _one_past(what: str) -> dict:
    doc = copy.deepcopy(BASE)
    line = doc["lines"][0]
    if what == "stations":
        doc["stations"] += [{"id": f"x{i}", "x": i, "y": 90} for i in range(400 - 9 + 1)]
    elif what == "lines":
        doc["lines"] += [copy.deepcopy(line) | {"id": f"L{i}"} for i in range(27 - 3)]
    elif what == "stops":
        line["stops"] = [f"s{i}" for i in range(101)]
    elif what == "shape":
        line["shape"] = [[i, 0] for i in range(401)]
    return doc


@pytest.mark.parametrize("what", ["stations", "lines", "stops", "shape"])
def test_one_past_a_bound_is_sch005(what):
    codes = [d.code for d in load_source(json.dumps(_one_past(what))).diagnostics]
    assert codes == ["SCH005"]


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("stations", 0, "x"), 1e300),
        (("stations", 0, "y"), -(10**250)),
        (("lines", 0, "points", "first"), 10**200),
        (("lines", 0, "depot", "max_width_mm"), 1e308),
        (("lines", 0, "windows"), 10**100),
    ],
)
def test_huge_numbers_are_refused_by_the_schema_not_overflowed(where, value):
    doc = copy.deepcopy(BASE)
    node = doc
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    report = validate_source(json.dumps(doc))
    assert report.codes() == ["SCH005"]


def test_dev_zero_is_refused_at_once():
    report = validate_path("/dev/zero")
    assert report.codes() == ["JSON006"]
    assert report.diagnostics[0].message.startswith(f"the file holds more than {MAX_FILE_BYTES}")


def test_a_file_over_the_limit_is_json006(tmp_path):
    """JSON006's example: generated, since a stored one would be over a megabyte."""
    path = tmp_path / "big.json"
    doc = copy.deepcopy(BASE)
    doc["description"] = "x" * MAX_FILE_BYTES
    path.write_text(json.dumps(doc))
    res = runner.invoke(app, ["validate", str(path)])
    assert res.exit_code == 1
    assert f"{path}:1:1: error JSON006 the file holds more than" in res.stdout


def test_a_record_over_the_limit_or_from_dev_zero_is_refused():
    res = runner.invoke(app, ["replay", "/dev/zero", "--map", str(GAMES / "maps/mini.json")])
    assert res.exit_code == 1
    assert res.stderr == (
        f"mapkit: /dev/zero: the file holds more than {MAX_FILE_BYTES} bytes: a game record"
        " is at most 1 MiB\n"
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("seed", 10**30, "'seed' must be an integer from -2^63 to 2^64-1"),
        (
            "crosses",
            10**30,
            "crosses is a whole number from 0 to 6, not 1000000000000000000000000000000",
        ),
    ],
)
def test_huge_numbers_in_records_are_refused(tmp_path, field, value, message):
    doc = json.loads((GAMES / "01-solo-mini.json").read_text())
    if field == "seed":
        doc["seed"] = value
    else:
        doc["rounds"][0]["moves"][0]["crosses"] = value
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc))
    res = runner.invoke(app, ["replay", str(path), "--map", str(GAMES / "maps/mini.json")])
    assert res.exit_code == 1 and message in res.stderr


# -- ids ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "pointer"),
    [
        (("id",), "/id"),
        (("lines", 1, "id"), "/lines/1/id"),
        (("stations", 0, "id"), "/stations/0/id"),
    ],
)
def test_an_id_ending_in_a_newline_is_refused(where, pointer):
    doc = copy.deepcopy(BASE)
    node = doc
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] += "\n"
    if where[0] == "stations":
        doc["lines"][0]["stops"][0] += "\n"
    report = validate_source(json.dumps(doc))
    assert [(d.code, d.pointer) for d in report.diagnostics] == [("REF008", pointer)]
    assert "ends in a line break" in report.diagnostics[0].message


def test_station_ids_differing_only_by_case_are_warned_about():
    doc = copy.deepcopy(BASE)
    doc["stations"].append({"id": "A", "x": 40, "y": 20})
    doc["lines"][0]["stops"].append("A")
    report = validate_source(json.dumps(doc), select=["REF"])
    assert [(d.code, d.severity.value, d.message) for d in report.diagnostics] == [
        ("REF009", "warning", "station ids 'a' and 'A' differ only by case")
    ]
