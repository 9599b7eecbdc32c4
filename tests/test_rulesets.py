"""Rulesets as data: each edition's deck, interchange, penalty and tie-break, worked by hand.

Map T:  A: a1 a2 a3 a4 a5   B: b1 a2 b3 a4 b5  (a2 and a4 on both lines; points 5/3, 3 windows).
Metro X (Gamewright) facts: the reference material's notes on publishers and editions, copied
into ``mapkit/rulesets.py`` with their source.
"""

from __future__ import annotations

import json
import re

import pytest

from mapkit.cards import CARD_BY_NAME, CARD_NAMES
from mapkit.engine import Game, GameOptions
from mapkit.engine.record import RecordError, record_from_history, replay
from mapkit.engine.testing import last_choice_game, record, run, tiny_map
from mapkit.mapfile import load_source
from mapkit.rulesets import (
    METRO_X,
    METRO_X_OKAZU,
    RULESETS,
    VOLL_VERPLANT,
    RulesetError,
    get_ruleset,
    ruleset_from_doc,
)
from tests.test_kernel_agrees import agree_in_every_seating

LINES = {"A": ["a1", "a2", "a3", "a4", "a5"], "B": ["b1", "a2", "b3", "a4", "b5"]}
T_MX = tiny_map(LINES, ruleset="metro-x")
T_VV = tiny_map(LINES)


def test_the_three_decks_as_published() -> None:
    def deck(r):
        return {CARD_NAMES[k]: n for k, n in enumerate(r.counts) if n}

    assert deck(VOLL_VERPLANT) == {"3": 2, "4": 3, "5": 2, "6": 1, "x2": 2, "x3": 1, "+": 2,
                                   "free": 1}  # fmt: skip
    assert deck(METRO_X) == {"3": 3, "4": 3, "5": 2, "6": 1, "x2": 2, "x3": 1, "+": 2, "free": 1}
    assert deck(METRO_X_OKAZU) == {"2": 2, "3": 4, "4": 5, "5": 2, "6": 1, "x2": 2, "x3": 1,
                                   "+": 3, "free": 1}  # fmt: skip
    assert [r.deck_size for r in RULESETS.values()] == [14, 15, 21]
    assert all(CARD_NAMES[r.reshuffle] == "6" for r in RULESETS.values())
    assert (METRO_X.label(CARD_BY_NAME["x2"]), METRO_X.label(CARD_BY_NAME["+"])) == (
        "Skip 2", "Transfer",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("empty", "cost"),
    [(0, 0), (4, 0), (5, 1), (6, 2), (7, 3), (8, 4), (9, 4), (10, 5), (11, 5), (13, 6), (15, 7),
     (16, 8), (19, 9), (20, 10), (45, 10)],
)  # fmt: skip
def test_metro_x_penalty_table_solo_and_multiplayer_alike(empty: int, cost: int) -> None:
    assert METRO_X.penalty(empty, 1) == METRO_X.penalty(empty, 3) == cost


def test_voll_verplant_penalty_full_solo_halved_with_players() -> None:
    assert [VOLL_VERPLANT.penalty(n, 1) for n in (0, 3, 7)] == [0, 3, 7]
    assert [VOLL_VERPLANT.penalty(n, 2) for n in (0, 3, 7)] == [0, 1, 3]
    assert (VOLL_VERPLANT.empty_weight(1), VOLL_VERPLANT.empty_weight(2)) == (1.0, 0.5)
    assert METRO_X.empty_weight(1) == METRO_X.empty_weight(4) == 0.5  # 10 points over 20


def test_metro_x_two_players_transfer_written_twice_and_no_penalty_below_five() -> None:
    rounds = [("4", [{"line": "A"}, {"line": "B"}]), ("+", [{"line": "B"}, {"line": "A"}])]
    rep = run(T_MX, rounds, 2)
    # p0: A a1-a4, then the transfer on B at b1 (1 line: written 2). Empty a5 b3 b5: 3, cost 0.
    b = rep.state.breakdown(0)
    assert (b.interchanges, b.interchange_points, b.empty_stations, b.penalty, b.score) == (
        (1,), 2, 3, 0, 2,
    )  # fmt: skip
    assert rep.state.scores() == [2, 2]
    # the same moves under Voll verplant: 3 empty stations cost 1 with two players
    assert run(T_VV, rounds, 2).state.scores() == [1, 1]


