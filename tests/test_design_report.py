"""mapkit report: the figures' definitions on hand-made data, and the command on a tiny map."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from mapkit.cli import app
from mapkit.design.intervals import (
    bootstrap_ci,
    mean_ci,
    paired_difference_ci,
    proportion_ci,
    significant,
)
from mapkit.design.races import measure_races
from mapkit.design.report import ReportConfig, design_report
from mapkit.design.skill import shares, solo_scores
from mapkit.design.tension import game_tension
from mapkit.mapfile import load_map
from mapkit.simulate import RunConfig, simulate

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "examples" / "games" / "maps" / "mini.json"
runner = CliRunner()


def test_wilson_interval_matches_the_textbook_value() -> None:
    e = proportion_ci(8, 10)  # Wilson 95 %: 0.4902 .. 0.9433
    assert (round(e.lo, 4), round(e.hi, 4)) == (0.4902, 0.9433)
    assert proportion_ci(0, 20).lo == 0.0


def test_mean_interval_and_paired_difference() -> None:
    e = mean_ci([1, 2, 3, 4])
    assert e.value == 2.5 and math.isclose(e.se, math.sqrt(5 / 3) / 2)
    d = paired_difference_ci([1, 2, 3, 4], [2, 3, 4, 6])
    assert d.value == 1.25 and significant(d)
    assert not significant(paired_difference_ci([1, 2, 3], [2, 1, 3]))


def test_bootstrap_is_seeded() -> None:
    xs = list(range(30))
    a = bootstrap_ci(xs, lambda v: sum(v) / len(v), seed=3)
    assert a == bootstrap_ci(xs, lambda v: sum(v) / len(v), seed=3)
    assert a.lo < a.value < a.hi


def test_luck_share_of_pure_deck_and_pure_bot_matrices() -> None:
    assert shares([(1, 1, 1), (5, 5, 5), (3, 3, 3)]) == (1.0, 0.0)
    assert shares([(1, 4), (1, 4), (1, 4)]) == (0.0, 1.0)
    deck, bot = shares([(0, 2), (2, 0)])  # pure interaction: neither explains it
    assert (deck, bot) == (0.0, 0.0)


def test_tension_of_a_hand_made_game() -> None:
    # leader: p0, then p1 (change), then p0 (change); p0 wins, trailed by 2 in round 2
    changes, drama, tie, decided, when = game_tension([[1, 0], [0, 2], [3, 1]], [1, 2])
    assert (changes, drama, tie) == (2, 2.0, False)
    assert (decided, when) == (1.0, 3)  # only the last round put the winner ahead for good
    assert game_tension([[5, 0], [6, 1], [7, 2]], [1, 2])[3:] == (pytest.approx(1 / 3), 1)
    assert game_tension([[1, 1], [2, 2]], [1, 1])[2] is True


def test_skill_uses_the_same_decks_as_simulate() -> None:
    city = load_map(MINI)
    scores = solo_scores(city, "greedy", 12, seed=4)
    outs = simulate(city, RunConfig(("greedy",), 12, 4))
    assert scores == [o.seats[0].score for o in outs]


def test_race_curves_rise_to_the_completion_rate() -> None:
    city = load_map(MINI)
    for race in measure_races(city, players=2, games=30, seed=1):
        assert all(a <= b for a, b in zip(race.curve, race.curve[1:], strict=False))
        assert race.curve[-1] == pytest.approx(race.completion.value)
        assert race.completion.lo <= race.completion.value <= race.completion.hi


def test_report_is_deterministic_and_orders_the_bots() -> None:
    city = load_map(MINI)
    cfg = ReportConfig(games=30, seed=2, players=2, tension_games=10, decision_games=2,
                       difficulty=False)  # fmt: skip
    a, b = design_report(city, cfg), design_report(city, replace(cfg, jobs=2))
    assert a.to_dict() == b.to_dict()  # the same figures whatever the number of processes
    means = a.skill.means
    assert means["random"].value < means["greedy"].value <= means["clairvoyant"].value
    assert 0 <= a.decisions.share.value <= 1 and a.decisions.regret.value > 0
    assert 0 <= a.skill.luck_share.value <= 1


def test_cli_report_json_and_errors(tmp_path: Path) -> None:
    args = ["report", str(MINI), "-n", "20", "--tension-games", "5", "--decision-games", "1",
            "--no-scale", "--players", "2"]  # fmt: skip
    res = runner.invoke(app, [*args, "-f", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["map"] == "mini" and [ln["line"] for ln in doc["lines"]] == ["A", "B"]
    assert set(doc["skill"]["means"]) == {"random", "greedy", "lookahead", "clairvoyant"}
    assert runner.invoke(app, [*args, "-o", str(MINI)]).exit_code == 2
    assert runner.invoke(app, ["report", str(MINI), "--players", "9"]).exit_code == 2
    assert runner.invoke(app, ["report", str(tmp_path / "none.json")]).exit_code == 2


def test_cli_report_html_has_the_plots(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.html"
    args = ["report", str(MINI), "-n", "20", "--tension-games", "5", "--decision-games", "1",
            "--no-scale", "-f", "html", "-o", str(out)]  # fmt: skip
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    page = out.read_text()
    assert page.count("data:image/png;base64,") == 3 and "Line races" not in page[:50]


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_holds_its_estimate(k: int, n: int) -> None:
    e = proportion_ci(min(k, n), n)
    assert 0 <= e.lo <= e.value <= e.hi <= 1


@given(st.lists(st.integers(-50, 100), min_size=2, max_size=40))
def test_mean_interval_holds_the_mean(xs: list[int]) -> None:
    e = mean_ci(xs)
    assert e.lo <= e.value <= e.hi and e.se >= 0
