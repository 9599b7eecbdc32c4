"""One test per numbered note of rules-notes.md, worked out by hand on tiny maps.

Map T (unless a test builds its own):  A: a1 a2 a3 a4 a5   B: b1 a2 b3 a4 b5
(a2 and a4 are shared: intersection count 2; every other station 1).
"""

from __future__ import annotations

import pytest

from mapkit.engine import CHANCE, TERMINAL, Game, IllegalMove, card_kind, solo_band, solo_rating
from mapkit.engine.actions import decode, line_move
from mapkit.engine.record import RecordError
from mapkit.engine.testing import run, tiny_map
from mapkit.rulesets import VOLL_VERPLANT

T = tiny_map({"A": ["a1", "a2", "a3", "a4", "a5"], "B": ["b1", "a2", "b3", "a4", "b5"]})


def marked(rep, p=0) -> set[str]:
    t = rep.game.tables
    return {t.station_ids[s] for s in range(t.n_stations) if rep.state.marked(p) >> s & 1}


def max_crosses(state, line: str, backward: bool = False) -> int:
    """The largest number of crosses legal_actions offers on a line."""
    t = state.game.tables
    li = t.line_index[line]
    moves = [decode(a) for a in state.legal_actions() if a < state.game.tables.free_base]
    return max(k for line_, route, k in moves if line_ == li and route == backward)


def revealed(city, rounds, card, players=1, special=False):
    """The state after ``rounds``, with ``card`` revealed for the next round."""
    st = run(city, rounds, players, special).state
    st.apply_action(card_kind(card))
    return st


def test_note_01_start_passes_marked_stops_whatever_line_marked_them():
    # a1 by a free ride, a2 by line B; a 4 on A passes both and starts at a3.
    st = revealed(T, [("free", [{"station": "a1"}]), ("3", [{"line": "B"}])], "4")
    assert max_crosses(st, "A") == 3  # a3, a4, a5 then the terminus
    st.apply_action(st.move_to_action({"line": "A"}))
    assert st.marked(0) == (1 << 7) - 1  # a1..a5, b1, b3: every station but b5
    assert st.game.tables.station_ids[7] == "b5"


def test_note_02_number_card_stops_at_marked_stop_terminus_or_choice():
    # B 3: b1 a2 b3. A 5: a1, then a2 is marked: one cross, the rest is lost.
    st = revealed(T, [("3", [{"line": "B"}])], "5")
    assert max_crosses(st, "A") == 1
    with pytest.raises(IllegalMove, match="more crosses than possible"):
        st.move_to_action({"line": "A", "crosses": 2})
    # B 5 again: a4, b5 then the terminus: 2 crosses; fewer (0) is also legal.
    assert max_crosses(st, "B") == 2
    assert st.move_to_action({"line": "B", "crosses": 0}) == line_move(
        st.game.tables.line_index["B"], 0, 0
    )
    rep = run(T, [("3", [{"line": "B"}]), ("5", [{"line": "A"}])])
    assert marked(rep) == {"b1", "a2", "b3", "a1"}


def test_note_03_express_skips_marked_stops_never_empty_ones():
    # B 3: b1 a2 b3. Express 3 on A: a1, skip a2, a3, a4.
    rep = run(T, [("3", [{"line": "B"}]), ("x3", [{"line": "A"}])])
    assert marked(rep) >= {"a1", "a3", "a4"} and "a5" not in marked(rep)
    # Express 2 with 2 crosses: a1, a3 (a1 is never skipped to reach a4).
    rep = run(T, [("3", [{"line": "B"}]), ("x2", [{"line": "A", "crosses": 2}])])
    assert marked(rep) == {"b1", "a2", "b3", "a1", "a3"}
    # Fewer crosses are allowed.
    rep = run(T, [("3", [{"line": "B"}]), ("x3", [{"line": "A", "crosses": 1}])])
    assert marked(rep) == {"b1", "a2", "b3", "a1"}


def test_note_04_interchange_writes_intersection_count_on_first_empty_stop():
    rep = run(T, [("+", [{"line": "A"}])])
    assert rep.state.interchanges(0) == (1,)  # a1: only line A stops there
    assert rep.windows[0]["A"] == ["+"]
    rep = run(T, [("free", [{"station": "a1"}]), ("+", [{"line": "A"}])])
    assert rep.state.interchanges(0) == (2,)  # a2: lines A and B
    assert rep.state.boxed(0) == 1 << rep.game.tables.station_index["a2"]
    # A line with no empty stop: the window is filled, nothing is marked.
    rep = run(T, [("5", [{"line": "A"}]), ("+", [{"line": "A"}])])
    assert rep.state.interchanges(0) == () and rep.state.windows_left(0, 0) == 1
    with pytest.raises(RecordError, match="an interchange places no crosses"):
        run(T, [("+", [{"line": "A", "crosses": 1}])])


