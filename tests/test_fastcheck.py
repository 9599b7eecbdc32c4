"""The quick schema check (a second copy of the schemas' verdict, for speed) agrees with
jsonschema: yes for every valid shipped file, no for every schema example in
examples/broken/; tests/test_fuzz.py holds it to agreement on mutated documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mapkit.mapfile.fastcheck import compile_check
from mapkit.mapfile.schema import quick_check, validator

ROOT = Path(__file__).resolve().parent.parent
VALID_MAPS = [
    *sorted((ROOT / "maps").glob("*.json")),
    *sorted((ROOT / "examples" / "games" / "maps").glob("*.json")),
    *sorted((ROOT / "benchmarks" / "maps").glob("*.json")),
    ROOT / "examples" / "broken" / "_base.json",
]
RECORDS = sorted((ROOT / "examples" / "games").glob("*.json"))
SCHEMA_BROKEN = sorted((ROOT / "examples" / "broken").glob("SCH00[2-6].json"))


@pytest.mark.parametrize("path", VALID_MAPS + RECORDS, ids=lambda p: p.name)
def test_valid_files_pass_quickly(path):
    kind = "game" if path in RECORDS else "map"
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert quick_check(kind)(doc)
    assert not list(validator(kind).iter_errors(doc))


@pytest.mark.parametrize("path", SCHEMA_BROKEN, ids=lambda p: p.name)
def test_schema_examples_fail_quickly(path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert not quick_check("map")(doc)


def test_unknown_keywords_and_cross_type_equality_defer_to_jsonschema():
    assert compile_check({"patternProperties": {"x": {}}})({}) is False
    check = compile_check({"enum": [1, "a"]})
    assert check(1) and check("a") and not check(True) and not check(1.0)
    unique = compile_check({"uniqueItems": True})
    assert unique(["a", "b"]) and not unique(["a", "a"]) and not unique([1, 2])
    newline = compile_check({"type": "string", "pattern": "^[a-z]+$"})
    assert newline("a\n")  # as jsonschema: search, and $ before a final line break
