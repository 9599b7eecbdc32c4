"""Lines startable from either end (``"both_ends": true``), worked by hand on map E.

Map E:  A (both ends): a1 a2 a3 a4 a5   B: b1 a2 b3 a4 b5   (a2 and a4 on both lines).
A move on A picks an end (``direction``: forward from a1, backward from a5) and crosses inward
from the first empty stop counted from that end; one wagon, one pool of windows.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mapkit.engine import Game, card_kind
from mapkit.engine.actions import decode
from mapkit.engine.record import RecordError
from mapkit.engine.testing import run
from mapkit.mapfile import load_source
from tests.test_kernel_agrees import agree_in_every_seating


def _doc(**line_a) -> dict:
    return {
        "format": "mapkit-map/1",
        "id": "ends",
        "name": "Ends",
        "stations": [
            {"id": s, "x": i, "y": 0}
            for i, s in enumerate(["a1", "a2", "a3", "a4", "a5", "b1", "b3", "b5"])
        ],
        "lines": [
            {"id": "A", "color": "#000000", "windows": 3, "points": {"first": 5, "others": 3},
             "depot": {"x": -1, "y": 0}, "stops": ["a1", "a2", "a3", "a4", "a5"], **line_a},
            {"id": "B", "color": "#ffffff", "windows": 3, "points": {"first": 5, "others": 3},
             "depot": {"x": -1, "y": 1}, "stops": ["b1", "a2", "b3", "a4", "b5"]},
        ],
    }  # fmt: skip


ENDS = load_source(json.dumps(_doc(both_ends=True))).map


def marked(rep, p=0) -> set[str]:
    t = rep.game.tables
    return {t.station_ids[s] for s in range(t.n_stations) if rep.state.marked(p) >> s & 1}


def test_routes_run_from_both_ends_inward() -> None:
    a = ENDS.line("A")
    assert a.routes == ((0, 1, 2, 3, 4), (4, 3, 2, 1, 0))
    assert a.termini == ("a1", "a5") and ENDS.line("B").termini == ("b5",)


def test_a_move_picks_an_end_and_fills_inward() -> None:
    rep = run(ENDS, [("3", [{"line": "A", "direction": "backward"}])])
    assert marked(rep) == {"a5", "a4", "a3"}
    # then a 4 from the wagon's end: a1, a2, and stops at the marked a3
    rep = run(ENDS, [("3", [{"line": "A", "direction": "backward"}]), ("4", [{"line": "A"}])])
    assert marked(rep) == {"a1", "a2", "a3", "a4", "a5"}
    b = rep.state.breakdown(0)
    assert (b.completed, b.empty_stations, b.score) == ({"A": 5}, 3, 5 - 3)
    assert rep.windows[0]["A"] == ["3", "4"]  # one pool of windows for both ends


def test_a_number_card_from_the_far_end_stops_at_a_marked_stop() -> None:
    # B 4: b1 a2 b3 a4. A 5 backward: a5, then a4 is marked: one cross, the rest is lost.
    rounds = [("4", [{"line": "B"}]), ("5", [{"line": "A", "direction": "backward"}])]
    assert marked(run(ENDS, rounds)) == {"b1", "a2", "b3", "a4", "a5"}
    with pytest.raises(RecordError, match="more crosses than possible: 2 crosses on line A"
                       " backward"):  # fmt: skip
        run(ENDS, [("4", [{"line": "B"}]),
                   ("5", [{"line": "A", "direction": "backward", "crosses": 2}])])  # fmt: skip


def test_express_and_interchange_from_the_far_end() -> None:
    # after B's b1 a2 b3 a4, an express 3 from a5's end: a5, skips a4, a3, skips a2, a1
    rep = run(ENDS, [("4", [{"line": "B"}]), ("x3", [{"line": "A", "direction": "backward"}])])
    assert marked(rep) - {"b1", "a2", "b3", "a4"} == {"a5", "a3", "a1"}
    # an interchange from the far end boxes its first empty stop: a4, on lines A and B
    rounds = [("free", [{"station": "a5"}]), ("+", [{"line": "A", "direction": "backward"}])]
    rep = run(ENDS, rounds)
    assert rep.state.interchanges(0) == (2,)
    assert rep.state.boxed(0) == 1 << rep.game.tables.station_index["a4"]
    assert run(ENDS, [("+", [{"line": "A"}])]).state.interchanges(0) == (1,)  # a1: line A only
    with pytest.raises(RecordError, match="line B is travelled one way only"):
        run(ENDS, [("3", [{"line": "B", "direction": "backward"}])])


def test_the_same_stops_from_either_end_are_one_listed_move() -> None:
    # a1-a4 marked: the one empty stop a5 is reached from both ends; the backward move is the
    # forward one, listed once
    st = run(ENDS, [("4", [{"line": "A"}])]).state
    st.apply_action(card_kind("3"))
    moves = [decode(a) for a in st.legal_actions() if decode(a).line == 0]
    assert moves == [(0, 0, 0), (0, 0, 1)]
    st.apply_action(st.move_to_action({"line": "A", "direction": "backward"}))
    assert decode(st.history()[-1]) == moves[1] and st.marked(0).bit_count() == 5  # as forward


def test_a_loop_with_both_ends_is_ref011() -> None:
    doc = _doc(both_ends=True, loop=True)
    result = load_source(json.dumps(doc, indent=2))
    (d,) = result.diagnostics
    assert (d.code, d.pointer) == ("REF011", "/lines/0/both_ends")
    assert d.message == "loop line 'A' has both_ends: a loop has no ends"


def test_both_ends_changes_the_fingerprint_only_where_set() -> None:
    from mapkit.mapfile.model import fingerprint

    plain = load_source(json.dumps(_doc())).map
    assert fingerprint(plain) != fingerprint(ENDS)
    assert fingerprint(plain) == fingerprint(load_source(json.dumps(_doc(both_ends=False))).map)


def test_kernel_plays_the_checked_games_on_two_ended_lines() -> None:
    from mapkit.engine import GameOptions

    for players in (1, 2, 4):
        for special in (False, True):
            agree_in_every_seating(Game(ENDS, GameOptions(players, special)), range(6))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31), st.integers(1, 3))
def test_two_ended_moves_never_skip_an_empty_station(seed: int, players: int) -> None:
    """A number card's crosses on a two-ended line are the first empty stops counted from the
    chosen end, contiguous (a marked stop ends them); an express card's skip only marked ones."""
    game = Game(ENDS, players=players)
    t = game.tables
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    li = t.line_index["A"]
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal()
            continue
        p = state.current_player()
        action = state.random_action(rng.random)
        before = state.marked(p)
        card = state.card()
        state.apply_action(action)
        if action >= t.free_base or decode(action).line != li:
            continue
        _, route, k = decode(action)
        order = [t.stops[li][j] for j in t.routes[li][route]]
        new = [s for s in order if (state.marked(p) & ~before) >> s & 1]
        empties = [s for s in order if not before >> s & 1]
        if card in (0, 1, 2, 3, 8):  # number cards: a contiguous run from the first empty
            assert new == empties[:k]
            pos = [order.index(s) for s in new]
            assert pos == list(range(pos[0], pos[0] + len(pos))) if pos else True
        elif card in (4, 5):  # express: the first empties in order, marked ones skipped
            assert new == empties[:k]
