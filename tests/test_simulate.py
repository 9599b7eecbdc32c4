"""The simulation report: exact figures on hand-made outcomes, and runs that repeat exactly."""

from __future__ import annotations

import json

import pytest

from mapkit.engine import Game
from mapkit.engine.scoring import ranks
from mapkit.mapfile import build_map, load_map
from mapkit.simulate import GameOutcome, GameRunner, RunConfig, SeatOutcome, simulate, summarize
from mapkit.simulate import report as rep
from mapkit.simulate.runner import game_seed
from mapkit.simulate.stats import ludii_balance, partial_wins, quantile, suggest


@pytest.fixture
def tiny(tiny_doc):
    return build_map(tiny_doc)


def _outcomes() -> list[GameOutcome]:
    """Two 2-player games on the tiny map (A: a b c, 3/1; B: d b, 2/1)."""
    g0 = GameOutcome(
        0, 100, 5,
        (
            SeatOutcome("greedy", 10, 1, {"A": (3, 3)}, frozenset("A"), {"b": 2}, frozenset("d")),
            SeatOutcome("random", 4, 2, {}, frozenset(), {}, frozenset({"a", "c", "d"})),
        ),
    )  # fmt: skip
    g1 = GameOutcome(
        1, 101, 7,
        (
            SeatOutcome("greedy", 5, 1, {"B": (4, 2)}, frozenset({"B"}), {}, frozenset()),
            SeatOutcome("random", 5, 1, {"A": (6, 1)}, frozenset(), {}, frozenset({"c"})),
        ),
    )  # fmt: skip
    return [g0, g1]


def test_report_figures_are_exact(tiny):
    r = summarize(tiny, _outcomes(), seed=9)
    s0, s1 = r.seats
    assert (s0.bot, s0.mean, s0.p10, s0.p50, s0.p90) == ("greedy", 7.5, 5.5, 7.5, 9.5)
    assert s0.sd == pytest.approx(12.5**0.5)
    assert (s0.win_rate, s1.win_rate) == (0.75, 0.25)
    assert (s0.partial_win_rate, s1.partial_win_rate) == (0.75, 0.25)
    assert r.balance == 0.5
    assert (r.rounds_mean, r.rounds_min, r.rounds_max) == (6, 5, 7)
    a, b = r.lines
    assert (a.completion_rate, a.mean_round, a.first_rate, a.points) == (0.5, 4.5, 0.5, 1.0)
    assert a.difficulty == pytest.approx((3 / 6 + 1 + 1 + 6 / 8) / 4)
    assert (b.completion_rate, b.mean_round, b.first_rate, b.points) == (0.25, 4, 1.0, 0.5)
    assert b.difficulty == pytest.approx((1 + 1 + 4 / 8 + 1) / 4)
    assert [(x.suggested_first, x.suggested_others) for x in r.lines] == [(2, 1), (3, 1)]
    st = {x.id: (x.lines, x.empty_rate, x.interchange_rate) for x in r.stations}
    assert st == {"a": (1, 0.25, 0.0), "b": (2, 0.0, 0.25), "c": (1, 0.5, 0.0), "d": (1, 0.5, 0.0)}


def test_report_json_shape(tiny):
    doc = json.loads(rep.to_json(summarize(tiny, _outcomes(), seed=9)))
    assert doc["seats"][0] == {
        "bot": "greedy", "mean": 7.5, "sd": 3.5355, "se": 2.5, "p10": 5.5, "p50": 7.5,
        "p90": 9.5, "win_rate": 0.75, "partial_win_rate": 0.75,
    }  # fmt: skip
    assert doc["balance"] == 0.5
    assert doc["rounds"] == {"mean": 6, "min": 5, "max": 7}
    assert doc["lines"][0]["printed"] == {"first": 3, "others": 1}
    assert doc["lines"][0]["suggested"] == {"first": 2, "others": 1}
    assert doc["stations"][1] == {
        "station": "b", "lines": 2, "empty_rate": 0.0, "interchange_rate": 0.25
    }  # fmt: skip


def test_report_text_mentions_every_section(tiny):
    text = rep.to_text(summarize(tiny, _outcomes(), seed=9))
    for needle in ("Seats", "Balance (Ludii", "0.500", "Rounds: mean 6.00, min 5, max 7",
                   "Lines", "3/1", "Stations most often left empty"):  # fmt: skip
        assert needle in text


def test_solo_has_no_balance(tiny):
    g = GameOutcome(0, 1, 4, (SeatOutcome("greedy", 3, 1),))
    r = summarize(tiny, [g])
    assert r.balance is None
    assert (r.seats[0].sd, r.seats[0].win_rate) == (0.0, 1.0)
    assert json.loads(rep.to_json(r))["balance"] is None


def test_helpers():
    assert quantile([1, 2, 3, 4], 0.5) == 2.5
    assert quantile([7], 0.9) == 7
    assert ranks([5, 5, 3], [2, 2, 0]) == [1, 1, 3]
    assert ranks([5, 5], [3, 2]) == [2, 1]
    assert ludii_balance([0.5]) is None
    assert ludii_balance([0.2, 0.5, 0.3]) == pytest.approx(0.7)
    three = GameOutcome(
        0, 0, 1, (SeatOutcome("x", 1, 1), SeatOutcome("x", 1, 1), SeatOutcome("x", 0, 3))
    )
    assert partial_wins(three) == [0.75, 0.75, 0.0]


