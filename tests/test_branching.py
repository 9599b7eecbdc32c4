"""Branching lines (``"branches"``, rules-notes 23), worked by hand on maps F and T.

Map F:  Y: y1 y2 (the fork), then branch 1: p1 p2 (6/3) or branch 2: q1 (4/2); 4 windows.
        Z: z1 p1 (5/3).
Map T:  map F with a third branch on Y: r1 r2 r3 (8/4).
A move on Y crosses the trunk from the wagon and, past the fork, the branch it names
(``branch``: 1 to 3); the line is run via a branch when the trunk and that branch are marked.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mapkit.engine import Game, GameOptions, card_kind
from mapkit.engine.actions import decode, describe
from mapkit.engine.record import RecordError
from mapkit.engine.testing import run
from mapkit.mapfile import load_source
from mapkit.simulate.runner import kernel_for
from tests.test_kernel_agrees import agree_in_every_seating

STATIONS = ["y1", "y2", "p1", "p2", "q1", "z1"]


THIRD = {"stops": ["r1", "r2", "r3"], "points": {"first": 8, "others": 4}}


def _doc(scoring: str | None = None, branches: int = 2, **line_y) -> dict:
    y = {
        "id": "Y", "color": "#000000", "windows": 4, "points": {"first": 5, "others": 3},
        "depot": {"x": -1, "y": 0}, "stops": ["y1", "y2"],
        "branches": [
            {"stops": ["p1", "p2"], "points": {"first": 6, "others": 3}},
            {"stops": ["q1"], "points": {"first": 4, "others": 2}},
        ],
        **line_y,
    }  # fmt: skip
    if scoring:
        y["branch_scoring"] = scoring
    stations = STATIONS + (THIRD["stops"] if branches == 3 else [])
    if branches == 3:
        y["branches"] = [*y["branches"], THIRD]
    return {
        "format": "mapkit-map/1",
        "id": "fork",
        "name": "Fork",
        "stations": [{"id": s, "x": i, "y": 0} for i, s in enumerate(stations)],
        "lines": [
            y,
            {"id": "Z", "color": "#ffffff", "windows": 3, "points": {"first": 5, "others": 3},
             "depot": {"x": -1, "y": 1}, "stops": ["z1", "p1"]},
        ],
    }  # fmt: skip


FORK = load_source(json.dumps(_doc())).map
EACH = load_source(json.dumps(_doc("each"))).map
TRIDENT = load_source(json.dumps(_doc(branches=3))).map
TRIDENT_EACH = load_source(json.dumps(_doc("each", branches=3))).map


def marked(rep, p=0) -> set[str]:
    t = rep.game.tables
    return {t.station_ids[s] for s in range(t.n_stations) if rep.state.marked(p) >> s & 1}


def test_the_model_has_a_trunk_two_paths_and_a_unit_per_branch() -> None:
    y = FORK.line("Y")
    assert y.stops == ("y1", "y2", "p1", "p2", "q1") and y.trunk == ("y1", "y2")
    assert y.paths == (("y1", "y2", "p1", "p2"), ("y1", "y2", "q1"))
    assert y.routes == ((0, 1, 2, 3), (0, 1, 4))
    assert y.termini == ("p2", "q1")
    assert [(u.label, u.positions, u.first, u.others) for u in FORK.units] == [
        ("Y1", (0, 1, 2, 3), 6, 3), ("Y2", (0, 1, 4), 4, 2), ("Z", (0, 1), 5, 3),
    ]  # fmt: skip
    assert FORK.intersection_count("p1") == 2


def test_a_move_past_the_fork_stays_on_its_branch() -> None:
    # a 4 from the wagon into branch 2: y1 y2 q1, and the branch ends: 3 crosses, not 4
    rep = run(FORK, [("4", [{"line": "Y", "branch": 2}])])
    assert marked(rep) == {"y1", "y2", "q1"}
    with pytest.raises(RecordError, match="more crosses than possible: 4 crosses on line Y"):
        run(FORK, [("4", [{"line": "Y", "branch": 2, "crosses": 4}])])
    # the default branch is 1: y1 y2 p1 p2
    assert marked(run(FORK, [("4", [{"line": "Y"}])])) == {"y1", "y2", "p1", "p2"}


def test_a_move_that_starts_past_a_full_trunk_picks_a_branch() -> None:
    rounds = [("x2", [{"line": "Y"}]), ("3", [{"line": "Y", "branch": 1}])]
    assert marked(run(FORK, rounds)) == {"y1", "y2", "p1", "p2"}
    rounds[1] = ("3", [{"line": "Y", "branch": 2}])
    assert marked(run(FORK, rounds)) == {"y1", "y2", "q1"}


def test_best_scoring_pays_the_better_branch_once() -> None:
    # round 1: 3 on branch 1 marks y1 y2 p1; round 2: 4 on branch 2 marks q1 (the branch
    # ends): Y2 run (4); round 3: 5 on branch 1 marks p2: Y1 run (6), and the line pays its
    # best, 6, not 10
    rounds = [
        ("3", [{"line": "Y", "branch": 1}]),
        ("4", [{"line": "Y", "branch": 2}]),
        ("5", [{"line": "Y", "branch": 1}]),
    ]
    rep = run(FORK, rounds)
    assert marked(rep) == {"y1", "y2", "p1", "p2", "q1"}
    b = rep.state.breakdown(0)
    assert (b.completed, b.line_points, b.empty_stations) == ({"Y1": 6}, 6, 1)
    assert rep.state.line_points(0) == 6
    assert b.score == rep.state.score(0) == 6 - 1  # solo: z1 empty, one point
    # after round 2 only branch 2 was run: 4 points
    assert run(FORK, rounds[:2]).state.line_points(0) == 4
    # each: both branches pay
    each = run(EACH, rounds).state
    assert each.breakdown(0).completed == {"Y1": 6, "Y2": 4} and each.line_points(0) == 10


def test_the_race_is_per_branch() -> None:
    # round 1: both seats y1 y2 p1. Round 2: seat 0 runs Y via branch 2 (q1; first: 4), seat 1
    # runs Z (z1; first: 5). Round 3: seat 0 runs Z late (others: 3), seat 1 runs Y via
    # branch 1 (p2; first of branch 1: 6). Round 4: seat 0 runs branch 1 late (others: 3 < 4:
    # the line keeps paying 4); seat 1 has only a full line Z left: no cross.
    y1, y2, z = {"line": "Y", "branch": 1}, {"line": "Y", "branch": 2}, {"line": "Z"}
    rounds = [("3", [y1, y1]), ("4", [y2, z]), ("5", [z, y1]), ("6", [y1, z])]
    state = run(FORK, rounds, players=2).state
    assert state.breakdown(0).completed == {"Y2": 4, "Z": 3}
    assert state.breakdown(1).completed == {"Y1": 6, "Z": 5}
    assert [state.line_points(p) for p in (0, 1)] == [7, 11]


def test_the_trunk_alone_is_one_listed_move_on_either_branch() -> None:
    st = Game(FORK).new_initial_state(0)
    st.apply_action(card_kind("3"))
    moves = [decode(a) for a in st.legal_actions() if decode(a).line == 0]
    # branch 1 with 0-3 crosses; branch 2 only where it marks other stops: y1 y2 q1
    assert moves == [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3), (0, 1, 3)]
    two = st.move_to_action({"line": "Y", "branch": 2, "crosses": 2})
    assert decode(two) == (0, 0, 2)  # y1 y2 either way: listed as branch 1


def test_records_name_the_branch_and_refuse_what_the_line_has_not() -> None:
    game = Game(FORK)
    st = game.new_initial_state(0)
    st.apply_action(card_kind("4"))
    a = st.move_to_action({"line": "Y", "branch": 2})
    assert st.action_to_move(a) == {"line": "Y", "crosses": 3, "branch": 2}
    assert describe(st.action_to_move(a)) == "Y/2 3"
    with pytest.raises(RecordError, match="line Z has no branches"):
        run(FORK, [("3", [{"line": "Z", "branch": 1}])])
    with pytest.raises(RecordError, match="line Y branches: a move names its branch"):
        run(FORK, [("3", [{"line": "Y", "direction": "backward"}])])
    with pytest.raises(RecordError, match="line Y has branches 1 to 2, not 3"):
        run(FORK, [("3", [{"line": "Y", "branch": 3}])])
    with pytest.raises(RecordError, match="branch is a whole number from 1 to 4, not 5"):
        run(TRIDENT, [("3", [{"line": "Y", "branch": 5}])])


@pytest.mark.parametrize(
    ("extra", "pointer", "message"),
    [
        ({"loop": True}, "/lines/0/loop", "line 'Y' has branches and loop: a loop cannot fork"),
        ({"both_ends": True}, "/lines/0/both_ends",
         "line 'Y' has branches and both_ends: a branching line starts at its wagon only"),
    ],
)  # fmt: skip
def test_a_branching_loop_or_two_ended_line_is_ref013(extra, pointer, message) -> None:
    result = load_source(json.dumps(_doc(**extra), indent=2))
    found = [(d.code, d.pointer, d.message) for d in result.diagnostics if d.code == "REF013"]
    assert found == [("REF013", pointer, message)]


def test_a_branch_that_comes_back_to_the_trunk_is_ref004() -> None:
    doc = _doc()
    doc["lines"][0]["branches"][1]["stops"] = ["y1"]
    (d,) = load_source(json.dumps(doc, indent=2)).diagnostics
    assert (d.code, d.pointer) == ("REF004", "/lines/0/branches/1/stops/0")
    assert d.message == "line 'Y' visits station 'y1' twice"


def test_branches_change_the_fingerprint() -> None:
    from mapkit.mapfile.model import fingerprint

    assert fingerprint(FORK) != fingerprint(EACH)


def test_kernel_plays_the_checked_games_on_branching_lines() -> None:
    for city in (FORK, EACH):
        for players in (1, 2, 4):
            for special in (False, True):
                agree_in_every_seating(Game(city, GameOptions(players, special)), range(5))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31), st.integers(1, 3), st.sampled_from([FORK, EACH, TRIDENT]))
def test_a_move_never_enters_two_branches(seed: int, players: int, city) -> None:
    """No move on Y marks stops of two branches, and every score is the sum of its parts."""
    game = Game(city, players=players)
    t = game.tables
    ends = [set(b.stops) for b in city.line("Y").branches]
    ids = {t.station_index[s]: s for s in t.station_ids}
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal()
            continue
        p = state.current_player()
        before = state.marked(p)
        state.apply_action(rng.choice(state.legal_actions()))
        new = {ids[s] for s in range(t.n_stations) if (state.marked(p) & ~before) >> s & 1}
        assert sum(1 for end in ends if new & end) <= 1
    for p in range(players):
        b = state.breakdown(p)
        assert b.score == state.score(p)
        assert b.line_points == state.line_points(p)


def test_points_paid_per_branch_are_what_the_line_pays() -> None:
    """Simulate's per-unit points paid count, of a line paying its best branch, that one only:
    seat 0 ran Y1 late (3) and Y2 first (4), and Z first (5); seat 1 ran Y1 first (6) and Y2
    late (2). Best: Y1 6 (seat 1), Y2 4 (seat 0), Z 5; each: Y1 3 + 6, Y2 4 + 2, Z 5."""
    import numpy as np

    from mapkit.simulate.tally import Tally

    when = np.array([[[3, 2, 4], [2, 5, 0]]])
    firsts = np.array([[[0, 1, 1], [1, 0, 0]]], np.int8)
    paid = {}
    stations = np.zeros((1, 2, len(FORK.stations)), np.int8)
    for city in (FORK, EACH):
        tally = Tally(city, ("random", "random"))
        tally.add(np.zeros((1, 2), np.int64), np.array([6]), when, firsts, stations, stations)
        paid[city.line("Y").branch_scoring] = tally.points.tolist()
    assert paid == {"best": [6, 4, 5], "each": [9, 6, 5]}


def test_points_paid_sum_to_the_line_points_the_engine_scores() -> None:
    from mapkit.simulate.runner import GameRunner, RunConfig

    for city in (FORK, EACH):
        cfg = RunConfig(("random", "greedy"), 40, seed=3, engine="checked")
        runner = GameRunner(city, cfg)
        tally, _ = runner.chunk(0, 40)
        states = [runner.play_checked(s) for s in runner.seeds(0, 40)]
        paid = [0] * len(city.units)
        for state in states:
            for p in range(2):
                for label, v in state.breakdown(p).completed.items():
                    paid[[u.label for u in city.units].index(label)] += v
        assert tally.points.tolist() == paid
        assert sum(paid) == sum(state.line_points(p) for state in states for p in range(2))


def test_three_branches_are_three_routes_and_three_units() -> None:
    y = TRIDENT.line("Y")
    assert y.paths == (
        ("y1", "y2", "p1", "p2"), ("y1", "y2", "q1"), ("y1", "y2", "r1", "r2", "r3"),
    )  # fmt: skip
    assert y.routes == ((0, 1, 2, 3), (0, 1, 4), (0, 1, 5, 6, 7))
    assert y.termini == ("p2", "q1", "r3")
    assert [(u.label, u.first, u.others) for u in TRIDENT.units] == [
        ("Y1", 6, 3), ("Y2", 4, 2), ("Y3", 8, 4), ("Z", 5, 3),
    ]  # fmt: skip


def test_three_branches_list_each_move_once() -> None:
    st = Game(TRIDENT).new_initial_state(0)
    st.apply_action(card_kind("3"))
    moves = [decode(a) for a in st.legal_actions() if decode(a).line == 0]
    # branch 1 with 0-3 crosses; branches 2 and 3 only where they reach past the fork
    assert moves == [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3), (0, 1, 3), (0, 2, 3)]
    assert decode(st.move_to_action({"line": "Y", "branch": 3, "crosses": 2})) == (0, 0, 2)
    a = st.move_to_action({"line": "Y", "branch": 3})
    assert st.action_to_move(a) == {"line": "Y", "crosses": 3, "branch": 3}
    assert describe(st.action_to_move(a)) == "Y/3 3"


def test_a_three_branch_game_worked_by_hand() -> None:
    # round 1: 3 into branch 3: y1 y2 r1. Round 2: 4 into branch 2, past the full trunk: q1
    # only (the branch ends): Y2 run, 4. Round 3: 5 into branch 3: r2 r3: Y3 run, 8; the line
    # pays its best, 8 (4 more). Round 4: 3 on Z: z1 p1: Z run, 5. Line points 8 + 5 = 13;
    # p2 is empty: solo, one point. Each: 4 + 8 + 5 = 17.
    rounds = [
        ("3", [{"line": "Y", "branch": 3}]),
        ("4", [{"line": "Y", "branch": 2}]),
        ("5", [{"line": "Y", "branch": 3}]),
        ("3", [{"line": "Z"}]),
    ]
    rep = run(TRIDENT, rounds)
    assert marked(rep) == {"y1", "y2", "q1", "r1", "r2", "r3", "z1", "p1"}
    assert [run(TRIDENT, rounds[:r]).state.line_points(0) for r in (1, 2, 3)] == [0, 4, 8]
    b = rep.state.breakdown(0)
    assert (b.completed, b.line_points, b.empty_stations) == ({"Y3": 8, "Z": 5}, 13, 1)
    assert b.score == rep.state.score(0) == 12
    each = run(TRIDENT_EACH, rounds).state
    assert each.breakdown(0).completed == {"Y2": 4, "Y3": 8, "Z": 5}
    assert each.score(0) == 17 - 1
    # the record the engine writes of it replays to the same sheet and score
    from mapkit.engine.record import record_from_history, replay

    doc = record_from_history(rep.game, rep.state.history(), ["p0"], rep.state.seed)
    again = replay(TRIDENT, doc, upto=len(rounds))
    assert (again.state.marked(0), again.state.score(0)) == (rep.state.marked(0), 12)
    assert [m["moves"][0] for m in doc["rounds"]][:2] == [
        {"line": "Y", "crosses": 3, "branch": 3}, {"line": "Y", "crosses": 1, "branch": 2},
    ]  # fmt: skip


def test_an_interchange_past_a_full_trunk_and_branch_picks_another_branch() -> None:
    # round 1: 4 into branch 1 fills trunk and branch: y1 y2 p1 p2. Round 2: an interchange
    # on branch 3 boxes r1 (and on branch 1 boxes nothing: the route is full).
    st = Game(TRIDENT).new_initial_state(0)
    t = st.game.tables
    ids = t.station_ids
    rep = run(TRIDENT, [("4", [{"line": "Y"}]), ("+", [{"line": "Y", "branch": 3}])])
    assert {ids[s] for s in range(t.n_stations) if rep.state.boxed(0) >> s & 1} == {"r1"}
    assert rep.state.interchanges(0) == (TRIDENT.intersection_count("r1"),)
    state = run(TRIDENT, [("4", [{"line": "Y"}])]).state
    state.apply_action(card_kind("+"))
    assert [decode(a) for a in state.legal_actions() if decode(a).line == 0] == [
        (0, 0, 0), (0, 1, 0), (0, 2, 0),
    ]  # fmt: skip


def test_the_race_is_per_branch_on_three_branches() -> None:
    # round 1: seat 0 y1 y2 r1 (branch 3); seat 1 y1 y2 q1 (branch 2): Y2 first, 4. Round 2:
    # seat 0 r2 r3: Y3 first, 8; seat 1 z1 p1: Z first, 5. Round 3: seat 0 z1 p1: Z late, 3;
    # seat 1 r1 r2 r3: Y3 late, 4, no more than Y2's 4: the line keeps paying Y2 (the first
    # listed on a tie).
    y2, y3, z = {"line": "Y", "branch": 2}, {"line": "Y", "branch": 3}, {"line": "Z"}
    rounds = [("3", [y3, y2]), ("5", [y3, z]), ("4", [z, y3])]
    state = run(TRIDENT, rounds, players=2).state
    assert state.breakdown(0).completed == {"Y3": 8, "Z": 3}
    assert state.breakdown(1).completed == {"Y2": 4, "Z": 5}
    assert [state.line_points(p) for p in (0, 1)] == [11, 9]
    assert state.completed(1) == 0b1110  # units Y2, Y3 and Z run, Y1 not


def test_kernel_plays_the_checked_games_on_three_branches() -> None:
    from tests.test_kernel_agrees import _agree

    for city in (TRIDENT, TRIDENT_EACH):
        for players in (1, 2, 4):
            for special in (False, True):
                agree_in_every_seating(Game(city, GameOptions(players, special)), range(4))
        game = Game(city, GameOptions(3, True))
        bots = ("lookahead", "greedy", "random")
        kernel = kernel_for(game, bots)
        for seed in range(3):
            _agree(game, kernel, bots, seed)


def test_the_schemas_allow_as_many_branches_as_an_action_has_routes() -> None:
    from pathlib import Path

    from mapkit.engine.actions import MAX_ROUTES

    schemas = Path(__file__).resolve().parent.parent / "schemas"
    line = json.loads((schemas / "map.schema.json").read_text())["definitions"]["line"]
    move = json.loads((schemas / "game.schema.json").read_text())
    assert line["properties"]["branches"]["maxItems"] == MAX_ROUTES == 4
    assert '"maximum": 4' in json.dumps(move).split('"branch"')[1].split("}")[0]
    doc = _doc(branches=3)
    doc["lines"][0]["branches"].append({"stops": ["s1"]})
    doc["stations"].append({"id": "s1", "x": 20, "y": 0})
    four = load_source(json.dumps(doc, indent=2))
    assert four.map is not None and len(four.map.line("Y").routes) == 4
    doc["lines"][0]["branches"].append({"stops": ["s2"]})
    doc["stations"].append({"id": "s2", "x": 21, "y": 0})
    (d,) = load_source(json.dumps(doc, indent=2)).diagnostics
    assert (d.code, d.pointer) == ("SCH005", "/lines/0/branches")


def test_a_map_past_the_scoring_units_the_kernel_holds_is_ref013() -> None:
    from mapkit.mapfile.model import MAX_UNITS

    lines, stations = [], []
    for i in range(16):  # 16 lines of 4 branches: 64 units
        lid = chr(ord("A") + i)
        stops = [f"{lid}{j}" for j in range(6)]
        stations += stops
        lines.append({
            "id": lid, "color": "#000000", "windows": 3, "points": {"first": 5, "others": 3},
            "depot": {"x": -1, "y": i}, "stops": stops[:2],
            "branches": [{"stops": [s]} for s in stops[2:]],
        })  # fmt: skip
    doc = {
        "format": "mapkit-map/1", "id": "many", "name": "Many", "lines": lines,
        "stations": [{"id": s, "x": k, "y": k % 7 * 3} for k, s in enumerate(stations)],
    }  # fmt: skip
    found = [
        (d.code, d.pointer, d.message)
        for d in load_source(json.dumps(doc, indent=2)).diagnostics
        if d.code == "REF013"
    ]
    assert MAX_UNITS == 63
    assert found == [(
        "REF013", "/lines/15/branches",
        "line 'P' takes the map to 64 scoring units (a line, or each branch of a branching "
        "line): the rules engine plays at most 63",
    )]  # fmt: skip


def _drawn_tags(svg: str) -> dict[str, tuple[str, str, object]]:
    """Per branch tag on a sheet: (its terminus, its text, its ink as a shapely box)."""
    from shapely import box

    from tests.test_render_common import parse, with_class

    out = {}
    for g in with_class(parse(svg), "branch-tag"):
        r = next(iter(g))
        x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
        e = float(r.get("stroke-width")) / 2
        out[g.get("data-unit")] = (
            g.get("data-station"),
            "".join(g.itertext()),
            box(x - e, y - e, x + w + e, y + h + e),
        )
    return out


def _clearances(city, lay, ink) -> dict[str, float]:
    """Paper between a tag's ink and the nearest printed mark of each kind, as drawn."""
    from shapely import LineString, Point, box

    from mapkit.sheet import station_reach

    m = lay.metrics
    reach = station_reach(city, m, arrows=False)
    e = m.wagon_stroke / 2
    return {
        "station": min(ink.distance(Point(c).buffer(reach[s])) for s, c in lay.stations.items()),
        "line": min(
            ink.distance(LineString(p).buffer(m.line_w / 2 + m.casing / 2))
            for ln in city.lines
            for p in lay.line_paths(ln)
        ),
        "wagon": min(
            ink.distance(box(w.rect.x - e, w.rect.y - e, w.rect.right + e, w.rect.bottom + e))
            for w in lay.wagons.values()
        ),
    }


