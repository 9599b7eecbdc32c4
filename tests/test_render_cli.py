"""`mapkit render` end to end: outputs, names, safety and usage errors."""

from __future__ import annotations

import os
import re
import shutil
import sys
import types

import pytest
from typer.testing import CliRunner

from mapkit.cli import app
from mapkit.paper import PaperSheet, Scoring
from tests.test_render_common import FIXTURE, parse, with_class

runner = CliRunner()


@pytest.fixture
def fx(tmp_path):
    path = tmp_path / "fixture-city.json"
    shutil.copy(FIXTURE, path)
    return path


def run(*args):
    return runner.invoke(app, ["render", *map(str, args)])


def test_svg_next_to_the_map_by_default(fx):
    res = run(fx, "--labels")
    assert res.exit_code == 0, res.output
    out = fx.with_suffix(".svg")
    root = parse(out.read_text(encoding="utf-8"))
    assert len(with_class(root, "station", "g")) == 14
    assert f"wrote {out}" in res.output
    assert "14 of 14 station names placed" in res.output


def test_output_that_names_the_input_is_refused(fx):
    before = fx.read_bytes()
    res = run(fx, "-o", fx)
    assert res.exit_code == 2
    assert "refusing to overwrite the input file" in res.output
    assert fx.read_bytes() == before


def test_no_partial_file_on_a_failed_write(fx, monkeypatch):
    def broken(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("mapkit.atomic.os.fsync", broken)
    res = run(fx, "--pdf", "-o", fx.parent / "out.pdf")
    assert res.exit_code == 1
    assert "No space left on device" in res.output
    assert sorted(os.listdir(fx.parent)) == ["fixture-city.json"]


def test_several_maps_pdf_is_one_file(fx, tmp_path):
    other = tmp_path / "second.json"
    shutil.copy(FIXTURE, other)
    res = run(fx, other, "--pdf", "--copies", "2", "--paper", "letter")
    assert res.exit_code == 0, res.output
    pdf = tmp_path / "fixture-city-second.pdf"
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 4


def test_several_maps_svg_need_a_folder(fx, tmp_path):
    other = tmp_path / "second.json"
    shutil.copy(FIXTURE, other)
    res = run(fx, other, "-o", tmp_path / "one.svg")
    assert res.exit_code == 2
    assert "not a folder" in res.output
    outdir = tmp_path / "out"
    outdir.mkdir()
    res = run(fx, other, "--png", "--dpi", "40", "-o", outdir)
    assert res.exit_code == 0, res.output
    assert sorted(os.listdir(outdir)) == ["fixture-city.png", "second.png"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pdf", "--png"], "choose one of --pdf and --png"),
        (["--copies", "3"], "--copies makes a PDF pad: add --pdf"),
        (["--player", "ana"], "--record and --player go together"),
    ],
)
def test_usage_errors(fx, args, message):
    res = run(fx, *args)
    assert res.exit_code == 2
    assert message in res.output


def test_bad_map_exits_1_without_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "mapkit-map/1", "id": "x"}', encoding="utf-8")
    res = run(bad)
    assert res.exit_code == 1
    assert "Traceback" not in res.output
    assert "mapkit validate" in res.output
    assert not (tmp_path / "bad.svg").exists()


def test_missing_cairo_exits_1_with_install_hint(fx, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    res = run(fx, "--pdf")
    assert res.exit_code == 1
    assert "apt-get install libcairo2" in res.output
    assert not fx.with_suffix(".pdf").exists()


def test_shipped_map_by_name_goes_to_current_folder(tmp_path, monkeypatch):
    from mapkit.resources import data_dir

    if not (data_dir("maps") / "amsterdam.json").exists():
        pytest.skip("the shipped Amsterdam map is not there yet")
    monkeypatch.chdir(tmp_path)
    res = run("amsterdam")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "amsterdam.svg").is_file()


def _record(tmp_path, city_id="fixture-city"):
    import json

    path = tmp_path / "game.json"
    path.write_text(
        json.dumps({"format": "mapkit-game/1", "map": city_id, "players": ["ana", "ben"],
                    "rounds": []}),
        encoding="utf-8",
    )  # fmt: skip
    return path


def test_record_draws_the_engine_sheet(fx, tmp_path, monkeypatch):
    calls = []

    def sheet_after(city, record, player, round=None):
        calls.append((city.id, record["players"], player, round))
        return PaperSheet(
            player=player,
            round=round,
            crosses=frozenset({"n1", "n2"}),
            windows={"A": ("3",)},
            scoring=Scoring(0, 0, 6, -6),
        )

    fake = types.ModuleType("mapkit.engine.paper")
    fake.sheet_after = sheet_after
    monkeypatch.setitem(sys.modules, "mapkit.engine.paper", fake)
    rec = _record(tmp_path)
    res = run(fx, "--record", rec, "--player", "ben", "--round", "4")
    assert res.exit_code == 0, res.output
    assert calls == [("fixture-city", ["ana", "ben"], "ben", 4)]
    root = parse((tmp_path / "fixture-city-ben-round4.svg").read_text(encoding="utf-8"))
    assert len(with_class(root, "pen-cross")) == 2
    assert ["".join(t.itertext()) for t in with_class(root, "pen-score")] == ["0", "0", "6", "-6"]


def test_record_errors(fx, tmp_path):
    rec = _record(tmp_path)
    res = run(fx, "--record", rec, "--player", "zoe")
    assert res.exit_code == 1
    assert "no player 'zoe'" in res.output
    res = run(fx, "--record", _record(tmp_path, "berlin"), "--player", "ana")
    assert res.exit_code == 1
    assert "is a game on map 'berlin'" in res.output


def test_record_end_to_end_with_the_engine(fx, tmp_path):
    """A bots-only game recorded by `mapkit play`, then drawn for one player and round."""
    import json

    pytest.importorskip("mapkit.engine.paper")
    from mapkit.engine.paper import sheet_after
    from mapkit.mapfile import load_map

    rec = tmp_path / "game.json"
    res = runner.invoke(
        app,
        ["play", str(fx), "--no-human", "--bots", "greedy,random", "--seed", "1",
         "--record", str(rec)],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    res = run(fx, "--record", rec, "--player", "greedy-1", "--round", "5")
    assert res.exit_code == 0, res.output
    root = parse((tmp_path / "fixture-city-greedy-1-round5.svg").read_text(encoding="utf-8"))
    want = sheet_after(load_map(fx), json.loads(rec.read_text()), "greedy-1", round=5)
    crosses = {c.get("data-station") for c in with_class(root, "pen-cross", "g")}
    assert crosses == set(want.crosses) - set(want.interchanges)
    windows = [t for t in with_class(root, "pen-window", "text")]
    assert len(windows) == sum(len(v) for v in want.windows.values())
    assert with_class(root, "pen-score") == []  # the game is not over after round 5
    res = run(fx, "--record", rec, "--player", "greedy-1", "-o", tmp_path / "end.svg")
    assert res.exit_code == 0, res.output
    end = parse((tmp_path / "end.svg").read_text(encoding="utf-8"))
    assert len(with_class(end, "pen-score")) == 4
