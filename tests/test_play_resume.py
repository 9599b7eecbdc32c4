"""Issue 8, item 8: play keeps the game (quit, end of input, Ctrl-C save it; --resume goes on),
and a typed answer means what the help says it means."""

from __future__ import annotations

import copy
import json
import os
import pty
import signal
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit.cli import app
from mapkit.engine import Game, card_kind
from mapkit.engine.record import RecordError, replay
from mapkit.mapfile import build_map, load_map
from mapkit.play import parse_choice
from tests.test_play import _read_until, _reap

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "examples" / "games"
RING = GAMES / "maps" / "ring.json"
MINI = GAMES / "maps" / "mini.json"
runner = CliRunner()
# Answers for ring.json, seed 11: good and bad ones, every card kind (as in test_play.py).
ANSWERS = ["", "zz", "?", "Q9", "r back 9", "R back", "s", "none", "R 1", "S", "R", "r", "s"] * 3


def _play(record: Path, answers: list[str], *extra: str):
    args = ["play", str(RING), "--seed", "11", "--name", "ana", "--record", str(record), *extra]
    return runner.invoke(app, args, input="".join(a + "\n" for a in answers))


@pytest.mark.parametrize("stop", [2, 4, 6])
def test_end_of_input_saves_the_game_and_resume_finishes_it_the_same_way(tmp_path, stop):
    whole = tmp_path / "whole.json"
    assert _play(whole, ANSWERS).exit_code == 0
    part = tmp_path / "part.json"
    res = _play(part, ANSWERS[:stop])
    assert res.exit_code == 0, res.output
    assert f"continue it with: mapkit play --resume {part}" in res.stdout
    saved = json.loads(part.read_text())
    with pytest.raises(RecordError, match="the game is not over"):
        replay(load_map(RING), saved)
    args = ["play", str(RING), "--resume", str(part)]
    res = runner.invoke(app, args, input="".join(a + "\n" for a in ANSWERS[stop:]))
    assert res.exit_code == 0, res.output
    assert "(resumed)" in res.stdout and f"record written to {part}" in res.stdout
    assert json.loads(part.read_text()) == json.loads(whole.read_text())


def test_quit_saves_only_complete_rounds(tmp_path):
    part = tmp_path / "g.json"
    res = _play(part, ["R", "quit"])
    assert res.exit_code == 0, res.output
    doc = json.loads(part.read_text())
    assert len(doc["rounds"]) == 1 and doc["seed"] == 11 and doc["players"] == ["ana"]
    assert "Game saved after 1 complete round(s)" in res.stdout


def test_resume_of_a_finished_game_is_refused(tmp_path):
    rec = tmp_path / "g.json"
    shutil_copy = json.loads((GAMES / "01-solo-mini.json").read_text())
    rec.write_text(json.dumps(shutil_copy))
    (tmp_path / "mini.json").write_text(MINI.read_text())
    res = runner.invoke(app, ["play", "--resume", str(rec)])
    assert res.exit_code == 1 and "the game is over; nothing to resume" in res.stderr


def test_resume_keeps_the_bots(tmp_path):
    rec = tmp_path / "g.json"
    args = ["play", str(RING), "--seed", "4", "--bots", "greedy", "--record", str(rec)]
    assert runner.invoke(app, args, input="R\n").exit_code == 0
    res = runner.invoke(app, ["play", str(RING), "--resume", str(rec)], input="R\nS\nnone\nR\n" * 4)
    assert res.exit_code == 0, res.output
    doc = json.loads(rec.read_text())
    assert doc["players"] == ["you", "greedy-1"]
    assert replay(load_map(RING), doc).state.is_terminal()


def test_ctrl_c_in_a_terminal_saves_the_game(tmp_path):
    rec = tmp_path / "g.json"
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(
            sys.executable,
            [sys.executable, "-m", "mapkit", "play", str(RING), "--seed", "11", "--record",
             str(rec)],
        )  # fmt: skip
    try:
        out = _read_until(fd, b"your choice> ")
        os.write(fd, b"R\n")
        out = _read_until(fd, b"your choice> ")
        time.sleep(0.5)  # readline shows the prompt just before it waits: let it wait
        os.kill(pid, signal.SIGINT)
        out = _read_until(fd, b"--resume")
        assert b"Game saved after 1 complete round(s)" in out
    finally:
        status = _reap(pid)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 130
    assert len(json.loads(rec.read_text())["rounds"]) == 1