def test_metro_x_solo_completion_and_table_penalty() -> None:
    # A 5: a1-a5, line A complete (solo: the higher bonus, 5). Empty b1 b3 b5: 3, cost 0.
    assert run(T_MX, [("5", [{"line": "A"}])]).state.scores() == [5]
    # A 3: a1-a3. Empty a4 a5 b1 b3 b5: 5, cost 1 (Voll verplant solo: 5).
    assert run(T_MX, [("3", [{"line": "A"}])]).state.scores() == [-1]
    assert run(T_VV, [("3", [{"line": "A"}])]).state.scores() == [-5]


def test_the_deck_and_its_reshuffle_follow_the_ruleset() -> None:
    st = Game(T_MX).new_initial_state(0)
    assert st.chance_outcomes() == [(k, n / 15) for k, n in enumerate(METRO_X.counts) if n]
    ok = Game(tiny_map(LINES, ruleset="metro-x-okazu")).new_initial_state(0)
    assert dict(ok.chance_outcomes())[CARD_BY_NAME["2"]] == pytest.approx(2 / 21)
    # a 2 is a number card: two crosses from the first empty stop
    rep = run(tiny_map(LINES, ruleset="metro-x-okazu"), [("2", [{"line": "A"}])])
    assert rep.state.marked(0).bit_count() == 2


def test_a_voll_verplant_record_knows_no_2() -> None:
    with pytest.raises(RecordError, match=r"unknown card '2' \(the deck has 3, 4, 5, 6, x2"):
        run(T_VV, [("2", [{"line": "A"}])])


def test_records_name_their_ruleset_and_replay_refuses_another() -> None:
    doc = record(T_MX, ["ana"], [("4", [{"line": "A"}])])
    assert doc["ruleset"] == "metro-x"
    assert replay(T_MX, doc, upto=1).state.scores() == [0]
    why = "played under the metro-x ruleset, but this replay uses voll-verplant (the map's);"
    with pytest.raises(RecordError, match=re.escape(why + " replay it with --ruleset metro-x")):
        replay(T_VV, doc, upto=1)
    assert replay(T_VV, doc, upto=1, ruleset=METRO_X).state.scores() == [0]
    plain = record(T_VV, ["ana"], [("4", [{"line": "A"}])])
    assert "ruleset" not in plain
    with pytest.raises(RecordError, match="played under the voll-verplant ruleset"):
        replay(T_MX, plain, upto=1)


def test_a_whole_metro_x_game_round_trips_through_its_record() -> None:
    game = Game(T_MX, players=2)
    state = last_choice_game(game, 11)
    doc = record_from_history(game, state.history(), ["ana", "ben"], seed=11)
    assert doc["ruleset"] == "metro-x"
    assert replay(T_MX, json.loads(json.dumps(doc))).state.scores() == state.scores()


@pytest.mark.parametrize("name", ["metro-x", "metro-x-okazu"])
def test_kernel_plays_the_checked_games_under_each_edition(name: str, benchmark_maps) -> None:
    """The differential harness of tests/test_kernel_agrees.py, under the other editions."""
    for path in (benchmark_maps / "metro-city.json", benchmark_maps / "tube-town.json"):
        city = load_source(path.read_bytes()).map
        for players in (1, 3):
            agree_in_every_seating(
                Game(city, GameOptions(players, ruleset=get_ruleset(name))), range(2)
            )


def test_custom_rulesets_and_their_problems() -> None:
    r = ruleset_from_doc({"base": "metro-x", "penalty": "halved", "deck": {"3": 6, "6": 1}})
    assert r.id.startswith("metro-x+") and len(r.id) == len("metro-x+") + 8
    assert (r.deck_size, r.penalty(7, 2), r.interchange) == (7, 3, "written-twice")
    assert ruleset_from_doc({"base": "metro-x", "penalty": "halved", "deck": {"3": 6, "6": 1}}) == r
    for doc, why in [
        ({"deck": {"3": 2}}, "no reshuffle card"),
        ({"deck": {"+": 2, "6": 0, "free": 1}, "reshuffle": "free"}, "no number or express"),
        ({"penalty": [[5, 1], [3, 2]]}, "ascending order"),
        ({"players": [4, 2]}, "players must be a range"),
    ]:
        with pytest.raises(RulesetError, match=why):
            ruleset_from_doc(doc)
    with pytest.raises(RulesetError, match="unknown ruleset 'metro-z': the rulesets are "
                       "voll-verplant, metro-x, metro-x-okazu"):  # fmt: skip
        get_ruleset("metro-z")