def test_the_sheet_tags_each_branch_end_with_its_panel_row_clear_of_every_mark() -> None:
    """Gabel's A forks at s4: A1 ends at s7 (top row, special), A2 at s10 (bottom row).
    Straight on past either end leaves the map area, so each tag turns 45 degrees to the east
    of its terminus, ``near_line`` (0.6 mm) of paper from the terminus's star or halo."""
    from pathlib import Path

    from shapely import Point, box

    from mapkit.mapfile import load_map
    from mapkit.render.svg import sheet_svg

    # gabel as drawn by hand, whose A2 tag has to turn until 0.6 mm clears a station
    city = load_map(Path(__file__).resolve().parent / "data" / "gabel-hand-layout.json")
    for grayscale in (False, True):
        res = sheet_svg(city, grayscale=grayscale, labels=True)
        lay, m = res.layout, res.layout.metrics
        tags = _drawn_tags(res.svg)
        assert {u: (s, t) for u, (s, t, _) in tags.items()} == {
            "A1": ("s7", "A1"), "A2": ("s10", "A2"),
        }  # fmt: skip
        assert [r.line_id for r in lay.panel_rows][:2] == ["A1", "A2"]  # the rows they name
        for unit, (end, _, ink) in tags.items():
            room = _clearances(city, lay, ink)
            # the SVG's coordinates have two decimals: 0.005 mm either way
            assert min(room.values()) >= m.near_line - 0.01, (unit, room)
            assert room["station"] == pytest.approx(m.near_line, abs=0.01)
            cx, cy = ink.centroid.x, ink.centroid.y
            sx, sy = lay.stations[end]
            assert cx > sx and cy == pytest.approx(sy, abs=0.01)  # east of its terminus
            nearest = min(lay.stations, key=lambda s: ink.distance(Point(*lay.stations[s])))
            assert nearest == end
            area = lay.map_area
            assert box(area.x, area.y, area.right, area.bottom).contains(ink)
        # station names are placed around the tags
        names = [box(b.x, b.y, b.right, b.bottom) for b in (lb.box for lb in res.labels.labels)]
        assert all(not ink.intersects(b) for _, _, ink in tags.values() for b in names)