# -- what a typed answer means --------------------------------------------------------------


def _city(extra_line: bool = True, stations: list[dict] | None = None):
    doc = json.loads(MINI.read_text())
    if stations:
        doc["stations"] += stations
        doc["lines"][0]["stops"] += [s["id"] for s in stations]
    if extra_line:
        b3 = copy.deepcopy(doc["lines"][1]) | {"id": "B3", "depot": {"x": 60, "y": 60}}
        b3["stops"] = ["b4", "a3"]
        doc["lines"].append(b3)
    return build_map(doc)


def _state(city, card: str):
    state = Game(city).new_initial_state(0)
    state.apply_action(card_kind(card))
    return state


def test_b3_is_line_b3_and_b_3_is_three_crosses_on_b():
    state = _state(_city(), "4")
    assert parse_choice("B3", state) == {"line": "B3"}
    assert parse_choice("b3", state) == {"line": "B3"}
    assert parse_choice("B 3", state) == {"line": "B", "crosses": 3}
    assert parse_choice("A3", state) == {"line": "A", "crosses": 3}  # no line A3


def test_an_exact_station_id_wins_over_case_folding_and_prefixes():
    city = _city(False, [{"id": "A1", "x": 70, "y": 10, "name": "Alpha"}])
    state = _state(city, "free")
    assert parse_choice("a1", state) == {"station": "a1"}
    assert parse_choice("A1", state) == {"station": "A1"}
    assert parse_choice("alpha", state) == {"station": "A1"}


def test_an_ambiguous_answer_lists_the_candidates():
    city = _city(
        False,
        [{"id": "z1", "x": 70, "y": 10, "name": "Zoo"}, {"id": "z2", "x": 90, "y": 10,
          "name": "Zoo Ost"}],
    )  # fmt: skip
    state = _state(city, "free")
    assert parse_choice("zoo", state) == {"station": "z1"}  # an exact name
    with pytest.raises(ValueError) as info:
        parse_choice("z", state)
    assert (
        str(info.value)
        == "'z' matches 2 stations starting with it: z1 (Zoo), z2 (Zoo Ost); type the id"
    )
    with pytest.raises(ValueError, match="'b' matches 3 stations starting with it: b1, b3, b4"):
        parse_choice("b", state)


def test_help_explains_line_ids_and_station_matching():
    res = runner.invoke(app, ["play", str(MINI), "--seed", "1"], input="?\n")
    assert "with lines B and B3, B3 is line" in res.stdout
    assert "an exact id wins, several matches are listed" in res.stdout


def test_resume_takes_the_game_from_the_record(tmp_path):
    part = tmp_path / "g.json"
    _play(part, ["R"])
    res = runner.invoke(app, ["play", str(RING), "--resume", str(part), "--seed", "3"])
    assert res.exit_code == 2
    assert "--resume plays on the record's game as it was set up; leave out --seed" in res.stderr
    other = tmp_path / "other.json"
    other.write_text("keep")
    res = runner.invoke(app, ["play", str(RING), "--resume", str(part), "--record", str(other)])
    assert res.exit_code == 2 and "already exists; add --force" in res.stderr
    assert other.read_text() == "keep"


def test_resumed_summary_counts_every_free_ride(tmp_path):
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    full = _play(whole, ANSWERS)
    _play(part, ANSWERS[:6])
    res = runner.invoke(
        app, ["play", str(RING), "--resume", str(part)], input="\n".join(ANSWERS[6:]) + "\n"
    )
    summary = [ln for ln in full.stdout.splitlines() if "free ride(s)" in ln]
    assert summary and summary == [ln for ln in res.stdout.splitlines() if "free ride(s)" in ln]
