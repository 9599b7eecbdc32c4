"""mapkit tune and mapkit compare on tiny maps where the right answer is known."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit.cli import app
from mapkit.design.compare import compare_maps
from mapkit.design.intervals import mean_ci, proportion_ci
from mapkit.design.profile import LineProfile, Profile
from mapkit.design.tune import (
    Targets,
    TuneConfig,
    city_of,
    decisions_hold,
    fair_firsts,
    guard_failures,
    objective,
    tune,
)
from mapkit.mapfile import load_map

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "examples" / "games" / "maps" / "mini.json"
runner = CliRunner()


def mini() -> dict:
    return json.loads(MINI.read_text())


def firsts(doc: dict) -> dict[str, int]:
    return {ln["id"]: ln["points"]["first"] for ln in doc["lines"]}


def test_mean_target_is_reached_with_points() -> None:
    cfg = TuneConfig(games=60, seed=1, windows=False, decision_games=0)
    r = tune(mini(), Targets(mean=10), cfg)
    assert r.before.mean.value < 8 and abs(r.after.mean.value - 10) < 0.5
    assert r.objective_after < r.objective_before and r.steps
    assert all(f > 3 for f in firsts(r.doc).values())  # both bonuses raised


def test_per_line_gives_the_harder_line_the_bigger_bonus() -> None:
    # in mini, B (4 stops, 2 windows) is completed later than A (3 stops, 1 window)
    doc = mini()
    doc["lines"][0]["points"] = {"first": 6, "others": 3}
    doc["lines"][1]["points"] = {"first": 2, "others": 1}
    cfg = TuneConfig(games=60, seed=1, windows=False, decision_games=0)
    r = tune(doc, Targets(per_line=True), cfg)
    assert r.after.lines["B"].difficulty > r.after.lines["A"].difficulty
    assert firsts(r.doc)["B"] > firsts(r.doc)["A"]
    fair = fair_firsts(r.after, 8)
    # greedy chases bigger bonuses, so difficulty moves with the points: within 1.5, not exact
    assert all(abs(firsts(r.doc)[k] - fair[k]) <= 1.5 for k in fair)


def test_guards_keep_every_line_completable() -> None:
    cfg = TuneConfig(games=60, seed=1, points=False, decision_games=0)
    r = tune(mini(), Targets(mean=-20), cfg)  # cutting windows would lower the mean
    assert all(ln.completion.value >= cfg.min_completion for ln in r.after.lines.values())


def test_decisions_guard_undoes_edits_that_flatten_choices() -> None:
    cfg = TuneConfig(games=60, seed=1, decision_games=3)
    r = tune(mini(), Targets(per_line=True), cfg)
    assert r.decisions_after is not None and r.decisions_before is not None
    assert decisions_hold(r.decisions_before, r.decisions_after, Targets())
    assert r.undone  # adding windows to the harder line flattened the choices: edits undone


def test_tune_is_deterministic_and_writes_a_valid_new_map(tmp_path: Path) -> None:
    outs = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        report = str(tmp_path / f"r{name}")
        args = ["tune", str(MINI), "-o", str(out), "--mean", "9", "-n", "40",
                "--decision-games", "0", "--seed", "3", "--report", report]  # fmt: skip
        res = runner.invoke(app, args)
        assert res.exit_code == 0, res.output
        assert "greedy solo mean" in res.stdout
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    tuned = json.loads(outs[0])
    assert city_of(tuned, validate=True) is not None
    assert (tmp_path / tuned["$schema"]).resolve() == ROOT / "schemas" / "map.schema.json"
    rep = json.loads((tmp_path / "ra.json").read_text())
    assert rep["edits"] and rep["rows"][0]["figure"] == "greedy solo mean"


def test_tune_refuses_its_input_and_needs_a_target(tmp_path: Path) -> None:
    before = MINI.read_bytes()
    assert runner.invoke(app, ["tune", str(MINI), "-o", str(MINI), "--mean", "5"]).exit_code == 2
    assert runner.invoke(app, ["tune", str(MINI), "-o", str(tmp_path / "x.json")]).exit_code == 2
    assert MINI.read_bytes() == before
    out = str(tmp_path / "x.json")
    assert (
        runner.invoke(
            app, ["tune", str(MINI), "-o", out, "--mean", "5", "--engine", "spark"]
        ).exit_code
        == 2
    )


def test_station_moves_keep_the_map_valid() -> None:
    cfg = TuneConfig(games=30, seed=1, windows=False, points=False, move_stations=True,
                     steps=1, decision_games=0)  # fmt: skip
    r = tune(mini(), Targets(mean=7.5), cfg)
    assert city_of(r.doc, validate=True) is not None


def test_compare_same_map_has_no_significant_difference() -> None:
    city = load_map(MINI)
    cmp = compare_maps(city, city, 60, seed=2)
    assert not any(r.significant for r in cmp.rows)
    assert cmp.rows[0].diff.value == 0


def test_compare_sees_a_raised_bonus() -> None:
    doc = mini()
    richer = copy.deepcopy(doc)
    richer["lines"][0]["points"] = {"first": 6, "others": 3}
    a, b = city_of(doc, False), city_of(richer, False)
    assert a is not None and b is not None
    cmp = compare_maps(a, b, 60, seed=2)
    rows = {r.figure: r for r in cmp.rows}
    assert rows["greedy solo mean"].significant and rows["greedy solo mean"].diff.value > 2
    assert rows["line A points paid"].significant
    assert not rows["line B completed"].significant


def test_cli_compare_json() -> None:
    res = runner.invoke(app, ["compare", str(MINI), str(MINI), "-n", "20", "-f", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["games"] == 20 and all(not r["significant"] for r in doc["rows"])


def _profile(firsts: dict[str, int], difficulty: dict[str, float], points: dict[str, float],
             greedy: list[int], random: list[int]) -> Profile:  # fmt: skip
    lines = {
        k: LineProfile(
            k, 2, f, 1, proportion_ci(9, 10), mean_ci([points[k]] * 3), difficulty[k], []
        )
        for k, f in firsts.items()
    }
    return Profile("hand", len(greedy), 1, greedy, random, lines)


def test_objective_terms_by_hand() -> None:
    p = _profile({"A": 2, "B": 6}, {"A": 0.6, "B": 0.2}, {"A": 2, "B": 6},
                 [10, 12, 14], [0, 2, 4])  # fmt: skip
    assert fair_firsts(p) == pytest.approx({"A": 6.0, "B": 2.0})
    assert objective(p, Targets(per_line=True), 8) == pytest.approx((16 + 16) / 2)
    assert objective(p, Targets(mean=10), 8) == pytest.approx(1.0)  # ((12 - 10) / 2)^2
    # rows (0, 10), (2, 12), (4, 14): SS total 166, decks 2 * (4 + 0 + 4) = 16, bots 150
    assert p.luck == pytest.approx(16 / 166)
    assert objective(p, Targets(max_luck=0.5), 8) == 0
    assert objective(p, Targets(max_luck=0.0), 8) == pytest.approx(100 * p.luck**2 / 1e-4)


def test_guards_flag_uncompletable_and_dominant_lines() -> None:
    ids = "ABCDE"
    pts = dict(zip(ids, (0.2, 9, 0.2, 0.2, 0.2), strict=True))
    p = _profile(dict.fromkeys(ids, 3), dict.fromkeys(ids, 0.5), pts, [1, 2], [0, 1])
    cfg = TuneConfig()
    assert guard_failures(p, cfg) == {"line B dominant"}  # 9 > 3 x the mean 1.96
    p.lines["A"].completion = proportion_ci(1, 50)
    assert guard_failures(p, cfg) == {"line B dominant", "line A not completable"}
