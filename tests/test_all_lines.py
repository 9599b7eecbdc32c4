"""The all-lines bonus (``"all_lines_bonus"``), worked by hand on map T.

Map T:  A: a1 a2 a3 a4 a5   B: b1 a2 b3 a4 b5   (a2 and a4 on both lines; points 5/3), with an
all-lines bonus of 4 for the first, 2 for the others (rules-notes 22).
"""

from __future__ import annotations

import json

import pytest

from mapkit.engine import Game, GameOptions
from mapkit.engine.record import record_from_history, replay
from mapkit.engine.testing import last_choice_game, run
from mapkit.mapfile import load_source
from mapkit.simulate.runner import kernel_for
from tests.test_kernel_agrees import _agree, _checked_game, _seatings


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