def test_suggest_keeps_printed_values_without_spread(tiny):
    assert suggest(tiny, {"A": 0.5, "B": 0.5}) == {"A": (3, 1), "B": (2, 1)}


def test_game_seed_is_stable():
    assert game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1) != game_seed(1, 0)
    assert 0 <= game_seed(123, 456) < 2**63


@pytest.fixture
def metro(benchmark_maps):
    return load_map(benchmark_maps / "metro-city.json")


def test_same_report_for_any_number_of_jobs(metro):
    cfg = RunConfig(("greedy", "random", "lookahead"), games=12, seed=4)
    one = rep.to_json(summarize(metro, simulate(metro, cfg, jobs=1), seed=4))
    two = rep.to_json(summarize(metro, simulate(metro, cfg, jobs=2), seed=4))
    assert one == two


@pytest.mark.parametrize("engine", ["kernel", "checked"])
def test_outcomes_agree_with_the_engine_records(metro, engine):
    from mapkit.engine.record import replay, result

    cfg = RunConfig(("greedy", "random"), games=3, seed=8, records=True, engine=engine)
    outcomes = simulate(metro, cfg)
    runner = GameRunner(metro, cfg)
    assert [(o.index, o.engine) for o in outcomes] == [(0, engine), (1, engine), (2, engine)]
    for o in outcomes:
        res = result(replay(metro, runner.record(o)))
        assert [p["score"] for p in res["players"]] == [s.score for s in o.seats]
        assert [p["rank"] for p in res["players"]] == [s.rank for s in o.seats]
        assert res["rounds"] == o.rounds
        for p, s in zip(res["players"], o.seats, strict=True):
            assert p["completed"] == {k: pts for k, (_, pts) in s.completed.items()}
            assert p["empty_stations"] == len(s.empty)
            assert sorted(p["interchanges"]) == sorted(s.interchanges.values())
        for p, score in enumerate(res["players"]):
            assert o.breakdown(p).score == score["score"]


def test_completion_rounds_match_the_replay(metro):
    from mapkit.engine.record import replay

    cfg = RunConfig(("greedy",), games=2, seed=3, records=True)
    runner = GameRunner(metro, cfg)
    for o in simulate(metro, cfg):
        rep_ = replay(metro, runner.record(o))
        assert rep_.taken_round == {k: r for k, (r, _) in o.seats[0].completed.items()}


@pytest.mark.parametrize("bots", [("greedy", "random"), ("clairvoyant",)])
def test_streaming_tally_reports_what_the_outcomes_report(metro, bots):
    """``run`` (kernel or seat by seat, counts merged per chunk, 1 or 2 jobs) and
    ``summarize`` over every outcome give the same report, byte for byte."""
    from mapkit.simulate.runner import run
    from mapkit.simulate.stats import report

    cfg = RunConfig(bots, games=6 if bots == ("clairvoyant",) else 40, seed=2)
    full = rep.to_json(summarize(metro, simulate(metro, cfg, jobs=1), seed=2))
    for jobs in (1, 2):
        assert rep.to_json(report(run(metro, cfg, jobs=jobs), seed=2)) == full


def test_the_kernel_runs_as_plain_python(benchmark_maps):
    """The fallback is the kernel's own source run as Python, not another copy of the rules:
    it plays the very games of the compiled module (and of the checked engine)."""
    from mapkit.engine import kernel
    from tests.test_kernel_agrees import _agree, _params

    source = kernel.uncompiled()
    assert kernel.COMPILED and not source.COMPILED
    game = Game(load_map(benchmark_maps / "metro-city.json"), players=2)
    bots = ("greedy", "random")
    plain = source.Kernel(source.kernel_map(game.tables), bots, False, _params(source.bot_params))
    compiled = kernel.Kernel(game.tables.kernel, bots, False, _params())
    for seed in (1, 2):
        _agree(game, plain, bots, seed)
        assert plain.play_history(seed) == compiled.play_history(seed)


def test_the_documented_api_runs_as_written(monkeypatch):
    """docs/simulate.md's Python API section, every line and printed value (doctest)."""
    import doctest
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)  # the example names maps/berlin.json, as from a checkout
    res = doctest.testfile(str(root / "docs" / "simulate.md"), module_relative=False)
    assert (res.failed, res.attempted) == (0, 14)


def test_the_kernel_is_refused_for_seats_it_cannot_play(metro):
    with pytest.raises(ValueError, match="not the clairvoyant bot: use the checked engine"):
        GameRunner(metro, RunConfig(("greedy", "clairvoyant"), 1, engine="kernel"))
    with pytest.raises(ValueError, match="not bot options"):
        GameRunner(metro, RunConfig(("greedy",), 1, bot_options=(("greedy", {}),), engine="kernel"))
    with pytest.raises(ValueError, match="unknown engine 'fast'; known: auto, kernel, checked"):
        GameRunner(metro, RunConfig(("greedy",), 1, engine="fast"))
    assert GameRunner(metro, RunConfig(("greedy", "clairvoyant"), 1)).engine == "checked"