def test_an_unknown_ruleset_name_is_one_located_diagnostic(tiny_doc) -> None:
    tiny_doc["ruleset"] = "metro-z"
    result = load_source(json.dumps(tiny_doc, indent=2))
    assert result.map is None
    (d,) = result.diagnostics
    assert (d.code, d.pointer, d.line) == ("REF010", "/ruleset", 67)
    assert d.message == (
        "the map's ruleset cannot be played: unknown ruleset 'metro-z': the rulesets are"
        " voll-verplant, metro-x, metro-x-okazu"
    )


def test_play_simulate_and_replay_take_ruleset(tmp_path) -> None:
    from typer.testing import CliRunner

    from mapkit.cli import app

    runner = CliRunner()
    rec = tmp_path / "game.json"
    args = ["play", "berlin", "--no-human", "--bots", "greedy,greedy", "--seed", "4"]
    res = runner.invoke(app, [*args, "--ruleset", "metro-x", "--record", str(rec)])
    assert res.exit_code == 0, res.output
    doc = json.loads(rec.read_text())
    assert doc["ruleset"] == "metro-x"
    refused = runner.invoke(app, ["replay", str(rec), "--map", "berlin"])
    assert refused.exit_code == 1
    assert "played under the metro-x ruleset, but this replay uses voll-verplant" in refused.stderr
    ok = runner.invoke(app, ["replay", str(rec), "--map", "berlin", "--ruleset", "metro-x"])
    assert ok.exit_code == 0, ok.output
    sim = runner.invoke(
        app, ["simulate", "berlin", "-n", "3", "--ruleset", "metro-x", "-f", "json"]
    )
    assert json.loads(sim.stdout)["ruleset"] == "metro-x"
    bad = runner.invoke(app, ["simulate", "berlin", "--ruleset", "metro-z"])
    assert bad.exit_code == 2 and "'metro-z' is not one of" in bad.output


def test_a_record_under_an_unknown_or_a_maps_own_ruleset_is_refused_with_the_way_out() -> None:
    doc = record(T_VV, ["ana"], [("4", [{"line": "A"}])])
    with pytest.raises(RecordError, match=re.escape(
        "played under the metro-z ruleset, but this replay uses voll-verplant (the map's);"
        " mapkit knows no such ruleset (the rulesets are voll-verplant, metro-x, metro-x-okazu)"
    )):  # fmt: skip
        replay(T_VV, {**doc, "ruleset": "metro-z"}, upto=1)
    with pytest.raises(RecordError, match="replay it on the map it was played on"):
        replay(T_VV, {**doc, "ruleset": "metro-x+0123abcd"}, upto=1)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["report", "{m}", "--players", "1"],
         "--players 1: {r} is played by 2 to 4 players, not 1"),
        (["report", "{m}", "--players", "3"],
         "--players 3: {r} is played by 2 to 4 players, not 1 (the design measures play solo"
         " games too)"),
        (["compare", "{m}", "{m}", "--players", "6"], "--players 6: {r} is played by 2 to 4"
         " players, not 6"),
        (["simulate", "{m}", "--bots", "greedy"], "--bots: {r} is played by 2 to 4 players, not 1"),
        (["tune", "{m}", "--mean", "9", "-o", "{t}"], "{r} is played by 2 to 4 players, not 1"),
        (["report", "berlin", "--players", "0"], "--players 0: voll-verplant is played by 1 to 6"
         " players, not 0"),
    ],
    ids=["report-solo", "report-table", "compare", "simulate", "tune", "report-rulebook"],
)  # fmt: skip
def test_the_commands_seat_players_by_the_rulesets_one_check(tmp_path, tiny_doc, args, says):
    """``Ruleset.check_players`` (the game's own check): one line and exit 2 before any game,
    not a traceback from deep inside the measure (a map whose ruleset is played by 2 to 4)."""
    from typer.testing import CliRunner

    from mapkit.cli import app
    from mapkit.mapfile import load_map

    tiny_doc["ruleset"] = {"base": "voll-verplant", "players": [2, 4]}
    m = tmp_path / "duo.json"
    m.write_text(json.dumps(tiny_doc), encoding="utf-8")
    r = load_map(m).ruleset.id
    res = CliRunner().invoke(app, [a.format(m=m, t=tmp_path / "t.json") for a in args])
    assert res.exit_code == 2 and res.stderr == f"mapkit: {says.format(r=r)}\n", res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["duo.json"]
    with pytest.raises(ValueError, match=re.escape(f"{r} is played by 2 to 4 players, not 5")):
        Game(load_map(m), players=5)
