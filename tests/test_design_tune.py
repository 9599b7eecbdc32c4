"""mapkit tune and mapkit compare on tiny maps where the right answer is known."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit.cli import app
from mapkit.design.band import Band, ShippedBand, bonus_per_window, mean_per_window
from mapkit.design.compare import compare_maps
from mapkit.design.intervals import mean_ci, proportion_ci
from mapkit.design.profile import LineProfile, Profile
from mapkit.design.tune import (
    Aim,
    Targets,
    Task,
    TuneConfig,
    TuneError,
    city_of,
    decisions_hold,
    evaluate,
    guard_failures,
    line_terms,
    objective,
    tune,
    validation_errors,
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
    assert city_of(tuned) is not None
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


def test_compare_same_map_has_no_significant_difference() -> None:
    city = load_map(MINI)
    cmp = compare_maps(city, city, 60, seed=2)
    assert not any(r.significant for r in cmp.rows)
    assert cmp.rows[0].diff.value == 0


def test_compare_sees_a_raised_bonus() -> None:
    doc = mini()
    richer = copy.deepcopy(doc)
    richer["lines"][0]["points"] = {"first": 6, "others": 3}
    a, b = city_of(doc, None), city_of(richer, None)
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


def test_guards_flag_uncompletable_and_dominant_lines() -> None:
    ids = "ABCDE"
    pts = dict(zip(ids, (0.2, 9, 0.2, 0.2, 0.2), strict=True))
    p = _profile(dict.fromkeys(ids, 3), dict.fromkeys(ids, 0.5), pts, [1, 2], [0, 1])
    cfg = TuneConfig()
    assert guard_failures(p, cfg) == {"line B dominant"}  # 9 > 3 x the mean 1.96
    p.lines["A"].completion = proportion_ci(1, 50)
    assert guard_failures(p, cfg) == {"line B dominant", "line A not completable"}


FLAWED = ROOT / "tests" / "maps"
"""Berlin with one flaw each (made from maps/berlin.json): line J's points x10
(``berlin-ten-times``), the long line G with one window (``berlin-one-window``), every line
2 windows and 4/2 (``berlin-identical``)."""


def flawed(name: str) -> dict:
    return json.loads((FLAWED / f"berlin-{name}.json").read_text())


def _line(r, lid: str):  # type: ignore[no-untyped-def]
    return r.after.lines[lid], r.before.lines[lid]


def test_an_inflated_line_comes_down_instead_of_the_others_going_up() -> None:
    cfg = TuneConfig(games=60, seed=1, steps=1, windows=False, decision_games=0)
    r = tune(flawed("ten-times"), Targets(per_line=True), cfg)
    band = r.aim.band
    (step,) = r.steps
    assert step.move.startswith("line J points 50/30 -> 3/2")
    after, before = _line(r, "J")
    assert bonus_per_window(before) > 10 * band.rate.hi / 4
    assert band.rate.lo <= bonus_per_window(after) <= band.rate.hi
    assert band.mean.lo <= mean_per_window(r.after) <= band.mean.hi < mean_per_window(r.before)
    others = {k: v for k, v in firsts(r.doc).items() if k != "J"}
    original = {k: v for k, v in firsts(flawed("ten-times")).items() if k != "J"}
    assert sum(others.values()) <= sum(original.values())  # the others did not go up


def test_a_line_nobody_completes_gets_its_windows_back() -> None:
    cfg = TuneConfig(games=60, seed=1, steps=2, points=False, decision_games=0)
    r = tune(flawed("one-window"), Targets(per_line=True), cfg)
    after, before = _line(r, "G")
    assert before.completion.value == 0 and after.windows == 3
    assert after.completion.value > r.aim.band.completion.lo


def test_identical_lines_are_told_apart_in_one_merged_step() -> None:
    cfg = TuneConfig(games=60, seed=1, steps=1, decision_games=0)
    r = tune(flawed("identical"), Targets(per_line=True), cfg)
    (step,) = r.steps
    assert step.move.count(" + ") >= 2  # the best edits of several lines, merged
    # the lines no greedy game completes (G, 15 stops) or hardly any (B, 14) get a window
    for lid in "BG":
        after, before = _line(r, lid)
        assert before.completion.value < r.aim.band.completion.lo < after.completion.value
    assert r.objective_after < r.objective_before / 5


def test_a_candidate_that_does_not_validate_is_never_measured() -> None:
    doc = json.loads((ROOT / "maps" / "berlin.json").read_text())
    h = next(i for i, ln in enumerate(doc["lines"]) if ln["id"] == "H")
    doc["lines"][h]["windows"] = 3  # H's wagon grows over a station
    assert validation_errors(doc) == ["GEO005"]
    assert evaluate(Task(doc, TuneConfig(games=10), 0)) is None
    # with its wagon placed again by the layout, the same edit is a valid map, and measured
    ev = evaluate(Task(doc, TuneConfig(games=10), 0, ("H",)))
    assert ev is not None and ev.moved == ("H",) and validation_errors(ev.doc) == []
    assert ev.doc["lines"][h]["depot"] != doc["lines"][h]["depot"]
    assert [ln for ln in ev.doc["lines"] if ln["id"] != "H"] == [
        ln for ln in doc["lines"] if ln["id"] != "H"
    ]


def test_tune_moves_wagons_rather_than_write_an_invalid_map() -> None:
    cfg = TuneConfig(games=40, seed=1, steps=1, points=False, decision_games=0)
    # Berlin as drawn by hand (maps/berlin.json before its re-layout by `mapkit layout`,
    # issue 16), with the wagons of B, E and F where hand layout had them: no room to grow
    tight = json.loads((ROOT / "tests" / "data" / "berlin-hand-layout.json").read_text())
    for ln in tight["lines"]:
        where = {"B": (13.28, 1.03), "E": (18.28, 2.13), "F": (6.09, 0.16)}.get(ln["id"])
        if where:
            ln["depot"]["x"], ln["depot"]["y"] = where
    assert validation_errors(tight) == []
    r = tune(tight, Targets(mean=60), cfg)
    assert r.moved >= 1  # a window more on B, E or F needs its wagon placed again
    assert validation_errors(r.doc) == []


def test_tune_refuses_a_map_that_does_not_validate(tmp_path: Path) -> None:
    broken = ROOT / "examples" / "broken" / "GEO005.json"
    with pytest.raises(TuneError, match="GEO005"):
        tune(json.loads(broken.read_text()), Targets(mean=30), TuneConfig(games=10))
    out = tmp_path / "x.json"
    res = runner.invoke(app, ["tune", str(broken), "-o", str(out), "--mean", "30"])
    assert res.exit_code == 1 and "does not validate" in res.stderr and not out.exists()


@pytest.mark.parametrize(
    "args",
    [
        ["--mean", "nan"],
        ["--mean", "inf"],
        ["--mean", "9", "--games", "-5"],
        ["--per-line", "--no-points"],
        ["--mean", "9", "--no-windows", "--no-points"],
        ["--min-decisions", "1.5"],
        ["--max-luck", "-0.1"],
    ],
)
def test_tune_bad_options_exit_2_and_write_nothing(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "x.json"
    res = runner.invoke(app, ["tune", str(MINI), "-o", str(out), *args])
    assert res.exit_code == 2, res.output
    assert len(res.stderr.strip().splitlines()) == 1 and not out.exists()


def test_a_target_out_of_reach_says_how_close_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    args = ["tune", str(MINI), "-o", str(out), "--mean", "500", "-n", "20", "--steps", "2",
            "--decision-games", "0"]  # fmt: skip
    res = runner.invoke(app, args)
    assert res.exit_code == 1 and not out.exists()
    (line,) = [ln for ln in res.stderr.splitlines() if ln.startswith("mapkit:")]
    assert "targets not met" in line and "against --mean 500" in line
    res = runner.invoke(app, [*args, "--partial"])
    assert res.exit_code == 0 and validation_errors(json.loads(out.read_text())) == []


def test_per_line_terms_by_hand() -> None:
    band = ShippedBand(10, 0, Band(0.2, 1.0), Band(0.5, 2.0), Band(1.5, 2.0))
    p = _profile({"A": 2, "B": 6}, {"A": 0.5, "B": 0.5}, {"A": 0.1, "B": 8}, [40] * 3, [0] * 3)
    p.lines["A"].completion = proportion_ci(1, 10)  # 0.1: 0.1 below the band
    aim = Aim(Targets(per_line=True), band, 1.0)
    terms = line_terms(p, aim)
    # A: completion 0.1 below (2 units), rate 0.05 = 0.45 below (1.8 units), 0.95 off (2.8 slack)
    assert terms["A"] == pytest.approx(2**2 + 1.8**2 + 2.8**2)
    # B: rate 4 per window, 2 above the band (8 units) and 3 off the target (11 slack)
    assert terms["B"] == pytest.approx(8**2 + 11**2)
    # the mean, 40 over 4 windows = 10 per window, is 8 above its band: (8 / 0.05)^2
    assert objective(p, aim) == pytest.approx(160**2 + (terms["A"] + terms["B"]) / 2)
    assert objective(p, Aim(Targets(mean=44), band, 1.0)) == pytest.approx(4.0)