def test_every_branch_of_a_line_gets_a_tag() -> None:
    """Three branches from one fork (the renderer loops over a line's branches)."""
    from mapkit.render.svg import sheet_svg

    doc = _doc()
    doc["stations"].append({"id": "r1", "x": 2, "y": 2})
    doc["lines"][0]["branches"].append({"stops": ["r1"]})
    doc["lines"][0]["windows"] = 3
    city = load_source(json.dumps(doc)).map
    tags = _drawn_tags(sheet_svg(city).svg)
    assert {u: s for u, (s, _, _) in tags.items()} == {"Y1": "p2", "Y2": "q1", "Y3": "r1"}
    inks = [ink for _, _, ink in tags.values()]
    assert all(not a.intersects(b) for i, a in enumerate(inks) for b in inks[i + 1 :])


def test_a_special_terminus_shows_its_halo_over_its_star() -> None:
    """Gabel's s7 (A1's end) is special: the star is drawn first and the halo over it, and
    the star's points (2.3 mm beyond the circle) reach past the halo (1.25 mm)."""
    from pathlib import Path

    from mapkit.mapfile import load_map
    from mapkit.render.svg import sheet_svg
    from tests.test_render_common import parse

    city = load_map(Path(__file__).resolve().parent.parent / "examples" / "gabel.json")
    decor = parse(sheet_svg(city).svg).find(".//*[@id='station-decor']")
    kinds = [(el.get("class"), el.get("data-line")) for el in decor]
    # s7 is the first station with a mark around it (stations in map order): star, then halo
    assert kinds[:2] == [("special-mark", None), ("terminus-mark", "A")]


