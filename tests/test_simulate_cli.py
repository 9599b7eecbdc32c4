"""``mapkit simulate`` through the CLI: output, exit codes, records, heatmap, --jobs."""

from __future__ import annotations

import json

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


def _run(*args: str):
    return runner.invoke(app, ["simulate", *args])


def test_json_report_parses(tiny_file):
    res = _run(str(tiny_file), "--games", "20", "--bots", "greedy,random", "--format", "json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert [s["bot"] for s in doc["seats"]] == ["greedy", "random"]
    assert set(doc["seats"][0]) >= {"bot", "mean", "sd", "p10", "p50", "p90", "win_rate"}
    assert doc["games"] == 20 and doc["players"] == 2
    assert [ln["line"] for ln in doc["lines"]] == ["A", "B"]
    assert [st["station"] for st in doc["stations"]] == ["a", "b", "c", "d"]


def test_text_report(tiny_file):
    res = _run(str(tiny_file), "--games", "5", "--seed", "2")
    assert res.exit_code == 0, res.output
    first = "Tiny (tiny): 5 games, solo, variant standard, seed 2, kernel engine\n"
    assert res.stdout.startswith(first)
    assert "Balance (Ludii, 1 = all seats equal): - (solo)" in res.stdout


@pytest.mark.parametrize(
    ("bots", "engine", "played"),
    [
        ("greedy,random", "auto", "kernel"),
        ("greedy,random", "checked", "checked"),
        ("clairvoyant", "auto", "checked"),
    ],
)
def test_the_report_names_the_engine_and_the_games_are_the_same(tiny_file, bots, engine, played):
    args = [str(tiny_file), "--games", "6", "--bots", bots, "--seed", "3", "-f", "json"]
    res = _run(*args, "--engine", engine)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["engine"] == played
    other = json.loads(_run(*args, "--engine", "checked").stdout)
    assert {**doc, "engine": "checked"} == other


def test_the_kernel_refuses_a_seat_it_cannot_play(tiny_file):
    res = _run(str(tiny_file), "--bots", "greedy,clairvoyant", "--engine", "kernel")
    assert res.exit_code == 2
    assert res.stderr == (
        "mapkit: --engine kernel: the kernel plays random, greedy, lookahead seats with their"
        " default options, not the clairvoyant bot: use the checked engine (or auto)\n"
    )


def test_jobs_do_not_change_the_report(tiny_file):
    args = [
        str(tiny_file),
        "--games",
        "24",
        "--bots",
        "lookahead,random",
        "--seed",
        "5",
        "-f",
        "json",
    ]
    one = _run(*args, "--jobs", "1")
    two = _run(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout


def test_seed_changes_the_games(tiny_file):
    a = _run(str(tiny_file), "--games", "10", "--bots", "random", "--seed", "1", "-f", "json")
    b = _run(str(tiny_file), "--games", "10", "--bots", "random", "--seed", "2", "-f", "json")
    assert a.stdout != b.stdout


def test_bad_map_exits_1(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    res = _run(str(bad))
    assert res.exit_code == 1
    assert "mapkit: " in res.output and "Traceback" not in res.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "nope"], "unknown bot 'nope'"),
        (["--bots", "random,random,random,random,random,random,random"], "1 to 6 bots"),
        (["--games", "0"], "--games must be from 1 to 1,000,000,000, not 0"),
        (["--jobs", "-1"], "--jobs must be 0"),
    ],
)
def test_usage_errors_exit_2(tiny_file, args, message):
    res = _run(str(tiny_file), *args)
    assert res.exit_code == 2
    assert message in res.output


def test_missing_map_exits_2(tmp_path):
    assert _run(str(tmp_path / "none.json")).exit_code == 2


def test_records_are_written_and_replay(tiny_file, tmp_path):
    from mapkit.engine.record import replay, result
    from mapkit.mapfile import load_map

    out = tmp_path / "games"
    args = ["--games", "3", "--bots", "greedy,clairvoyant", "--records", str(out), "-f", "json"]
    res = _run(str(tiny_file), *args)
    assert res.exit_code == 0, res.output
    files = sorted(p.name for p in out.iterdir())
    assert files == ["tiny-00001.json", "tiny-00002.json", "tiny-00003.json"]
    city = load_map(tiny_file)
    report = json.loads(res.stdout)
    total = 0.0
    for f in files:
        doc = json.loads((out / f).read_text(encoding="utf-8"))
        assert doc["players"] == ["greedy-1", "clairvoyant-2"] and "seed" in doc
        total += result(replay(city, doc))["players"][0]["score"]
    assert report["seats"][0]["mean"] == pytest.approx(total / 3, abs=1e-4)


def test_the_kernel_writes_the_records_of_the_checked_engine(tmp_path):
    """Paris, special stations: extra actions nest in the records (``then``) alike."""
    args = ["paris", "-n", "4", "--bots", "greedy,lookahead,random", "--variant", "special"]
    for engine in ("kernel", "checked"):
        res = _run(*args, "--engine", engine, "--records", str(tmp_path / engine))
        assert res.exit_code == 0, res.output
    kernel = sorted((tmp_path / "kernel").iterdir())
    assert [p.name for p in kernel] == [f"paris-0000{i}.json" for i in range(1, 5)]
    for p in kernel:
        assert p.read_bytes() == (tmp_path / "checked" / p.name).read_bytes()
    assert any('"then"' in p.read_text() for p in kernel)


def test_records_into_a_file_is_a_usage_error(tiny_file):
    assert _run(str(tiny_file), "--records", str(tiny_file)).exit_code == 2


def test_heatmap_svg(tiny_file, tmp_path):
    pytest.importorskip("mapkit.render.heatmap")
    svg = tmp_path / "heat.svg"
    res = _run(str(tiny_file), "--games", "4", "--heatmap", str(svg), "--heatmap-of", "interchange")
    assert res.exit_code == 0, res.output
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<?xml") or text.startswith("<svg")
    assert "interchange" in text


def test_heatmap_never_over_the_map(tiny_file):
    pytest.importorskip("mapkit.render.heatmap")
    res = _run(str(tiny_file), "--games", "2", "--heatmap", str(tiny_file))
    assert res.exit_code == 2
    assert "refusing to overwrite" in res.output


def test_special_variant_runs(benchmark_maps):
    res = _run(str(benchmark_maps / "metro-city.json"), "--games", "3", "--variant",
               "special", "--bots", "greedy,lookahead", "-f", "json")  # fmt: skip
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["variant"] == "special"


def test_progress_bar_only_on_a_terminal(monkeypatch, capsys):
    from mapkit.cli import simulate as sim

    monkeypatch.setattr(sim.sys.stderr, "isatty", lambda: False, raising=False)
    sim._Progress(10)(5)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sim.sys.stderr, "isatty", lambda: True, raising=False)
    bar = sim._Progress(10)
    bar(5)
    assert "[###############...............] 5/10 games" in capsys.readouterr().err
