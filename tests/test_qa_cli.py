"""QA regressions across the commands: each test names the bug it guards."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit.atomic import OutputError, atomic_open, check_output, check_writable
from mapkit.cli import app
from tests.test_render_common import FIXTURE

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "examples" / "games"
MINI = str(GAMES / "maps" / "mini.json")
RING = str(GAMES / "maps" / "ring.json")
runner = CliRunner()


# -- play ---------------------------------------------------------------------------------


def test_play_echoes_the_humans_move_and_the_piped_answer():
    """The human's own move was never shown, so the round log skipped one player."""
    res = runner.invoke(app, ["play", RING, "--seed", "11", "--name", "ana"], input="zz\nr\n")
    assert res.exit_code == 0, res.output
    log = res.stdout
    assert "your choice> zz\n  no line in 'zz'" in log or "your choice> zz\n  no station" in log
    chosen = log.split("your choice> r\n", 1)[1].splitlines()[0]
    assert chosen.startswith("ana: ")  # the move as the engine read it, e.g. "ana: R 3"


def test_play_summary_counts_free_rides_like_replay(tmp_path):
    """`mapkit play` printed "0 free ride(s)" where replay of its own record said 2."""
    out = tmp_path / "g.json"
    args = ["play", "berlin", "--no-human", "--bots", "random", "--seed", "7", "--record"]
    res = runner.invoke(app, [*args, str(out)])
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text())
    frees = sum(r["card"] == "free" for r in doc["rounds"])
    assert frees > 0
    assert f"{len(doc['rounds'])} rounds, {frees} free ride(s)" in res.stdout
    again = runner.invoke(app, ["replay", str(out)])
    assert f"{frees} free ride(s); record OK" in again.stdout


def test_play_record_to_a_folder_is_refused_before_the_game(tmp_path):
    """A folder (or an unwritable place) for --record crashed with a traceback at the end."""
    res = runner.invoke(app, ["play", MINI, "--no-human", "--bots", "random", "--record",
                              str(tmp_path)])  # fmt: skip
    assert res.exit_code == 2
    assert "is a folder; name the output file" in res.stderr
    assert "=== Round" not in res.stdout


def test_play_empty_name_and_unknown_bot_messages():
    res = runner.invoke(app, ["play", MINI, "--name", " "], input="")
    assert res.exit_code == 2 and "--name must not be empty" in res.stderr
    res = runner.invoke(app, ["play", MINI, "--bots", "nosuchbot"])
    assert res.exit_code == 2
    assert res.stderr.count("unknown bot") == 1, res.stderr


# -- replay -------------------------------------------------------------------------------


def _write(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "game.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return str(path)


def _record(**change) -> dict:
    doc = json.loads((GAMES / "01-solo-mini.json").read_text())
    doc.update(change)
    return doc


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            json.dumps(_record(rounds=[{"card": [3], "moves": [{"line": "A"}]}])),
            'round 1: a card is a string, one of "3", "4", "5", "6", "x2", "x3", "+", "free";'
            " not [3]",
        ),
        (json.dumps(_record(rounds=[])), "the record has no rounds: the game is not over"),
        ('{"rounds": ' + "[" * 50000 + "]" * 50000 + "}", "nesting deeper than 128 levels"),
        (
            b'{"format": "mapkit-game/1", "map": "Z\xfcrich"}',
            "the file is not valid UTF-8: byte 0xfc at offset 37",
        ),
    ],
    ids=["card not a string", "no rounds", "deep nesting", "not utf-8"],
)
def test_replay_bad_records_exit_1_without_traceback(tmp_path, text, message):
    res = runner.invoke(app, ["replay", _write(tmp_path, text), "--map", MINI])
    assert res.exit_code == 1, res.output
    assert message in res.stderr
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_replay_names_a_map_that_is_not_shipped(tmp_path):
    res = runner.invoke(app, ["replay", _write(tmp_path, json.dumps(_record()))])
    assert res.exit_code == 2
    assert (
        "the record's map 'mini' is not beside the record (mini.json or maps/mini.json)"
        " nor a shipped city; give --map MAP" in res.stderr
    )


# -- render -------------------------------------------------------------------------------


@pytest.fixture
def fx(tmp_path):
    path = tmp_path / "fixture-city.json"
    shutil.copy(FIXTURE, path)
    return path


def test_render_round_past_the_end_is_refused(fx, tmp_path):
    """--round 99 on a shorter record was drawn as the end and named ...-round99."""
    rec = tmp_path / "game.json"
    res = runner.invoke(app, ["play", str(fx), "--no-human", "--bots", "random", "--seed", "3",
                              "--record", str(rec)])  # fmt: skip
    assert res.exit_code == 0, res.output
    n = len(json.loads(rec.read_text())["rounds"])
    args = ["render", str(fx), "--record", str(rec), "--player", "random-1", "--round"]
    res = runner.invoke(app, [*args, str(n + 1)])
    assert res.exit_code == 1
    assert f"round {n + 1} is past the end of the record: it has {n} rounds" in res.stderr
    assert not list(tmp_path.glob("*.svg"))
    res = runner.invoke(app, [*args, str(n)])
    assert res.exit_code == 0, res.output
    assert (tmp_path / f"fixture-city-random-1-round{n}.svg").is_file()


def test_render_record_nested_too_deep_exits_1(fx, tmp_path):
    rec = _write(tmp_path, "[" * 50000 + "]" * 50000)
    res = runner.invoke(app, ["render", str(fx), "--record", rec, "--player", "x"])
    assert res.exit_code == 1 and "nesting deeper than 128 levels" in res.stderr


# -- atomic outputs -----------------------------------------------------------------------


def test_output_naming_a_folder_is_refused(tmp_path):
    with pytest.raises(OutputError, match="is a folder"):
        check_output(tmp_path)


def test_unwritable_folder_is_named_by_the_target_not_the_temp_file(tmp_path, monkeypatch):
    import tempfile

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)
    target = tmp_path / "out.pdf"
    with pytest.raises(OSError) as info, atomic_open(target):
        pass
    assert info.value.filename == str(target)
    with pytest.raises(OutputError, match="cannot write in the folder of"):
        check_writable(target)


# -- validate / intersections -------------------------------------------------------------


def test_intersections_header_lines_up_with_short_ids():
    res = runner.invoke(app, ["intersections", MINI])
    assert res.exit_code == 0, res.output
    head, first = res.stdout.splitlines()[:2]
    station_and_count = re.match(r"\S+ +\d+", first).group(0)
    assert len(station_and_count) == head.index("count") + len("count")


def test_sarif_rule_names_are_pascal_case():
    res = runner.invoke(app, ["validate", "-f", "sarif", str(ROOT / "examples" / "minimal.json")])
    names = {
        r["id"]: r["name"] for r in json.loads(res.stdout)["runs"][0]["tool"]["driver"]["rules"]
    }
    assert names["JSON002"] == "DuplicateKey"
    assert names["JSON003"] == "NonFiniteNumber"


def test_render_two_maps_with_one_name_are_refused(fx, tmp_path):
    """Two maps named alike were both written to one file, the second over the first."""
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(fx, other / fx.name)
    out = tmp_path / "out"
    out.mkdir()
    res = runner.invoke(app, ["render", str(fx), str(other / fx.name), "-o", str(out)])
    assert res.exit_code == 2
    assert "two maps would both be written to" in res.stderr
    assert list(out.iterdir()) == []