def test_note_05_free_ride_marks_any_empty_station_or_none_and_fills_no_window():
    rep = run(T, [("free", [{"station": "b5"}])])
    assert marked(rep) == {"b5"}
    assert rep.state.windows_left(0) == 6
    rep = run(T, [("free", [{"station": None}])])
    assert marked(rep) == set() and rep.state.windows_left(0) == 6
    with pytest.raises(RecordError, match="station b5 is already marked"):
        run(T, [("5", [{"line": "B"}]), ("free", [{"station": "b5"}])])


def test_note_06_windows_full_line_blocked_full_stops_still_choosable_finished_player():
    city = tiny_map({"A": {"stops": ["a1", "a2"], "windows": 1}, "B": {"stops": ["b1", "a2"]}})
    # A is complete after its only window; B (stops all marked later) can still be chosen.
    st = revealed(city, [("3", [{"line": "A"}])], "4")
    with pytest.raises(IllegalMove, match="line A has no empty window"):
        st.move_to_action({"line": "A"})
    rep = run(city, [("3", [{"line": "A"}]), ("3", [{"line": "B"}]), ("4", [{"line": "B"}])])
    assert rep.windows[0]["B"] == ["3", "4"]  # the 4 is wasted: nothing left to mark
    assert rep.state.windows_left(0, 1) == 1
    rep = run(
        city,
        [
            ("3", [{"line": "A"}]),
            ("3", [{"line": "B"}]),
            ("4", [{"line": "B"}]),
            ("x2", [{"line": "B"}]),
        ],
        partial=False,
    )
    assert rep.state.current_player() == TERMINAL  # all 4 windows filled: finished


LOOP = tiny_map({"L": {"stops": ["l1", "l2", "l3", "l4", "l5", "l6"], "loop": True}})


def test_note_07_loop_line_direction_chosen_each_time():
    # 2 forward: l1 l2. Then 3 backward: from l1 backward, first empty l6, then l5, l4.
    st = revealed(LOOP, [("x2", [{"line": "L", "direction": "forward"}])], "3")
    assert max_crosses(st, "L", backward=True) == 3
    rep = run(LOOP, [("x2", [{"line": "L"}]), ("3", [{"line": "L", "direction": "backward"}])])
    assert marked(rep) == {"l1", "l2", "l6", "l5", "l4"}
    # No terminus: a 4 forward passes l1 l2, marks l3 and stops at the marked l4.
    st = revealed(
        LOOP, [("x2", [{"line": "L"}]), ("3", [{"line": "L", "direction": "backward"}])], "4"
    )
    assert max_crosses(st, "L") == 1
    st.apply_action(st.move_to_action({"line": "L"}))
    assert st.completed(0) == 1  # all six stops marked: complete
    # Interchange follows the chosen direction: after l1 l2, backward finds l6.
    rep = run(LOOP, [("x2", [{"line": "L"}]), ("+", [{"line": "L", "direction": "backward"}])])
    assert marked(rep) == {"l1", "l2", "l6"}
    rep = run(LOOP, [("x2", [{"line": "L"}]), ("+", [{"line": "L"}])])
    assert marked(rep) == {"l1", "l2", "l3"}
    # With l1 empty both directions start there; backward continues to l6.
    rep = run(LOOP, [("x2", [{"line": "L", "direction": "backward"}])])
    assert marked(rep) == {"l1", "l6"}
    # A backward move that marks what the forward one marks is the same action.
    st = revealed(LOOP, [], "3")
    fwd = st.move_to_action({"line": "L", "crosses": 1})
    assert st.move_to_action({"line": "L", "crosses": 1, "direction": "backward"}) == fwd


RACE = tiny_map(
    {
        "A": {"stops": ["a1", "m"], "first": 5, "others": 3},
        "B": {"stops": ["b1", "m"], "first": 4, "others": 2},
        "C": {"stops": ["c1", "c2"], "first": 3, "others": 1},
    }
)


