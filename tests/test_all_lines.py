"""The all-lines bonus (``"all_lines_bonus"``), worked by hand on map T.

Map T:  A: a1 a2 a3 a4 a5   B: b1 a2 b3 a4 b5   (a2 and a4 on both lines; points 5/3), with an
all-lines bonus of 4 for the first, 2 for the others (rules-notes 22).
"""

from __future__ import annotations

import json

import pytest

from mapkit.engine import Game, GameOptions
from mapkit.engine.record import record_from_history, replay
from mapkit.engine.testing import last_choice_game, run, tiny_map
from mapkit.mapfile import load_source
from mapkit.simulate.runner import kernel_for
from tests.test_kernel_agrees import _agree, _checked_game, _params, _seatings


def _map(condition: str | None = None) -> object:
    bonus: dict = {"first": 4, "others": 2}
    if condition:
        bonus["condition"] = condition
    doc = {
        "format": "mapkit-map/1", "id": "all", "name": "All", "all_lines_bonus": bonus,
        "stations": [{"id": s, "x": i, "y": 0} for i, s in
                     enumerate(["a1", "a2", "a3", "a4", "a5", "b1", "b3", "b5"])],
        "lines": [
            {"id": "A", "color": "#000000", "windows": 3, "points": {"first": 5, "others": 3},
             "depot": {"x": -1, "y": 0}, "stops": ["a1", "a2", "a3", "a4", "a5"]},
            {"id": "B", "color": "#ffffff", "windows": 3, "points": {"first": 5, "others": 3},
             "depot": {"x": -1, "y": 1}, "stops": ["b1", "a2", "b3", "a4", "b5"]},
        ],
    }  # fmt: skip
    return load_source(json.dumps(doc)).map


CROSS = _map()
DONE = _map("every_line_completed")


def test_a_cross_on_every_line_races_like_a_line() -> None:
    # round 1: p0 3 on A (a1 a2 a3: a2 is on B too, so both lines have a cross): p0 meets it
    # first; p1 3 on B (b1 a2 b3: a2 is on A): p1 meets it in the same round, also first
    rep = run(CROSS, [("3", [{"line": "A"}, {"line": "B"}])], 2)
    assert [rep.state.all_lines_bonus(p) for p in (0, 1)] == [4, 4]
    rounds = [("3", [{"line": "A"}, {"line": "A", "crosses": 1}]), ("3", [{"line": "A"}] * 2)]
    rep = run(CROSS, rounds, 2)
    # round 1: p0 a1 a2 a3 (a2 on B: met); p1 only a1 (B has none). Round 2: p1 a2 a3 a4: met
    assert [rep.state.all_lines_bonus(p) for p in (0, 1)] == [4, 2]
    b = rep.state.breakdown(1)
    assert (b.all_lines, b.line_points) == (2, 2)


def test_the_bonus_counts_in_the_score_and_solo_always_first() -> None:
    rep = run(CROSS, [("4", [{"line": "B"}])])  # b1 a2 b3 a4: both lines crossed
    b = rep.state.breakdown(0)
    # lines 0 + bonus 4, no interchange; empty: a1 a3 a5 b5 = 4, solo penalty 4
    assert (b.all_lines, b.line_points, b.empty_stations, b.score) == (4, 4, 4, 0)
    assert rep.state.scores() == [0]


def test_every_line_completed_is_the_other_condition() -> None:
    rep = run(DONE, [("5", [{"line": "A"}])])
    assert rep.state.all_lines_bonus(0) == 0  # B is not complete
    rep = run(DONE, [("5", [{"line": "A"}]), ("x3", [{"line": "B"}])])
    # B: b1, skips a2, b3, skips a4, b5: complete in round 2 -> bonus 4 (solo)
    assert rep.state.all_lines_bonus(0) == 4
    assert rep.state.line_points(0) == 5 + 5 + 4


@pytest.mark.parametrize("city", [CROSS, DONE], ids=["cross", "completed"])
def test_kernel_plays_the_checked_games_with_the_bonus(city) -> None:
    scored = 0
    for players in (1, 3):
        game = Game(city, GameOptions(players))
        for bots in _seatings(players):
            kernel = kernel_for(game, bots)
            for seed in range(5):
                _agree(game, kernel, bots, seed)
                state = _checked_game(game, bots, seed)
                bonus = [state.all_lines_bonus(p) for p in range(players)]
                assert kernel.play_batch([seed]).bonus[0].tolist() == bonus
                scored += sum(1 for x in bonus if x)
    assert scored >= 10  # the games do reach the bonus (both conditions, both values)


def test_records_replay_the_bonus() -> None:
    game = Game(CROSS, players=2)
    state = last_choice_game(game, 3)
    doc = record_from_history(game, state.history(), ["ana", "ben"], seed=3)
    rep = replay(CROSS, json.loads(json.dumps(doc)))
    assert rep.state.scores() == state.scores()
    assert [rep.state.all_lines_bonus(p) for p in (0, 1)] == [
        state.all_lines_bonus(p) for p in (0, 1)
    ]


def test_the_sheet_has_a_bonus_row_and_the_example_city_plays_both_mechanics() -> None:
    from pathlib import Path

    from mapkit.mapfile import load_map
    from mapkit.render.svg import sheet_svg
    from tests.test_render_common import parse, with_class

    city = load_map(Path(__file__).resolve().parent.parent / "examples" / "kita.json")
    assert city.all_lines is not None and [ln.id for ln in city.lines if ln.both_ends] == ["A", "B"]
    root = parse(sheet_svg(city).svg)
    rows = [g.get("id") for g in with_class(root, "panel-row", "g")]
    assert rows == [f"row-{ln.id}" for ln in city.lines] + ["row-all"]
    (diamond,) = [el for el in root.iter() if el.get("id") == "diamond-all"]
    assert diamond.get("class") == "diamond"
    halos = {el.get("data-line") for el in with_class(root, "terminus-mark", "path")}
    assert {"A", "B"} <= halos


