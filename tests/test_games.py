"""Five complete games worked out by hand (records in examples/games/, maps in its maps/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mapkit.engine.paper import sheet_after
from mapkit.engine.record import replay, result
from mapkit.mapfile import load_map
from mapkit.paper import Scoring

GAMES = Path(__file__).resolve().parent.parent / "examples" / "games"


def p(name, completed, inter, empty, penalty, score, rank):
    lp = sum(completed.values())
    return {
        "name": name, "completed": completed, "line_points": lp, "interchanges": inter,
        "interchange_points": 2 * sum(inter), "empty_stations": empty, "penalty": penalty,
        "score": score, "rank": rank,
    }  # fmt: skip


EXPECTED = {
    # mini: A a1 a2 a3 (1 window, 3/1); B b1 a2 b3 b4 (2 windows, 4/2).
    # 4 on A: a1 a2 a3 -> A complete (solo: first, 3). Free ride b1. Express 3 on B:
    # b1, a2 marked, skipped; b3 b4 -> B complete (4). + on B: nothing left, window filled.
    # 3 + 4 = 7, no empty station: 7 ("5-9").
    "01-solo-mini": ({"players": [p("ana", {"A": 3, "B": 4}, [], 0, 0, 7, 1)], "rounds": 4}),
    # Round 1, 3 on A: both complete A in the same round: both score first (3).
    # Round 2, 5: ana B: b1, then a2 is marked: 1 cross; ben B with 0 crosses.
    # Round 3, x2: ana B: b3 b4 -> B first (4); ben B: b1, skip a2, b3; b4 stays empty.
    # ana 3 + 4 = 7; ben 3 - 1 // 2 = 3.
    "02-duel-mini-tie-race": {
        "players": [
            p("ana", {"A": 3, "B": 4}, [], 0, 0, 7, 1),
            p("ben", {"A": 3}, [], 1, 0, 3, 2),
        ],
        "rounds": 3,
    },
    # ring: loop R r1..r5 (2 windows, 6/3); S s1 r3 s3 (1 window, 2/1).
    # 3 on R backward: r1 r5 r4. + on S: s1 gets 1. Express 3 on R forward, 2 crosses:
    # r2 r3 (then every stop is marked) -> R complete (6). Empty: s3.
    # 6 + 2 x 1 - 1 (solo: full penalty) = 7.
    "03-solo-ring-loop": {"players": [p("ana", {"R": 6}, [1], 1, 1, 7, 1)], "rounds": 3},
    # spark: A a1 x a3 (2 windows, 4/2; x special); B b1 b2 b3 (2 windows, 3/1).
    # Round 1, x2: ana A: a1 x -> extra x2 on B: b1 b2. ben B: b1 b2.
    # Round 2, 4: ana A: a3 -> A. ben A: a1 x a3 -> A, extra 4 on B: b3 -> B.
    #   A: both in round 2, both first (4). B: ben first (3).
    # Round 3, +: ana B: b3 gets 1 -> B later (1). ben A: nothing left.
    # ana 4 + 1 + 2 x 1 = 7; ben 4 + 3 = 7; equal empty (0): shared rank 1.
    "04-duel-spark-special-tie": {
        "players": [
            p("ana", {"A": 4, "B": 1}, [1], 0, 0, 7, 1),
            p("ben", {"A": 4, "B": 3}, [], 0, 0, 7, 1),
        ],
        "rounds": 3,
    },
    # Round 1, 3: ana A: a1 x a3, extra 3 on B: b1 b2 b3 -> A and B first (4, 3).
    #   ben B -> B first too (same round, 3). cy A, 1 cross: a1.
    # Round 2, x3: ana A (nothing left); ben B (nothing left); cy B -> B later (1).
    # Round 3, 5: ana B, her 4th window: finished. ben A: a1. cy A: 0 crosses.
    # Round 4, 4: ana null. ben A: x a3 -> A later (2); the extra action from x is lost
    #   (no empty window). cy B: nothing. Everyone finished.
    # ana 7; ben 3 + 2 = 5; cy 1 - 2 // 2 = 0.
    "05-trio-spark-special-finished": {
        "players": [
            p("ana", {"A": 4, "B": 3}, [], 0, 0, 7, 1),
            p("ben", {"A": 2, "B": 3}, [], 0, 0, 5, 2),
            p("cy", {"B": 1}, [], 2, 1, 0, 3),
        ],
        "rounds": 4,
    },
}


def load(name: str):
    doc = json.loads((GAMES / f"{name}.json").read_text())
    return load_map(GAMES / "maps" / f"{doc['map']}.json"), doc


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hand_worked_game(name):
    city, doc = load(name)
    assert result(replay(city, doc)) == EXPECTED[name]


def test_every_example_game_is_tested():
    assert sorted(p.stem for p in GAMES.glob("*.json")) == sorted(EXPECTED)


def test_sheet_after_round_and_end():
    city, doc = load("04-duel-spark-special-tie")
    s1 = sheet_after(city, doc, "ana", round=1)
    assert s1.crosses == {"a1", "x", "b1", "b2"}
    assert s1.windows == {"A": ("2",), "B": ("2",)}
    assert s1.diamonds == {"A": "open", "B": "open"} and s1.scoring is None and s1.round == 1
    end = sheet_after(city, doc, "ana")
    assert end.interchanges == {"b3": 1} and "b3" not in end.crosses
    assert end.windows == {"A": ("2", "4"), "B": ("2", "+")}
    assert end.diamonds == {"A": "circled", "B": "struck"}
    assert end.squares == {"A": "open", "B": "circled"}
    assert end.scoring == Scoring(5, 2, 0, 7)
    ben = sheet_after(city, doc, 1)
    assert ben.windows == {"A": ("4", "+"), "B": ("2", "4")}
    assert ben.diamonds == {"A": "circled", "B": "circled"}
    with pytest.raises(ValueError, match="no player 'zoe'; the players are ana, ben"):
        sheet_after(city, doc, "zoe")


def test_sheet_after_solo_loop_shows_express_as_plain_number():
    city, doc = load("03-solo-ring-loop")
    s = sheet_after(city, doc, "ana")
    assert s.windows == {"R": ("3", "3"), "S": ("+",)}
    assert s.diamonds == {"R": "circled", "S": "open"} and s.scoring == Scoring(6, 2, 1, 7)