def test_note_08_completion_race_ties_several_lines_free_ride():
    rounds = [
        ("3", [{"line": "B", "crosses": 1}, {"line": "C"}]),  # p0: b1; p1 completes C (first)
        ("4", [{"line": "A"}, {"line": "B"}]),  # p0: a1 m -> A and B; p1: b1 m -> B (tie)
        ("free", [{"station": "c1"}, {"station": "a1"}]),  # p1 completes A by a free ride
        ("+", [{"line": "C"}, {"line": "A"}]),  # p0: c2 (1) completes C later
    ]
    rep = run(RACE, rounds, 2)
    b0, b1 = rep.state.breakdown(0), rep.state.breakdown(1)
    assert b0.completed == {"A": 5, "B": 4, "C": 1}  # A and B first (B a tie), C others
    assert b1.completed == {"B": 4, "C": 3, "A": 3}  # B first (tie), C first, A others
    assert rep.taken_round == {"C": 1, "A": 2, "B": 2}


def test_note_09_solo_every_completed_line_scores_first():
    rep = run(RACE, [("x2", [{"line": "A"}]), ("6", [{"line": "B"}])], 1)
    assert rep.state.breakdown(0).completed == {"A": 5, "B": 4}


def test_note_10_deck_reshuffled_after_the_six_never_runs_out():
    game = Game(T)
    st = game.new_initial_state(0)
    full = [(k, c / 14) for k, c in enumerate(VOLL_VERPLANT.counts) if c]
    assert st.chance_outcomes() == full
    order = ["3", "3", "4", "4", "4", "5", "5", "x2", "x2", "x3", "+", "+", "free"]
    for name in order[:2]:
        st.apply_action(card_kind(name))
        st.apply_action(st.legal_actions()[0])
    with pytest.raises(IllegalMove, match="no copy of it is left"):
        st.apply_action(card_kind("3"))
    st.apply_action(card_kind("6"))
    assert st.draw_pile() == {"4": 3, "5": 2, "x2": 2, "x3": 1, "+": 2, "free": 1}
    st.apply_action(st.legal_actions()[0])
    assert st.chance_outcomes() == full  # after the round of the 6: all 14 again
    # 13 cards without the 6: the 14th can only be the 6.
    st = Game(
        tiny_map(
            {
                "A": {"stops": [f"s{i}" for i in range(30)], "windows": 8},
                "B": {"stops": [f"t{i}" for i in range(30)], "windows": 8},
            }
        )
    ).new_initial_state(0)
    for name in order:
        st.apply_action(card_kind(name))
        st.apply_action(st.legal_actions()[0])
    assert st.chance_outcomes() == [(card_kind("6"), 1.0)]


def test_note_11_game_ends_after_all_windows_filled_finished_players_null():
    city = tiny_map(
        {
            "A": {"stops": ["a1", "a2", "a3"], "windows": 1},
            "B": {"stops": ["b1", "b2", "b3"], "windows": 1},
        }
    )
    rep = run(
        city,
        [("3", [{"line": "A"}]), ("free", [{"station": None}]), ("4", [{"line": "B"}])],
        partial=False,
    )
    assert rep.rounds == 3 and rep.state.is_terminal()
    # Variant: p0 reaches the special station s with a 3 and plays the extra action at once,
    # so p0 has finished after round 1; in round 2 only p1 moves (p0: null).
    sp = tiny_map(
        {
            "A": {"stops": ["a1", "s", "a3"], "windows": 1},
            "B": {"stops": ["b1", "b2", "b3"], "windows": 1},
        },
        special=("s",),
    )
    rounds = [
        ("3", [{"line": "A", "crosses": 2, "then": [{"line": "B"}]}, {"line": "B"}]),
        ("4", [None, {"line": "A", "crosses": 1, "then": []}]),
    ]
    rep = run(sp, rounds, 2, special=True, partial=False)
    assert rep.state.is_terminal() and rep.rounds == 2
    with pytest.raises(RecordError, match="round 2, player p0: the player has no empty window"):
        run(sp, [rounds[0], ("4", [{"line": "A"}, {"line": "A"}])], 2, special=True)


SPECIAL = tiny_map(
    {"A": ["a1", "s1", "a3", "s2", "a5"], "B": ["b1", "s3", "b3", "b4"]},
    special=("s1", "s2", "s3"),
)