def test_state_says_what_bonus_is_still_open() -> None:
    rep = run(CROSS, [("3", [{"line": "A"}, {"line": "A", "crosses": 1}])], 2)
    # p0 met it in round 1 (nothing left to win); p1 did not: only the others' 2 are left
    assert [rep.state.all_lines_open(p) for p in (0, 1)] == [0, 2]
    fresh = Game(CROSS, players=2).new_initial_state(0)
    assert [fresh.all_lines_open(p) for p in (0, 1)] == [4, 4]
    plain = tiny_map({"A": ["a1", "a2"]})
    assert Game(plain).new_initial_state(0).all_lines_open(0) == 0


def test_the_greedy_evaluation_aims_for_the_bonus() -> None:
    """A line without a cross meets the condition by one of its windows left, each with the
    chance of one card (beta = 0.8): 1 - 0.2^3 = 0.992 with 3 windows; both lines: 0.992^2.
    A free ride on a1 crosses A only (0.992 after), the 3 on A crosses both (a2 is on B): the
    gains rise by 4 times the change of that chance."""
    from mapkit.bots import make_bot
    from mapkit.bots.base import view_of
    from mapkit.bots.evaluate import View
    from mapkit.engine import card_kind

    state = Game(CROSS).new_initial_state(0)
    bot = make_bot("greedy")
    ev = bot.evaluator(state)
    v = view_of(state, ev.cc)
    assert v.all_lines == 4
    blind = View(v.marked, v.windows, v.lost, v.done, v.inter, v.pw, 0)
    before = 0.992**2
    for card, term in (("free", 4 * (0.992 - before)), ("3", 4 * (1 - before))):
        with_bonus = ev.candidates(v, card_kind(card))
        without = ev.candidates(blind, card_kind(card))
        changes = [a.gain - b.gain for a, b in zip(with_bonus, without, strict=True)]
        if card == "free":  # a1, b1, none
            assert changes == pytest.approx([term, term, 0.0], abs=1e-12)
        else:  # A, B: each marks a2
            assert changes == pytest.approx([term, term], abs=1e-12)
    assert ev.value(v) - ev.value(blind) == pytest.approx(4 * before, abs=1e-12)
    done = Game(DONE).new_initial_state(0)
    dev = bot.evaluator(done)
    dv = view_of(done, dev.cc)
    # every line completed: each needs one card (5 stops, 5 a card): 0.8 each, 0.64 both
    dblind = View(dv.marked, dv.windows, dv.lost, dv.done, dv.inter, dv.pw, 0)
    assert dev.value(dv) - dev.value(dblind) == pytest.approx(4 * 0.64, abs=1e-12)


def test_the_final_score_of_a_view_counts_the_bonus_it_meets() -> None:
    from mapkit.bots.evaluate import View, final_score
    from mapkit.bots.model import Compiled

    cc = Compiled(Game(CROSS).tables)
    a2 = 1 << cc.station_index["a2"]
    assert final_score(cc, View(a2, [0, 0], all_lines=4)) == 4 - 7  # both crossed, 7 empty
    a1 = 1 << cc.station_index["a1"]
    assert final_score(cc, View(a1, [0, 0], all_lines=4)) == 0 - 7  # B has no cross


@pytest.mark.parametrize("city", [CROSS, DONE], ids=["cross", "completed"])
def test_kernel_lookahead_plays_the_checked_games_with_the_bonus(city) -> None:
    game = Game(city, GameOptions(3))
    bots = ("lookahead", "greedy", "lookahead")
    kernel = kernel_for(game, bots)
    for seed in range(4):
        _agree(game, kernel, bots, seed)


def test_the_kernel_source_evaluates_the_bonus_as_the_compiled_module() -> None:
    """Greedy's gains with the bonus open, compiled and run as Python, along a random game of
    the example city (both conditions)."""
    import random
    from dataclasses import replace
    from pathlib import Path

    import numpy as np

    from mapkit.bots.base import view_of
    from mapkit.bots.model import Compiled
    from mapkit.engine import kernel
    from mapkit.mapfile import load_map
    from mapkit.mapfile.model import AllLinesBonus

    source = kernel.uncompiled()
    kita = load_map(Path(__file__).resolve().parent.parent / "examples" / "kita.json")
    for condition in ("every_line_has_cross", "every_line_completed"):
        game = Game(replace(kita, all_lines=AllLinesBonus(6, 3, condition)), players=2)
        t = game.tables
        src_km = source.kernel_map(t)
        src_bp, src_sc = _params(source.bot_params), source.Scratch(src_km)
        bp, sc = _params(), kernel.Scratch(t.kernel)
        cc = Compiled(t)
        rng = random.Random(1)
        state = game.new_initial_state(1)
        open_decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.deal()
                continue
            v = view_of(state, cc)
            mk = kernel.station_marks(t.kernel)
            for s in range(t.n_stations):
                mk[s] = v.marked >> s & 1
            win = np.array(v.windows, np.int64)
            lost = np.array([v.lost >> li & 1 for li in range(t.n_lines)], np.int64)
            args = (mk, win, lost, v.pw, v.all_lines, state.card(), 0.0)
            got = source.candidates(src_km, src_bp, *args, src_sc)
            assert got == kernel.candidates(t.kernel, bp, *args, sc)
            open_decisions += v.all_lines > 0
            state.apply_action(rng.choice(state.legal_actions()))
        assert open_decisions > 5
