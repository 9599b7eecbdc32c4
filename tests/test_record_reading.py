"""Issue 8, items 6 and 7: records are read like maps (strict JSON, the game schema at run
time, then the rules) and know the map they were played on."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit.cli import app
from mapkit.engine.record import RecordError, parse_record, replay
from mapkit.mapfile import load_map
from mapkit.mapfile.model import fingerprint

GAMES = Path(__file__).resolve().parent.parent / "examples" / "games"
MINI = GAMES / "maps" / "mini.json"
SPARK = GAMES / "maps" / "spark.json"
runner = CliRunner()


def _doc(name: str = "01-solo-mini") -> dict:
    return json.loads((GAMES / f"{name}.json").read_text())


def _replay(tmp_path: Path, text: str | bytes, map_: Path = MINI):
    path = tmp_path / "game.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return runner.invoke(app, ["replay", str(path), "--map", str(map_)]), path


# -- the strict reader ----------------------------------------------------------------------


def test_a_bom_is_accepted(tmp_path):
    res, _ = _replay(tmp_path, b"\xef\xbb\xbf" + json.dumps(_doc()).encode())
    assert res.exit_code == 0, res.output


def test_duplicate_keys_are_refused_with_their_position(tmp_path):
    text = '{\n  "format": "mapkit-game/1",\n  "map": "mini",\n  "map": "mini"\n}'
    res, path = _replay(tmp_path, text)
    assert res.exit_code == 1
    assert res.stderr.startswith(f'mapkit: {path}:4:3: duplicate key "map" (first defined at')


def test_nan_is_refused_with_its_position(tmp_path):
    text = json.dumps(_doc()).replace('"format"', '"seed": NaN, "format"', 1)
    res, path = _replay(tmp_path, text)
    assert res.exit_code == 1
    column = text.index("NaN") + 1
    assert res.stderr.startswith(f"mapkit: {path}:1:{column}: NaN is not a JSON number")


def test_parse_record_names_line_and_column():
    with pytest.raises(RecordError) as info:
        parse_record('{"format": "mapkit-game/1",\n "map": "mini",\n "players": [1], "rounds": []}')
    assert (info.value.line, info.value.column) == (3, 14)
    assert "'players' must be a list of 1 to 6 unique names" in str(info.value)


# -- the schema at run time -----------------------------------------------------------------

SCHEMA_CASES = [
    ("junk on a free ride", ["rounds", 1, "moves", 0], {"station": "b2", "crosses": 1},
     "round 2, player ana: a free ride marks one station: 'crosses' does not belong beside"
     " 'station'"),
    ("direction on a free ride", ["rounds", 1, "moves", 0],
     {"station": None, "direction": "backward"},
     "round 2, player ana: a free ride marks one station: 'direction' does not belong beside"
     " 'station'"),
    ("unknown key in a move", ["rounds", 0, "moves", 0], {"line": "A", "colour": "red"},
     "round 1, player ana: unknown key 'colour' in the move"),
    ("line and station", ["rounds", 0, "moves", 0], {"line": "A", "station": "a1"},
     "round 1, player ana: a free ride marks one station: 'line' does not belong beside"
     " 'station'"),
    ("junk in an extra action", ["rounds", 0, "moves", 0],
     {"line": "A", "then": [{"line": "B", "speed": 3}]},
     "round 1, player ana (extra action 1): unknown key 'speed' in the move"),
    ("unknown top-level key", ["comment"], "hi", "unknown key 'comment' at the top level"),
    ("crosses a string", ["rounds", 0, "moves", 0], {"line": "A", "crosses": "3"},
     "round 1, player ana: crosses is a whole number from 0 to 6, not \"3\""),
]  # fmt: skip


@pytest.mark.parametrize(
    ("what", "path", "value", "message"), SCHEMA_CASES, ids=[c[0] for c in SCHEMA_CASES]
)
def test_schema_violations_are_refused_by_replay(tmp_path, what, path, value, message):
    doc = _doc()
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    res, game = _replay(tmp_path, json.dumps(doc, indent=1))
    assert res.exit_code == 1, res.output
    assert res.stderr.startswith(f"mapkit: {game}:") and message in res.stderr, res.stderr
    with pytest.raises(RecordError, match="^" + re.escape(message.split(":")[0])):
        replay(load_map(MINI), doc)  # the Python API runs the schema too


def test_direction_only_on_loop_lines():
    doc = _doc()
    doc["rounds"][0]["moves"][0]["direction"] = "forward"
    with pytest.raises(RecordError, match="round 1, player ana: line A is travelled one way only"):
        replay(load_map(MINI), doc)


# -- the map fingerprint --------------------------------------------------------------------


def test_records_written_by_play_carry_the_map_fingerprint(tmp_path):
    out = tmp_path / "g.json"
    args = ["play", str(MINI), "--no-human", "--bots", "random", "--seed", "3", "--record"]
    assert runner.invoke(app, [*args, str(out)]).exit_code == 0
    doc = json.loads(out.read_text())
    assert doc["map_fingerprint"] == fingerprint(load_map(MINI))
    assert list(doc)[:3] == ["format", "map", "map_fingerprint"]


def test_old_records_without_a_fingerprint_stay_readable(tmp_path):
    assert "map_fingerprint" not in _doc()
    res, _ = _replay(tmp_path, json.dumps(_doc()))
    assert res.exit_code == 0, res.output


def _changed_mini(tmp_path: Path, change) -> Path:
    doc = json.loads(MINI.read_text())
    change(doc)
    path = tmp_path / "mini-changed.json"
    path.write_text(json.dumps(doc))
    return path


def test_replay_against_a_changed_map_says_so(tmp_path):
    doc = _doc() | {"map_fingerprint": fingerprint(load_map(MINI))}
    changed = _changed_mini(tmp_path, lambda d: d["lines"][0].update(windows=4))
    res, _ = _replay(tmp_path, json.dumps(doc), changed)
    assert res.exit_code == 1
    assert "the map 'mini' has changed since this game was played" in res.stderr
    moved = _changed_mini(tmp_path, lambda d: d["stations"][0].update(x=d["stations"][0]["x"] + 1))
    res, _ = _replay(tmp_path, json.dumps(doc), moved)
    assert res.exit_code == 0, res.output  # drawing changes keep the game the same


def test_fingerprint_covers_the_game_facts_only():
    city = load_map(MINI)
    assert len(fingerprint(city)) == 16 and fingerprint(city) == fingerprint(load_map(MINI))
    assert fingerprint(city) != fingerprint(load_map(SPARK))


# -- the map beside the record --------------------------------------------------------------


@pytest.mark.parametrize("where", [".", "maps"])
def test_replay_finds_the_map_beside_the_record(tmp_path, where):
    (tmp_path / where).mkdir(exist_ok=True)
    shutil.copy(MINI, tmp_path / where / "mini.json")
    rec = tmp_path / "game.json"
    rec.write_text(json.dumps(_doc()))
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 0, res.output
    assert "record OK" in res.stdout


def test_a_map_beside_the_record_wins_over_a_shipped_city(tmp_path):
    """A record of a game on a local berlin.json must not be checked against the shipped one."""
    doc = json.loads(MINI.read_text()) | {"id": "berlin"}
    (tmp_path / "berlin.json").write_text(json.dumps(doc))
    rec = _doc() | {"map": "berlin"}
    (tmp_path / "game.json").write_text(json.dumps(rec))
    res = runner.invoke(app, ["replay", str(tmp_path / "game.json")])
    assert res.exit_code == 0, res.output
    res = runner.invoke(
        app, ["render", "--record", str(tmp_path / "game.json"), "--player", "ana", "-o",
              str(tmp_path / "sheet.svg")]
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert (tmp_path / "sheet.svg").read_text().startswith("<svg")
