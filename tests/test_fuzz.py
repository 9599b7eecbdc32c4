"""Issue 8, item 11: structure-aware fuzzing of maps and game records.

The shipped files are mutated the way people and programs break them (a key dropped or
misspelt, a value of the wrong type or far out of range, an id with a line break or another
case, a list grown past its bound, a file cut short or with stray bytes), then read by the
library and the CLI. The only outcomes allowed are the documented ones: diagnostics or
``MapError`` for maps, ``RecordError`` for records, exit 0/1 with one line on stderr from the
CLI. The quick schema check must never call a document valid that jsonschema refuses.

A few seconds in every run; ``MAPKIT_FUZZ=long python -m pytest tests/test_fuzz.py`` runs
50 times as many examples.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from mapkit.checks import validate_source
from mapkit.cli import app
from mapkit.engine.record import RecordError, parse_record, replay
from mapkit.mapfile import MapError, load_map, load_source
from mapkit.mapfile.schema import quick_check, validator
from tests.documents import containers

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "examples" / "games"
MAP_FILES = [*sorted((ROOT / "maps").glob("*.json")), *sorted((GAMES / "maps").glob("*.json"))]
MAPS = [json.loads(p.read_text(encoding="utf-8")) for p in MAP_FILES]
RECORD_FILES = sorted(GAMES.glob("*.json"))
RECORDS = [json.loads(p.read_text(encoding="utf-8")) for p in RECORD_FILES]
CITIES = {p.stem: load_map(p) for p in (GAMES / "maps").glob("*.json")}
SCALE = 50 if os.environ.get("MAPKIT_FUZZ") == "long" else 1
runner = CliRunner()


def budget(examples: int):
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([0, -1, 1e308, 10**300, 2**63, "", "A", "a\n", "B3", "forward", "free"])
    | st.text(max_size=6)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=5,
)


@st.composite
def mutated_doc(draw, seeds: list) -> object:
    """A shipped document with 1 to 4 structure-aware mutations."""
    doc = copy.deepcopy(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        _path, node = draw(st.sampled_from(list(containers(doc))))
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            continue
        key = draw(st.sampled_from(keys))
        op = draw(st.sampled_from(["drop", "value", "junk", "grow", "newline", "case", "swap"]))
        if op == "drop":
            del node[key]
        elif op == "value":
            node[key] = draw(values)
        elif op == "junk" and isinstance(node, dict):
            node[draw(st.sampled_from(["crosses", "direction", "then", "x", "loop", "extra"]))] = (
                draw(values)
            )
        elif op == "grow" and isinstance(node, list):
            node.extend(copy.deepcopy(node[key]) for _ in range(draw(st.sampled_from([1, 3, 500]))))
        elif op in ("newline", "case") and isinstance(node[key], str):
            node[key] = node[key] + "\n" if op == "newline" else node[key].swapcase()
        elif op == "swap" and isinstance(node, list) and len(node) > 1:
            other = draw(st.sampled_from(keys))
            node[key], node[other] = node[other], node[key]
    return doc


@st.composite
def as_bytes(draw, docs) -> bytes:
    """The document as a file: whole, cut short, with stray bytes, or with a BOM."""
    raw = json.dumps(draw(docs), allow_nan=True).encode()
    how = draw(st.sampled_from(["whole", "whole", "cut", "bytes", "bom"]))
    if how == "cut":
        return raw[: draw(st.integers(0, max(len(raw) - 1, 0)))]
    if how == "bytes":
        at = draw(st.integers(0, len(raw)))
        return raw[:at] + draw(st.binary(min_size=1, max_size=4)) + raw[at:]
    if how == "bom":
        return b"\xef\xbb\xbf" + raw
    return raw


def _quick_check_agrees(kind: str, doc: object) -> None:
    if quick_check(kind)(doc):
        assert not list(validator(kind).iter_errors(doc)), "quick check passed an invalid doc"


@budget(25)
@given(mutated_doc(MAPS))
def test_mutated_maps_give_diagnostics_only(doc):
    _quick_check_agrees("map", doc)
    data = json.dumps(doc, allow_nan=True)
    report = validate_source(data, "fuzz.json")
    assert all(d.code and d.message and d.line for d in report.diagnostics)
    result = load_source(data)
    if result.map is None:
        assert result.errors and str(MapError("fuzz.json", result.errors))


@budget(12)
@given(data=as_bytes(mutated_doc(MAPS)))
def test_mutated_map_files_through_the_cli(data, tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz") / "map.json"
    path.write_bytes(data)
    res = runner.invoke(app, ["validate", "--format", "json", str(path)])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code in (0, 1)
    assert json.loads(res.stdout)["files"][0]["valid"] == (res.exit_code == 0)


@budget(100)
@given(mutated_doc(RECORDS))
def test_mutated_records_are_replayed_or_refused(doc):
    _quick_check_agrees("game", doc)
    name = doc.get("map") if isinstance(doc, dict) else None
    city = CITIES.get(name) if isinstance(name, str) else None
    try:
        replay(city or CITIES["mini"], doc)
    except RecordError as exc:
        assert str(exc)


@budget(40)
@given(as_bytes(mutated_doc(RECORDS)))
def test_mutated_record_files_are_read_or_refused(data):
    try:
        doc = parse_record(data)
    except RecordError as exc:
        assert str(exc)
        return
    try:
        replay(CITIES.get(doc["map"]) or CITIES["mini"], doc)
    except RecordError as exc:
        assert str(exc)


@budget(10)
@given(data=as_bytes(mutated_doc(RECORDS)))
def test_mutated_record_files_through_the_cli(data, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "game.json"
    path.write_bytes(data)
    res = runner.invoke(app, ["replay", str(path), "--map", str(GAMES / "maps" / "spark.json")])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code in (0, 1)
    if res.exit_code:
        assert res.stderr.startswith("mapkit: ") and res.stderr.count("\n") == 1
