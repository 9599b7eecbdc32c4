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
from mapkit.design.findings import FINDINGS
from mapkit.design.intervals import (
    clustered_mean_ci,
    clustered_proportion_ci,
    credit_share_ci,
    jackknife_ci,
    log_mean_ci,
    mean_ci,
    paired_difference_ci,
    proportion_ci,
    significant,
)
from mapkit.design.pacing import pacing
from mapkit.design.profile import profile
from mapkit.design.races import measure_races
from mapkit.design.report import ReportConfig, design_report
from mapkit.design.sensitivity import measure_sensitivity
from mapkit.design.skill import measure_skill, relative_skill, shares, solo_scores
from mapkit.design.tension import game_tension
from mapkit.mapfile import load_map
from mapkit.simulate import GameOutcome, RunConfig, SeatOutcome, simulate

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


def test_jackknife_of_a_mean_is_the_t_interval() -> None:
    # leaving one out moves the mean by (mean - x_i) / (n - 1): the jackknife's standard
    # error is the textbook sd / sqrt(n), here sqrt(5/3) / 2, and t(0.975, 3) = 3.182446
    e = jackknife_ci([1, 2, 3, 4], lambda v: sum(v) / len(v))
    assert e.value == 2.5 and math.isclose(e.se, math.sqrt(5 / 3) / 2)
    assert math.isclose(e.hi - e.value, 3.182446 * e.se) and math.isclose(
        e.value - e.lo, e.hi - e.value
    )


def test_jackknife_share_stays_inside_and_leans_away_from_the_end() -> None:
    # a share of 0.15 over 20 units: leaving one out gives 2/19 or 3/19, se sqrt(p(1-p)/19);
    # on the logit scale se 0.7255 and t(0.975, 19) = 2.093: expit(-1.7346 -+ 1.5185)
    xs = [1] * 3 + [0] * 17
    e = jackknife_ci(xs, lambda v: sum(v) / len(v), share=True)
    assert math.isclose(e.se, math.sqrt(0.15 * 0.85 / 19))
    assert (e.value, round(e.lo, 4), round(e.hi, 4)) == (0.15, 0.0372, 0.4461)
    assert jackknife_ci([0, 0, 0], lambda v: sum(v) / len(v), share=True)[:3] == (0, 0, 0)


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
    assert a.to_text().splitlines()[1] == (
        "Games played by the checked engine (skill:clairvoyant, tension, decisions); the kernel"
        " (skill:lookahead, races, mixed, skill:greedy, skill:random)"
    )
    means = a.skill.means
    assert means["random"].value < means["greedy"].value <= means["clairvoyant"].value
    assert 0 <= a.decisions.share.value <= 1 and a.decisions.regret.value > 0
    luck = a.skill.luck_share
    assert luck is not None and 0 <= luck.value <= 1
    rel, head = a.skill.relative_skill, a.skill.headroom
    assert rel is not None and 0 < rel.value < 1  # clairvoyance adds something on mini
    assert head is not None and head.value == pytest.approx(
        means["greedy"].value - means["random"].value
    )