def test_each_listed_move_marks_its_own_stops_on_every_sheet_of_three_branches() -> None:
    """On every sheet of line Y (all 256 ways its 8 stops can be marked) and every card: no two
    listed moves mark the same stops, every legal move is listed as one that marks what it
    marks (``canonical``), and the kernel's source agrees with the compiled module."""
    from mapkit.cards import N_KINDS, PLUS
    from mapkit.engine import kernel
    from mapkit.engine.actions import CROSSES_MASK, ROUTE_SHIFT

    source = kernel.uncompiled()
    game = Game(TRIDENT)
    t = game.tables
    src_km = source.kernel_map(t)
    src_sc = source.Scratch(src_km)
    y = t.line_index["Y"]
    routes = t.routes[y]

    def marks(lm: int, d: int, k: int, card: int) -> frozenset[int]:
        empties = [j for j in routes[d] if not lm >> j & 1]
        return frozenset(empties[: 1 if card == PLUS and empties else k])

    mk = kernel.station_marks(t.kernel)
    for lm in range(1 << len(t.stops[y])):
        for j, s in enumerate(t.stops[y]):
            mk[s] = lm >> j & 1
        for card in range(N_KINDS):
            if card == card_kind("free"):
                continue
            listed = t.choices(y, lm, card)
            assert source.line_choices(src_km, mk, y, card, src_sc) == listed
            moves = [(c >> ROUTE_SHIFT, c & CROSSES_MASK) for c in listed]
            assert len({marks(lm, d, k, card) for d, k in moves}) == len(moves), (lm, card)
            for d in range(len(routes)):
                most = 0 if card == PLUS else t.entry(y, d, lm).most_crosses(card)
                for k in range(most + 1):
                    a = t.canonical(y, lm, d, k, card)
                    assert a == source.canonical_move(src_km, mk, y, d, k, card, src_sc)
                    got = decode(a)
                    assert (got.route, got.crosses) in moves
                    assert marks(lm, got.route, got.crosses, card) == marks(lm, d, k, card)


