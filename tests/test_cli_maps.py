"""The map commands through the CLI: intersections, schema, validate's usage errors."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from mapkit.cli import app
from tests.conftest import dumps

runner = CliRunner()


@pytest.fixture
def tiny_file(tmp_path, tiny_doc):
    path = tmp_path / "tiny.json"
    path.write_text(dumps(tiny_doc), encoding="utf-8")
    return path


def test_intersections_json(tiny_file):
    res = runner.invoke(app, ["intersections", str(tiny_file), "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["stations"][0] == {"id": "b", "name": None, "lines": ["A", "B"], "count": 2}
    assert [s["count"] for s in data["stations"]] == [2, 1, 1, 1]
    assert data["histogram"] == {"1": 3, "2": 1}
    assert data["total"] == 5
    assert data["interchange_stations"] == 1


def test_intersections_csv_and_text(tiny_file):
    res = runner.invoke(app, ["intersections", str(tiny_file), "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(res.output)))
    assert rows[0] == {"id": "b", "name": "", "count": "2", "lines": "A B"}
    res = runner.invoke(app, ["intersections", str(tiny_file)])
    assert "total interchange potential: 5" in res.output
    assert "    2         1  #" in res.output


def test_intersections_on_benchmark_map_matches_the_transcription(benchmark_maps):
    res = runner.invoke(
        app, ["intersections", str(benchmark_maps / "metro-city.json"), "-f", "json"]
    )
    hist = json.loads(res.output)["histogram"]
    assert hist == {"1": 47, "2": 19, "3": 7, "4": 2, "5": 1}


def test_intersections_bad_map_exits_1(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    res = runner.invoke(app, ["intersections", str(bad)])
    assert res.exit_code == 1
    assert "JSON001" in res.output
    assert "Traceback" not in res.output


def test_schema_prints_the_map_schema():
    res = runner.invoke(app, ["schema"])
    assert res.exit_code == 0
    assert json.loads(res.output)["title"] == "mapkit map"
    res = runner.invoke(app, ["schema", "nonsense"])
    assert res.exit_code == 2


def test_validate_usage_errors_exit_2(tiny_file, tmp_path):
    assert runner.invoke(app, ["validate", str(tmp_path / "missing.json")]).exit_code == 2
    assert runner.invoke(app, ["validate", str(tmp_path)]).exit_code == 2
    assert runner.invoke(app, ["validate", str(tiny_file), "--format", "xml"]).exit_code == 2
    res = runner.invoke(app, ["validate", str(tiny_file), "--select", "NOPE1"])
    assert res.exit_code == 2 and "unknown rule code" in res.output


def test_validate_unparsable_exits_1_with_position(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "format": "mapkit-map/1",\n  "id": x\n}', encoding="utf-8")
    res = runner.invoke(app, ["validate", str(bad), "--format", "json"])
    assert res.exit_code == 1
    (diag,) = json.loads(res.output)["files"][0]["diagnostics"]
    assert (diag["code"], diag["line"], diag["column"]) == ("JSON001", 3, 9)


def test_validate_text_format_is_file_line_col(tmp_path, tiny_doc):
    tiny_doc["lines"][0]["stops"].append("nowhere")
    path = tmp_path / "m.json"
    path.write_text(dumps(tiny_doc), encoding="utf-8")
    res = runner.invoke(app, ["validate", str(path)])
    assert res.exit_code == 1
    assert f"{path}:47:9: error REF001 line 'A': stop 'nowhere' names no station" in res.output
    assert "hint: Add the station" in res.output


def test_python_dash_m_and_help_work():
    out = subprocess.run(
        [sys.executable, "-m", "mapkit", "--help"], capture_output=True, text=True, check=True
    )
    for command in ("validate", "intersections", "schema"):
        assert command in out.stdout


def test_strict_header_matches_the_exit_code():
    from tests.conftest import ROOT

    broken = ROOT / "examples" / "broken" / "DES003.json"
    res = runner.invoke(app, ["validate", str(broken), "--strict"])
    assert res.exit_code == 1
    assert f"{broken}: FAILED (--strict) (0 errors, 1 warnings)" in res.output
    res = runner.invoke(app, ["validate", str(broken)])
    assert res.exit_code == 0
    assert f"{broken}: ok (0 errors, 1 warnings)" in res.output


def test_render_and_simulate_warn_about_a_map_with_errors(tmp_path):
    from tests.conftest import ROOT

    broken = ROOT / "examples" / "broken" / "GEO001.json"
    res = runner.invoke(app, ["render", str(broken), "-o", str(tmp_path / "g.svg")])
    assert res.exit_code == 0
    assert "has 1 validation error(s) (GEO001); continuing" in res.stderr
    assert (tmp_path / "g.svg").exists()
    res = runner.invoke(app, ["simulate", str(broken), "--games", "2", "-f", "json"])
    assert res.exit_code == 0
    assert "GEO001" in res.stderr
    assert json.loads(res.stdout)["seats"]


def test_a_valid_map_gets_no_warning(tmp_path):
    res = runner.invoke(app, ["render", "berlin", "-o", str(tmp_path / "b.svg")])
    assert res.exit_code == 0
    assert "warning" not in res.stderr


def test_each_command_is_built_from_the_module_the_table_names():
    """``mapkit.cli.COMMANDS`` (what a run builds alone) says which module registers each
    command: every module registers exactly the commands the table gives it, and the whole
    command line has no other."""
    import typer.main

    from mapkit import cli

    modules = dict.fromkeys(cli.COMMANDS.values())
    for module in modules:
        built = typer.main.get_command(cli.build([module]))
        assert sorted(built.commands) == sorted(c for c, m in cli.COMMANDS.items() if m == module)
    assert sorted(typer.main.get_command(cli.app).commands) == sorted(cli.COMMANDS)


def test_a_run_builds_only_the_command_it_names(monkeypatch):
    """The first argument naming a command builds that command's module alone; help, an
    option, a typo or shell completion build the whole command line."""
    import typer.main

    from mapkit import cli

    def commands(argv: list[str]) -> list[str]:
        return sorted(typer.main.get_command(cli._for(argv)).commands)

    assert commands(["layout", "berlin", "-o", "x.json"]) == ["layout"]
    assert commands(["replay", "game.json"]) == ["play", "replay"]
    for argv in ([], ["--help"], ["--version"], ["valdate"]):
        assert commands(argv) == sorted(cli.COMMANDS)
    monkeypatch.setenv("_MAPKIT_COMPLETE", "complete_bash")
    assert commands(["layout"]) == sorted(cli.COMMANDS)
