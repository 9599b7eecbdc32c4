"""Bad input never crashes validate: mutated maps end in diagnostics, exit 0 or 1, no traceback."""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from mapkit.checks import validate_source
from mapkit.cli import app
from tests.documents import containers

ROOT = Path(__file__).resolve().parent.parent
SEEDS = [ROOT / "examples" / "broken" / "_base.json", *sorted((ROOT / "maps").glob("*.json"))]
DOCS = [json.loads(p.read_text(encoding="utf-8")) for p in SEEDS]
runner = CliRunner()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
weird_numbers = st.sampled_from(
    [1e308, -1e308, 1e-320, 0, -0.0, 2**63, 10**30, float("nan"), float("inf"), -float("inf")]
)
ids = st.text(min_size=0, max_size=10) | st.sampled_from(["a", "A", "B", "zz", ""])


@st.composite
def mutated(draw) -> str | bytes:
    doc = copy.deepcopy(draw(st.sampled_from(DOCS)))
    for _ in range(draw(st.integers(1, 3))):
        places = list(containers(doc))
        _, node = draw(st.sampled_from(places))
        keys = list(node.keys()) if isinstance(node, dict) else list(range(len(node)))
        op = draw(st.sampled_from(["drop", "type", "number", "id", "dup", "none"]))
        if not keys:
            continue
        k = draw(st.sampled_from(keys))
        if op == "drop":
            del node[k]
        elif op == "type":
            node[k] = draw(json_values)
        elif op == "number":
            node[k] = draw(weird_numbers)
        elif op == "id" and isinstance(node, dict):
            node["id"] = draw(ids)
        elif op == "dup" and isinstance(node, list):
            node.append(copy.deepcopy(node[k]))
        # "none": leave the document as it is
    text = json.dumps(doc, allow_nan=True)
    how = draw(st.sampled_from(["text", "truncate", "bytes"]))
    if how == "truncate":
        return text[: draw(st.integers(0, max(len(text) - 1, 0)))]
    if how == "bytes":
        raw = text.encode()
        at = draw(st.integers(0, len(raw)))
        return raw[:at] + draw(st.binary(min_size=1, max_size=6)) + raw[at:]
    return text


@settings(max_examples=60, deadline=None)  # tests/test_fuzz.py mutates more ways
@given(mutated())
def test_validate_source_never_raises(data) -> None:
    report = validate_source(data, "mutant.json")
    for d in report.diagnostics:
        assert d.code and d.message and d.line is not None
    assert report.valid == (report.errors == 0)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_cli_exits_0_or_1_without_traceback(data) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mutant.json"
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        result = runner.invoke(app, ["validate", "--format", "json", str(path)])
        expected = validate_source(path.read_bytes(), str(path))
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == (1 if expected.errors else 0)
    doc = json.loads(result.output)
    assert doc["files"][0]["valid"] == (expected.errors == 0)


@given(st.binary(max_size=200))
@settings(max_examples=60, deadline=None)
def test_random_bytes_are_invalid(data: bytes) -> None:
    report = validate_source(data, "noise.json")
    assert report.errors >= 1


def test_truncated_maps_are_invalid() -> None:
    text = SEEDS[0].read_text(encoding="utf-8").rstrip()
    for cut in range(0, len(text), 7):
        assert validate_source(text[:cut]).errors >= 1