def test_cli_report_json_and_errors(tmp_path: Path) -> None:
    args = ["report", str(MINI), "-n", "20", "--tension-games", "5", "--decision-games", "1",
            "--no-scale", "--players", "2"]  # fmt: skip
    res = runner.invoke(app, [*args, "-f", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["map"] == "mini" and [ln["line"] for ln in doc["lines"]] == ["A", "B"]
    assert set(doc["skill"]["means"]) == {"random", "greedy", "lookahead", "clairvoyant"}
    # who played each stage's games: the kernel where it can, the checked engine where it must
    checked, kernel = ["checked"], ["kernel"]
    assert doc["engines"] == {
        "skill:clairvoyant": checked, "tension": checked, "sensitivity": kernel,
        "decisions": checked, "skill:lookahead": kernel, "races": kernel, "mixed": kernel,
        "skill:greedy": kernel, "skill:random": kernel,
    }  # fmt: skip
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
    assert page.count("data:image/png;base64,") == 5 and "Line races" not in page[:50]
    assert "Stations that cut runs" not in page and "Stations: where a run stops" in page
    assert '<ul class="findings">' in page


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_holds_its_estimate(k: int, n: int) -> None:
    e = proportion_ci(min(k, n), n)
    assert 0 <= e.lo <= e.value <= e.hi <= 1


@given(st.lists(st.integers(-50, 100), min_size=2, max_size=40))
def test_mean_interval_holds_the_mean(xs: list[int]) -> None:
    e = mean_ci(xs)
    assert e.lo <= e.value <= e.hi and e.se >= 0


FLAWED = ROOT / "tests" / "maps"
QUICK = ReportConfig(games=60, seed=1, players=3, tension_games=5, decision_games=1,
                     difficulty=False, mixed_games=0, sensitivity=False,
                     skill_bots=("random", "greedy"))  # fmt: skip


def test_luck_share_leaves_the_random_bot_out() -> None:
    city = load_map(MINI)
    skill = measure_skill(city, 30, 2, ("random", "greedy", "lookahead"))
    rows = [(g, la) for g, la in zip(skill.scores["greedy"], skill.scores["lookahead"],
                                     strict=True)]  # fmt: skip
    assert skill.luck_share is not None and skill.luck_share.value == shares(rows)[0]
    assert skill.relative_skill is None  # no clairvoyant: Dreef et al.'s measure needs it


def test_relative_skill_by_hand() -> None:
    # beginner 0, best 6, fictive 8: learning effect 6 over 6 + 2
    assert relative_skill([(0, 6, 8), (0, 6, 8)]) == 0.75


def test_clustered_share_uses_the_games_as_units() -> None:
    # 4 games of 3 seats, all or nothing: the 12 seats are worth 3 independent draws
    e = clustered_proportion_ci([0, 3, 0, 3], 3)
    w = proportion_ci(1.5, 3)
    assert (e.value, round(e.lo, 9), round(e.hi, 9)) == (0.5, round(w.lo, 9), round(w.hi, 9))
    # seats that never agree more than chance keep (nearly) all 12 units
    assert clustered_proportion_ci([1, 2, 1, 2], 3).hi - 0.5 < e.hi - 0.5
    # no spread at all: the number of games
    assert clustered_proportion_ci([0] * 20, 3).hi == proportion_ci(0, 20).hi
    assert clustered_mean_ci([[1, 3], [5, 7]]).value == 4.0


def test_a_shared_win_narrows_the_seat_share() -> None:
    # 0/1 credits: the plain Wilson interval on the games (the sample variance's n - 1 makes
    # the effective size 9 of 10 games)
    whole = credit_share_ci([1, 0] * 5)
    assert (whole.value, round(whole.lo, 4), round(whole.hi, 4)) == (0.5, 0.2265, 0.7735)
    assert round(whole.lo, 9) == round(_wilson_lo(0.5, 9), 9)
    # the same mean with ties shared (credit 1/2 in every other game) spreads less: variance
    # 2.5 / 19 over 20 games, an effective size of 0.25 / (2.5 / 19 / 20) = 38 games
    tied = credit_share_ci([1, 0.5, 0, 0.5] * 5)
    assert tied.value == 0.5 and round(tied.lo, 9) == round(_wilson_lo(0.5, 38), 9)
    assert tied.hi - tied.lo < credit_share_ci([1, 0] * 10).hi - credit_share_ci([1, 0] * 10).lo
    # no spread: the number of games
    assert credit_share_ci([0.5] * 8).hi == proportion_ci(4, 8).hi
    assert credit_share_ci([]).value != credit_share_ci([]).value  # nan


def test_log_mean_interval_by_hand() -> None:
    # 0, 0, 3: mean 1, sd sqrt(3), se 1, t on 2 df 4.302653: [1 / e^4.302653, e^4.302653]
    e = log_mean_ci([0, 0, 3])
    assert (e.value, e.se) == (1.0, 1.0)
    assert (e.lo, e.hi) == (pytest.approx(math.exp(-4.302653)), pytest.approx(math.exp(4.302653)))
    assert log_mean_ci([2, 2]) == (2.0, 2.0, 2.0, 0.0)  # no spread
    assert log_mean_ci([0, 0]) == (0.0, 0.0, 0.0, 0.0)


def _wilson_lo(p: float, n: float) -> float:
    z = 1.959963984540054
    return (p + z * z / (2 * n) - z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (
        1 + z * z / n
    )


def test_pacing_of_hand_made_games() -> None:
    def game(i: int, rounds: int, seats: list[tuple[int, dict]]) -> GameOutcome:
        return GameOutcome(i, i, rounds, tuple(
            SeatOutcome("greedy", sc, rank, done) for sc, rank, done in seats
        ))  # fmt: skip

    played = [
        game(0, 8, [(10, 1, {"A": (2, 4)}), (5, 2, {"A": (8, 2)})]),
        game(1, 8, [(3, 2, {}), (9, 1, {"B": (7, 6)})]),
    ]
    p = pacing(played)
    assert p.paid == [0, 1.0, 0, 0, 0, 0, 1.5, 0.5]  # 4, 6 and 2 points over 4 player-games
    assert p.half_round == 7 and p.late.value == pytest.approx(8 / 12)  # rounds 7, 8 > 6
    assert [w.value for w in p.seat_wins] == [0.5, 0.5]


def test_findings_name_the_flawed_line() -> None:
    found = {}
    for name in ("ten-times", "one-window"):
        city = load_map(FLAWED / f"berlin-{name}.json")
        found[name] = {(f.code, f.subject) for f in design_report(city, QUICK).found}
    assert {("RPT001", "line J"), ("RPT003", "line J")} <= found["ten-times"]
    assert ("RPT002", "line G") in found["one-window"]
    assert not any(s == "line G" for _, s in found["ten-times"])
    zuid = [f for f in design_report(load_map(ROOT / "maps" / "amsterdam.json"), QUICK).found
            if f.code == "RPT009"]  # fmt: skip
    assert [f.subject for f in zuid] == ["station zuid"]
    assert zuid[0].evidence.startswith(
        "cuts a run in 0.633 [0.536, 0.721] of player-games, 1.65 crosses"
    )


def test_findings_are_documented_from_the_registry() -> None:
    doc = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    for code, f in FINDINGS.items():
        assert f"| {code} | {f.severity} | {f.title} |" in doc, code


def test_sensitivity_on_common_decks() -> None:
    doc = json.loads(MINI.read_text())
    city = load_map(MINI)
    base = profile(city, 40, 3)
    rows = {(x.line, x.edit): x for x in measure_sensitivity(doc, base, 40, 3)}
    more = rows[("B", "windows +1")]
    assert more.valid and more.mean is not None and more.mean.value > 0
    assert more.completion is not None and more.completion >= 0
    assert ("A", "windows -1") not in rows  # A has one window
    fewer = rows[("B", "windows -1")]
    assert fewer.mean is not None and significant(fewer.mean) and fewer.mean.value < 0


def test_tension_and_decisions_figures_are_pinned() -> None:
    """Both play the runner's games through its one loop (``play_out``); these figures are
    those of their own loops before, so the games did not change."""
    from mapkit.design.decisions import measure_decisions
    from mapkit.design.tension import measure_tension

    paris = load_map(ROOT / "maps" / "paris.json")
    t = measure_tension(paris, 2, 3, 4, special=True, playouts=2, stride=4)
    assert (t.lead_changes.value, t.drama.value, t.tie_rate.value) == (1 / 3, 0.5, 2 / 3)
    assert (round(t.decided.value, 6), t.decided_round.value) == (0.866667, 50 / 3)
    d = measure_decisions(paris, 1, 4, special=True, rollouts=1)
    assert (d.turns, round(d.share.value, 6), round(d.regret.value, 6)) == (23, 0.434783, 1.268116)


BROKEN = ROOT / "examples" / "broken" / "GEO005.json"


@pytest.mark.parametrize(
    ("args", "code", "says"),
    [
        ([str(BROKEN)], 1, "does not validate on a4 (GEO005)"),
        ([str(MINI), "--games", "-5"], 2, "--games must be at least 2"),
        ([str(MINI), "--tension-games", "0"], 2, "--tension-games"),
        ([str(MINI), "--mixed-games", "-1"], 2, "--mixed-games at least 0"),
        ([str(MINI), "--threshold", "nan"], 2, "--threshold must be a number"),
        ([str(MINI), "--jobs", "-3"], 2, "--jobs must be 0"),
        (
            [str(MINI), "--players", "0"],
            2,
            "--players 0: voll-verplant is played by 1 to 6 players",
        ),
    ],
)
def test_cli_report_bad_input_is_one_line_and_writes_nothing(
    tmp_path: Path, args: list[str], code: int, says: str
) -> None:
    out = tmp_path / "r.json"
    res = runner.invoke(app, ["report", *args, "-f", "json", "-o", str(out)])
    assert res.exit_code == code and says in res.stderr, res.output
    assert len(res.stderr.strip().splitlines()) == 1 and not out.exists()


def test_cli_report_on_an_invalid_map_when_asked() -> None:
    args = ["report", str(BROKEN), "-n", "4", "--tension-games", "1", "--decision-games", "1",
            "--no-scale", "--no-sensitivity", "--mixed-games", "0", "--allow-invalid"]  # fmt: skip
    res = runner.invoke(app, args)
    assert res.exit_code == 0 and "validation error(s) (GEO005); continuing" in res.stderr