def test_note_12_special_station_extra_actions_same_card_chained_in_order():
    # x3 on A marks a1 s1 a3: one extra x3 (express power kept). It goes to B:
    # b1 s3 b3 -> s3 earns another extra x3: A again, skipping marked stops: s2 a5.
    # s2 earns one more, with an empty window left (A has 3, B 3; used 4): B: b4.
    moves = {
        "line": "A",
        "then": [{"line": "B", "then": [{"line": "A", "then": [{"line": "B"}]}]}],
    }
    rep = run(SPECIAL, [("x3", [moves])], 1, special=True)
    assert marked(rep) == {"a1", "s1", "a3", "b1", "s3", "b3", "s2", "a5", "b4"}
    assert rep.windows[0] == {"A": ["3", "3"], "B": ["3", "3"]}
    # Two specials by one move: two extras, in the order they were marked.
    two = tiny_map({"A": ["a1", "s1", "s2", "a4"]}, special=("s1", "s2"))
    st = revealed(two, [], "x3", special=True)
    st.apply_action(st.move_to_action({"line": "A"}))  # a1, s1, s2: two specials
    assert st.is_extra_action() and st.pending_extras() == 1 and st.last_earned() == 2
    # An extra action with no empty window left is lost.
    one = tiny_map({"A": {"stops": ["a1", "s1", "a3"], "windows": 1}}, special=("s1",))
    rep = run(one, [("3", [{"line": "A"}])], 1, special=True, partial=False)
    assert rep.state.is_terminal()
    with pytest.raises(RecordError, match="round 1, player p0: unearned `then`"):
        run(one, [("3", [{"line": "A", "then": [{"line": "A"}]}])], 1, special=True)
    # Missing then: the extra action must be recorded.
    with pytest.raises(RecordError, match="round 1, player p0: missing `then`"):
        run(SPECIAL, [("x3", [{"line": "A"}])], 1, special=True)
    # Interchange on a special station: the extra action is an interchange too.
    rep = run(
        SPECIAL,
        [("free", [{"station": "a1"}]), ("+", [{"line": "A", "then": [{"line": "B"}]}])],
        1,
        special=True,
    )
    assert rep.state.interchanges(0) == (1, 1) and rep.windows[0] == {"A": ["+"], "B": ["+"]}


def test_note_13_free_ride_on_special_station_earns_no_extra_action():
    rep = run(SPECIAL, [("free", [{"station": "s1"}])], 1, special=True)
    assert rep.state.current_player() == CHANCE and rep.state.last_earned() == 0
    with pytest.raises(RecordError, match="unearned `then`"):
        run(SPECIAL, [("free", [{"station": "s1", "then": [{"line": "A"}]}])], 1, special=True)


def test_note_14_score_lines_plus_double_interchanges_minus_penalty():
    rounds = [("4", [{"line": "A"}, {"line": "B"}]), ("+", [{"line": "B"}, {"line": "A"}])]
    rep = run(T, rounds, 2)
    # p0: 4 on A: a1 a2 a3 a4, then + on B: b1 (1). Empty: a5 b3 b5 = 3, penalty 1.
    b = rep.state.breakdown(0)
    assert marked(rep, 0) == {"a1", "a2", "a3", "a4", "b1"}
    assert (b.line_points, b.interchanges, b.empty_stations, b.penalty, b.score) == (
        0,
        (1,),
        3,
        1,
        1,
    )
    # p1: B b1 a2 b3 a4, then + on A: a1 (1). Empty: a3 a5 b5 = 3, penalty 1.
    assert rep.state.breakdown(1).score == 0 + 2 * 1 - 1
    solo = run(T, [("4", [{"line": "A"}])], 1).state.breakdown(0)
    assert (solo.empty_stations, solo.penalty, solo.score) == (4, 4, -4)  # full penalty


def test_note_15_highest_score_then_fewer_empty_then_shared_rank():
    from mapkit.engine import ranks

    assert ranks([10, 12, 10], [5, 9, 4]) == [3, 1, 2]
    assert ranks([7, 7, 7], [3, 3, 2]) == [2, 2, 1]
    rounds = [("3", [{"line": "A"}, {"line": "A"}, {"line": "B"}])]
    rep = run(T, rounds, 3)
    assert rep.state.scores() == [-2, -2, -2] and rep.state.ranks() == [1, 1, 1]


@pytest.mark.parametrize(
    ("score", "band"),
    [(73, "50+"), (50, "50+"), (49, "40-49"), (40, "40-49"), (39, "30-39"), (20, "20-29"),
     (19, "10-19"), (10, "10-19"), (9, "5-9"), (5, "5-9"), (4, "1-4"), (1, "1-4"),
     (0, "<1"), (-12, "<1")],
)  # fmt: skip
def test_note_16_solo_rating_bands(score, band):
    assert solo_band(score) == band
    texts = {"50+": "WOW", "40-49": "Respect", "1-4": "Did you", "<1": "Voll verplant?"}
    if band in texts:
        assert solo_rating(score).startswith(texts[band])
