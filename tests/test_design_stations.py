"""Cut and contested stations (``mapkit.design.stations``) on hand-played games of ``mini``.

``mini``: line A (1 window) a1 a2 a3; line B (2 windows) b1 a2 b3 b4; they share a2.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from mapkit.cards import FREE, N3, N4, N5, X3
from mapkit.design.stations import FREE_RIDE, Cut, game_cuts, stations_of
from mapkit.engine import Game
from mapkit.engine.actions import line_move
from mapkit.mapfile import load_map
from mapkit.simulate import GameOutcome, SeatOutcome

ROOT = Path(__file__).resolve().parent.parent
MINI = load_map(ROOT / "examples" / "games" / "maps" / "mini.json")
A, B = 0, 1
A2 = 1  # station index of a2 (a1 a2 a3 b1 b3 b4)


def outcome(index: int, history: list[int], players: int) -> GameOutcome:
    seats = tuple(SeatOutcome("greedy", 0, 1) for _ in range(players))
    return GameOutcome(index, index, 3, seats, history=tuple(history))


# Solo: A takes a1 a2 a3 with a 4 (one cross forfeited at the terminus: not a cut); a 3 on B
# crosses b1 and stops at a2, marked through A: cut, 2 crosses lost; a 5 on B enters at b3 and
# crosses b3 b4 to the terminus.
SOLO_CUT = [N4, line_move(A, 0, 3), N3, line_move(B, 0, 1), N5, line_move(B, 0, 2)]
# Solo: the same, but an express 3 on B skips a2 (never cut), then a 3 on a full line.
SOLO_EXPRESS = [N4, line_move(A, 0, 3), X3, line_move(B, 0, 3), N3, line_move(B, 0, 0)]
# Two seats, the same cards: seat 0 plays SOLO_CUT; seat 1 crosses b1 a2 on B with the 4 (two of
# four: it stops by choice), then a 3 on A crosses a1 and stops at a2, marked through B.
DUO = [
    N4, line_move(A, 0, 3), line_move(B, 0, 2),
    N3, line_move(B, 0, 1), line_move(A, 0, 1),
    N5, line_move(B, 0, 2), line_move(B, 0, 2),
]  # fmt: skip


def test_a_run_stopped_by_another_lines_mark_is_a_cut() -> None:
    g = game_cuts(Game(MINI), SOLO_CUT)
    assert g.cuts == (Cut(seat=0, station=A2, line=B, by=A, lost=2),)
    assert g.marked_by[0] == {0: A, 1: A, 2: A, 3: B, 4: B, 5: B}


def test_express_cards_and_stopping_by_choice_are_not_cuts() -> None:
    assert game_cuts(Game(MINI), SOLO_EXPRESS).cuts == ()
    duo = game_cuts(Game(MINI, players=2), DUO)
    assert duo.cuts == (Cut(0, A2, B, A, 2), Cut(1, A2, A, B, 2))
    assert duo.marked_by[1][A2] == B and duo.marked_by[0][A2] == A


def test_station_figures_by_hand() -> None:
    solo = stations_of(Game(MINI), [outcome(0, SOLO_CUT, 1), outcome(1, SOLO_EXPRESS, 1)])
    (a2,) = solo.stations  # the only station on two lines
    assert (a2.station, a2.lines, a2.cut_lines) == ("a2", ("A", "B"), {"B": 1})
    assert (a2.cut.value, a2.lost.value, a2.contested) == (0.5, 1.0, None)
    # crosses lost 2 and 0: mean 1, se 1, t on 1 df 12.706205, on the log scale
    assert a2.lost.lo == pytest.approx(math.exp(-12.706205))
    assert a2.lost.hi == pytest.approx(math.exp(12.706205))
    (never,) = stations_of(Game(MINI), [outcome(1, SOLO_EXPRESS, 1)]).stations
    # no cut: only an upper bound, the cut share's (Wilson on 1 game: 1.96^2 / (1 + 1.96^2))
    assert (never.lost.value, never.lost.lo) == (0.0, 0.0)
    assert never.lost.hi == never.cut.hi == pytest.approx(0.793451, abs=1e-6)
    duo = stations_of(Game(MINI, players=2), [outcome(0, DUO, 2)] * 3)
    (a2,) = duo.stations
    assert a2.cut.value == 1.0 and a2.lost.value == 2.0 and a2.cut_lines == {"A": 3, "B": 3}
    assert a2.contested is not None and a2.contested.value == 1.0  # A for seat 0, B for seat 1
    assert a2.contested.lo == pytest.approx(0.4385, abs=1e-4)  # Wilson, 3 of 3 games


def test_free_rides_are_their_own_marker() -> None:
    # a free ride on a2, then a 3 on B crosses b1 and stops at a2: a cut by the free ride
    t = Game(MINI).tables
    free_a2 = t.free_base + A2

    hist = [FREE, free_a2, N3, line_move(B, 0, 1), N4, line_move(A, 0, 1), N5,
            line_move(B, 0, 2)]  # fmt: skip
    g = game_cuts(Game(MINI), hist)
    assert Cut(0, A2, B, FREE_RIDE, 2) in g.cuts and Cut(0, A2, A, FREE_RIDE, 3) in g.cuts


def test_stations_need_histories() -> None:
    with pytest.raises(ValueError, match="histories"):
        stations_of(Game(MINI), [GameOutcome(0, 0, 3, (SeatOutcome("greedy", 0, 1),))])
