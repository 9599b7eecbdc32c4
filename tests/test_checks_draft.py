"""Draft validation: a half-drawn map is checked for what it has, not for what it lacks."""

from __future__ import annotations

import copy
import json

import pytest
from typer.testing import CliRunner

from mapkit.checks import validate_source
from mapkit.checks.draft import complete_draft, load_draft
from mapkit.cli import app
from tests.conftest import dumps

runner = CliRunner()

STATIONS_ONLY = {
    "format": "mapkit-map/1",
    "id": "draft",
    "name": "Draft",
    "stations": [
        {"id": "a", "x": 0, "y": 0},
        {"id": "b", "x": 10, "y": 0},
        {"id": "c", "x": 20, "y": 0},
        {"id": "d", "x": 10, "y": 10},
    ],
    "lines": [],
}


def _codes(doc, **kw) -> list[str]:
    return validate_source(dumps(doc), **kw).codes()


def test_stations_only_draft_is_clean_but_not_a_finished_map():
    assert _codes(STATIONS_ONLY, draft=True) == []
    assert _codes(STATIONS_ONLY) == ["SCH005"]
    no_key = {k: v for k, v in STATIONS_ONLY.items() if k != "lines"}
    assert _codes(no_key, draft=True) == []
    assert _codes(no_key) == ["SCH002"]


def test_stations_only_draft_still_checks_spacing():
    doc = copy.deepcopy(STATIONS_ONLY)
    doc["stations"].append({"id": "e", "x": 10.2, "y": 10})
    report = validate_source(dumps(doc), draft=True)
    assert report.codes() == ["GEO002"]
    assert report.diagnostics[0].pointer == "/stations/4"
    assert "'d' and 'e'" in report.diagnostics[0].message


def test_empty_and_single_station_drafts():
    assert _codes({**STATIONS_ONLY, "stations": []}, draft=True) == []
    assert _codes({**STATIONS_ONLY, "stations": STATIONS_ONLY["stations"][:1]}, draft=True) == []


def test_draft_still_reports_real_schema_and_reference_errors():
    doc = copy.deepcopy(STATIONS_ONLY)
    doc["stations"][1]["id"] = "a"
    assert _codes(doc, draft=True) == ["REF002"]
    doc = copy.deepcopy(STATIONS_ONLY)
    doc["stations"][0]["x"] = "left"
    assert _codes(doc, draft=True) == ["SCH004"]
    doc = copy.deepcopy(STATIONS_ONLY)
    doc["lines"] = [
        {"id": "A", "color": "#dd001f", "depot": {"x": -5, "y": 0}, "stops": ["a", "zz"]}
    ]
    assert _codes(doc, draft=True) == ["REF001"]


def test_line_without_windows_or_points_is_checked_for_the_rest():
    doc = copy.deepcopy(STATIONS_ONLY)
    doc["lines"] = [
        # passes through b without stopping there: GEO001 is still reported
        {"id": "A", "color": "#dd001f", "depot": {"x": -5, "y": 0}, "stops": ["a", "c"]},
    ]
    report = validate_source(dumps(doc), draft=True)
    assert sorted(report.codes()) == ["GEO001", "TOP001", "TOP001"]
    assert {d.pointer for d in report.diagnostics if d.code == "TOP001"} == {
        "/stations/1",
        "/stations/3",
    }
    assert sorted(_codes(doc)) == ["SCH002", "SCH002"]


def test_draft_skips_window_and_bonus_checks_only_for_lines_lacking_them():
    # DES001: six stops of its own and one window cannot be completed
    doc = copy.deepcopy(STATIONS_ONLY)
    doc["stations"] += [{"id": f"e{i}", "x": 30 + 10 * i, "y": 0} for i in range(4)]
    line = {
        "id": "A",
        "color": "#dd001f",
        "windows": 1,
        "points": {"first": 2, "others": 1},
        "depot": {"x": -5, "y": 0},
        "stops": ["a", "b", "c", "e0", "e1", "e2", "e3"],
    }
    other = {
        "id": "B",
        "color": "#1344ad",
        "depot": {"x": 10, "y": 20},
        "stops": ["d", "b"],
    }
    doc["lines"] = [line, other]
    assert "DES001" in _codes(doc, draft=True)
    del line["windows"]
    assert "DES001" not in _codes(doc, draft=True)


def test_complete_documents_are_unchanged_by_draft(tiny_doc):
    assert _codes(tiny_doc, draft=True) == _codes(tiny_doc)
    completed, gaps = complete_draft(tiny_doc)
    assert completed == tiny_doc
    assert not gaps.no_lines and not gaps.missing_windows and not gaps.missing_points


def test_load_draft_positions_point_into_the_draft_text():
    doc = copy.deepcopy(STATIONS_ONLY)
    doc["stations"][1]["id"] = "a"
    text = json.dumps(doc, indent=2)
    result, _ = load_draft(text)
    (diag,) = result.diagnostics
    line = text.splitlines()[diag.line - 1]
    assert '"id": "a"' in line and diag.pointer == "/stations/1/id"


@pytest.mark.parametrize("flag, code", [([], 1), (["--draft"], 0)])
def test_cli_validate_draft(tmp_path, flag, code):
    path = tmp_path / "draft.json"
    path.write_text(dumps(STATIONS_ONLY), encoding="utf-8")
    res = runner.invoke(app, ["validate", *flag, "--format", "json", str(path)])
    assert res.exit_code == code, res.output
    diags = json.loads(res.output)["files"][0]["diagnostics"]
    assert [d["code"] for d in diags] == ([] if flag else ["SCH005"])
