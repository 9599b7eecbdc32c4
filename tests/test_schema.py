"""The JSON Schema: every property described, core objects closed, good maps accepted."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft7Validator

from mapkit.mapfile import load_source
from mapkit.mapfile.schema import load_schema
from mapkit.resources import data_dir
from tests.conftest import ROOT, dumps


def _walk(node, path="#"):
    if isinstance(node, dict):
        yield path, node
        for key, child in node.items():
            yield from _walk(child, f"{path}/{key}")
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from _walk(child, f"{path}/{i}")


def test_schema_is_valid_draft7():
    Draft7Validator.check_schema(load_schema())
    assert load_schema()["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_every_property_has_a_description():
    missing = []
    for path, node in _walk(load_schema()):
        for name, prop in node.get("properties", {}).items():
            if "description" not in prop:
                missing.append(f"{path}/properties/{name}")
    assert missing == []


@pytest.mark.parametrize("path", ["#", "#/definitions/station", "#/definitions/line"])
def test_core_objects_are_closed(path):
    node = load_schema()
    for part in path.split("/")[1:]:
        node = node[part]
    assert node["additionalProperties"] is False


def _maps():
    return (
        sorted(data_dir("maps").glob("*.json"))
        + sorted((ROOT / "examples").glob("*.json"))
        + sorted((ROOT / "benchmarks" / "maps").glob("*.json"))
    )


@pytest.mark.parametrize("path", _maps(), ids=lambda p: p.name)
def test_good_maps_pass_the_schema(path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    errors = list(Draft7Validator(load_schema()).iter_errors(doc))
    assert errors == []


def test_the_spec_example_is_accepted(tiny_doc):
    assert load_source(dumps(tiny_doc)).map is not None


def _diag(doc_or_text):
    text = doc_or_text if isinstance(doc_or_text, str) else dumps(doc_or_text)
    return [(d.code, d.pointer) for d in load_source(text).diagnostics]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda d: d.pop("name"), [("SCH002", "")]),
        (lambda d: d["stations"][1].pop("y"), [("SCH002", "/stations/1")]),
        (lambda d: d["lines"][0].update(colour="#000000"), [("SCH003", "/lines/0/colour")]),
        (lambda d: d.update(extra=1), [("SCH003", "/extra")]),
        (lambda d: d["stations"][0].update(x="3"), [("SCH004", "/stations/0/x")]),
        (lambda d: d["lines"][0].update(windows=9), [("SCH005", "/lines/0/windows")]),
        (lambda d: d["lines"][0].update(windows=0), [("SCH005", "/lines/0/windows")]),
        (lambda d: d["lines"][0].update(windows=2.5), [("SCH004", "/lines/0/windows")]),
        (lambda d: d["lines"][0]["points"].update(first=-1), [("SCH005", "/lines/0/points/first")]),
        (lambda d: d["lines"][0].update(color="red"), [("SCH006", "/lines/0/color")]),
        (lambda d: d["lines"][0].update(id="a"), [("SCH006", "/lines/0/id")]),
        (lambda d: d.update(id="Berlin"), [("SCH006", "/id")]),
        (lambda d: d["stations"][0].update(id="bad id"), [("SCH006", "/stations/0/id")]),
        (lambda d: d["lines"][1].update(stops=["d"]), [("SCH005", "/lines/1/stops")]),
        (lambda d: d.update(lines=[]), [("SCH005", "/lines")]),
        (lambda d: d["stations"][0].update(special="yes"), [("SCH004", "/stations/0/special")]),
    ],
)
def test_schema_violations_have_codes_and_pointers(tiny_doc, mutate, expected):
    mutate(tiny_doc)
    assert _diag(tiny_doc) == expected


def test_wrong_format_names_the_supported_version(tiny_doc):
    tiny_doc["format"] = "mapkit-map/2"
    (d,) = load_source(dumps(tiny_doc)).diagnostics
    assert d.code == "SCH001"
    assert '"mapkit-map/2"' in d.message and '"mapkit-map/1"' in d.message
    assert (d.line, d.column) == (3, 13)


def test_schema_message_names_the_element(tiny_doc):
    tiny_doc["lines"][1]["windows"] = 12
    (d,) = load_source(dumps(tiny_doc)).diagnostics
    assert d.message == "line 'B': 12 is above the maximum 8"


def test_top_level_not_an_object():
    (d,) = load_source("[1, 2]").diagnostics
    assert d.code == "SCH004" and d.pointer == ""