def test_outcomes_say_what_each_branch_paid() -> None:
    """A game's outcome (what report, compare, tune and pacing read) pays a branch what the
    engine pays it: under best, a branch outdone by its line's better branch pays 0, and the
    outcome's breakdown is the engine's."""
    from mapkit.simulate.runner import GameRunner, RunConfig

    for city in (FORK, EACH):
        runner = GameRunner(city, RunConfig(("greedy", "random"), 60, seed=5, engine="checked"))
        seeds = runner.seeds(0, 60)
        outcomes = runner.outcomes(0, 60)
        both = []
        for o, seed in zip(outcomes, seeds, strict=True):
            state = runner.play_checked(seed)
            for p, seat in enumerate(o.seats):
                assert o.breakdown(p).completed == state.breakdown(p).completed
                assert o.breakdown(p).score == seat.score == state.score(p)
                if {"Y1", "Y2"} <= set(seat.completed):
                    both.append(tuple(seat.completed[u][1] for u in ("Y1", "Y2")))
        assert len(both) >= 5  # the games do run both branches
        # Y1 earns 6 or 3, Y2 4 or 2: best pays only the better of the two, each pays both
        if city is FORK:
            assert set(both) <= {(6, 0), (3, 0), (0, 4)}, both
        else:
            assert set(both) <= {(6, 4), (6, 2), (3, 4), (3, 2)}, both
