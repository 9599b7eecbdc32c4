"""``mapkit replay``: exact JSON output, and every kind of illegal record refused (exit 1)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit.cli import app

GAMES = Path(__file__).resolve().parent.parent / "examples" / "games"
MINI = str(GAMES / "maps" / "mini.json")
SPARK = str(GAMES / "maps" / "spark.json")
runner = CliRunner()


def doc(name: str) -> dict:
    return json.loads((GAMES / f"{name}.json").read_text())


def run_replay(tmp_path: Path, record, map_: str = MINI, *args: str):
    path = tmp_path / "game.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    return runner.invoke(app, ["replay", str(path), "--map", map_, *args])


def test_replay_json_exact(tmp_path):
    res = run_replay(tmp_path, doc("02-duel-mini-tie-race"), MINI, "--format", "json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == {
        "players": [
            {"name": "ana", "completed": {"A": 3, "B": 4}, "line_points": 7, "interchanges": [],
             "interchange_points": 0, "empty_stations": 0, "penalty": 0, "score": 7, "rank": 1},
            {"name": "ben", "completed": {"A": 3}, "line_points": 3, "interchanges": [],
             "interchange_points": 0, "empty_stations": 1, "penalty": 0, "score": 3, "rank": 2},
        ],
        "rounds": 3,
    }  # fmt: skip


def test_replay_text(tmp_path):
    res = run_replay(tmp_path, doc("01-solo-mini"))
    assert res.exit_code == 0
    assert res.stdout.splitlines() == [
        "Mini: 1 player(s), 4 rounds, 1 free ride(s); record OK",
        "rank  player lines inter empty  pen score",
        "1     ana        7     0     0    0     7",
        "ana: completed A 3, B 4; interchanges none",
        "solo rating: 5-9: You're already pretty good at making plans.",
    ]


def mutate(name, fn):
    d = copy.deepcopy(doc(name))
    fn(d)
    return d


def _set(path, value):
    def fn(d):
        node = d
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value

    return fn


ILLEGAL = [
    # (name, game, map, mutation, expected message after "mapkit: <path>: ")
    ("card the deck cannot produce", "01-solo-mini", MINI, _set(["rounds", 2, "card"], "free"),
     "round 3: the deck cannot produce this card: card 'free' cannot be revealed: no copy of it"
     " is left in the draw pile"),
    ("unknown card", "01-solo-mini", MINI, _set(["rounds", 0, "card"], "7"),
     "round 1: unknown card '7' (the deck has 3, 4, 5, 6, x2, x3, +, free)"),
    ("no empty window", "01-solo-mini", MINI,
     _set(["rounds", 2, "moves", 0], {"line": "A"}),
     "round 3, player ana: line A has no empty window"),
    ("more crosses than the card", "02-duel-mini-tie-race", MINI,
     _set(["rounds", 0, "moves", 1], {"line": "A", "crosses": 4}),
     "round 1, player ben: more crosses than possible: 4 crosses on line A, but the 3 card allows"
     " at most 3"),
    ("more crosses than the line", "02-duel-mini-tie-race", MINI,
     _set(["rounds", 1, "moves", 0], {"line": "B", "crosses": 2}),
     "round 2, player ana: more crosses than possible: 2 crosses on line B, but line B"
     " (1 reachable) allows at most 1"),
    ("marked station for a free ride", "01-solo-mini", MINI,
     _set(["rounds", 1, "moves", 0], {"station": "a2"}),
     "round 2, player ana: station a2 is already marked: a free ride needs an empty station"),
    ("missing then", "04-duel-spark-special-tie", SPARK,
     _set(["rounds", 0, "moves", 0], {"line": "A"}),
     "round 1, player ana: missing `then`: the move marked a special station and earned an"
     " extra action that the record does not give"),
    ("unearned then", "04-duel-spark-special-tie", SPARK,
     _set(["rounds", 0, "moves", 1], {"line": "B", "then": [{"line": "A"}]}),
     "round 1, player ben: unearned `then`: the move earned 0 extra action(s) but `then` has 1"),
    ("then without the variant", "01-solo-mini", MINI,
     _set(["rounds", 0, "moves", 0], {"line": "A", "then": [{"line": "B"}]}),
     "round 1, player ana: unearned `then`: extra actions exist only with the special-station"
     " variant"),
    ("wrong number of moves", "02-duel-mini-tie-race", MINI,
     _set(["rounds", 2, "moves"], [{"line": "B"}]),
     "round 3: wrong number of moves: 1 moves for 2 players"),
    ("non-null move for a finished player", "05-trio-spark-special-finished", SPARK,
     _set(["rounds", 3, "moves", 0], {"line": "A"}),
     "round 4, player ana: the player has no empty window left (finished): the move must be null"),
    ("null move for a player with windows", "01-solo-mini", MINI,
     _set(["rounds", 0, "moves", 0], None),
     "round 1, player ana: the move is null but the player still has 3 empty windows"),
    ("map id", "01-solo-mini", MINI, _set(["map"], "berlin"),
     "the record is for map 'berlin' but the map given is 'mini'"),
    ("game not over", "01-solo-mini", MINI, lambda d: d["rounds"].pop(),
     "round 3: the record ends but the game is not over (empty windows: ana has 1)"),
    ("round too many", "01-solo-mini", MINI,
     lambda d: d["rounds"].append({"card": "3", "moves": [None]}),
     "round 5: the game ended after round 4; this round is one too many"),
    ("unknown line", "01-solo-mini", MINI, _set(["rounds", 0, "moves", 0], {"line": "Z"}),
     "round 1, player ana: no line 'Z' on map mini"),
    ("line move on a free ride", "01-solo-mini", MINI,
     _set(["rounds", 1, "moves", 0], {"line": "B"}),
     'round 2, player ana: a free ride fills no window: the move is {"station": S} or'
     ' {"station": null}'),
    ("direction on a plain line", "01-solo-mini", MINI,
     _set(["rounds", 0, "moves", 0], {"line": "A", "direction": "backward"}),
     "round 1, player ana: line A is travelled one way only (not a loop, not two-ended): it has"
     " no direction"),
    ("bad format", "01-solo-mini", MINI, _set(["format"], "mapkit-game/2"),
     "'format' must be 'mapkit-game/1', not 'mapkit-game/2'"),
    ("duplicate players", "02-duel-mini-tie-race", MINI, _set(["players"], ["ana", "ana"]),
     "'players' must be a list of 1 to 6 unique names of 1 to 40 characters"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("what", "game", "map_", "fn", "message"), ILLEGAL, ids=[i[0] for i in ILLEGAL]
)
def test_illegal_record(tmp_path, what, game, map_, fn, message):
    res = run_replay(tmp_path, mutate(game, fn), map_, "--format", "json")
    assert res.exit_code == 1, res.output
    assert res.stdout == ""  # nothing scored
    where = re.escape(f"mapkit: {tmp_path / 'game.json'}")
    assert re.fullmatch(rf"{where}(:\d+:\d+)?: {re.escape(message)}", res.stderr.strip())


def test_malformed_json(tmp_path):
    res = run_replay(tmp_path, '{"format": "mapkit-game/1",', MINI)
    assert res.exit_code == 1
    assert res.stderr == (
        f"mapkit: {tmp_path / 'game.json'}:1:28: not valid JSON: expected a quoted property"
        " name, found end of file\n"
    )
    assert "Traceback" not in res.output


def test_missing_record_file_is_usage_error(tmp_path):
    res = runner.invoke(app, ["replay", str(tmp_path / "nope.json"), "--map", MINI])
    assert res.exit_code == 2 and "no such record file" in res.stderr


def test_all_example_games_validate_against_schema():
    import jsonschema

    schema = json.loads((GAMES.parent.parent / "schemas" / "game.schema.json").read_text())
    for path in GAMES.glob("*.json"):
        jsonschema.validate(json.loads(path.read_text()), schema)


def test_schema_command_prints_game_schema():
    res = runner.invoke(app, ["schema", "game"])
    assert res.exit_code == 0 and json.loads(res.stdout)["title"] == "mapkit game record"
