"""``mapkit play``: piped stdin (CliRunner) and a real pseudo-terminal."""

from __future__ import annotations

import json
import os
import pty
import select
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from mapkit.cli import app
from mapkit.engine.record import replay
from mapkit.mapfile import load_map

GAMES = Path(__file__).resolve().parent.parent / "examples" / "games"
MINI = str(GAMES / "maps" / "mini.json")
RING = str(GAMES / "maps" / "ring.json")
runner = CliRunner()


def test_bots_only_writes_a_record_that_replays(tmp_path):
    out = tmp_path / "g.json"
    args = ["play", MINI, "--no-human", "--bots", "random,random", "--seed", "5", "--record"]
    res = runner.invoke(app, [*args, str(out)])
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text())
    assert doc["players"] == ["random-1", "random-2"] and doc["seed"] == 5
    rep = replay(load_map(MINI), doc)
    assert f"record written to {out}" in res.stdout
    assert rep.state.is_terminal()
    again = runner.invoke(app, [*args, str(tmp_path / "h.json")])
    assert (tmp_path / "h.json").read_text() == out.read_text()  # same seed, same game
    assert again.exit_code == 0


def test_human_forgiving_input_bad_input_asked_again(tmp_path):
    # Ring: loop R (2 windows), S (1 window). Answers cover every card kind; bad ones first.
    answers = ["", "zz", "?", "Q9", "r back 9", "R back", "s", "none", "R 1", "S", "R", "r", "s"]
    out = tmp_path / "g.json"
    res = runner.invoke(
        app,
        ["play", RING, "--seed", "11", "--name", "ana", "--record", str(out)],
        input="\n".join(answers * 3) + "\n",
    )
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    assert "=== Round 1: card" in res.stdout and "your choice>" in res.stdout
    assert "no line in 'zz'" in res.stdout or "no station 'zz'" in res.stdout
    assert "How to answer:" in res.stdout
    assert "solo rating:" in res.stdout
    doc = json.loads(out.read_text())
    assert doc["players"] == ["ana"]
    assert replay(load_map(RING), doc).state.is_terminal()


def test_eof_quits_cleanly():
    res = runner.invoke(app, ["play", MINI, "--seed", "1"], input="")
    assert res.exit_code == 0
    assert "Game abandoned in round 1; no record written." in res.stdout


def test_usage_errors():
    res = runner.invoke(app, ["play", MINI, "--no-human"])
    assert res.exit_code == 2 and "--no-human needs 1 to 6 bots" in res.stderr
    res = runner.invoke(app, ["play", MINI, "--bots", "random," * 6])
    assert res.exit_code == 2 and "at most 5 bots" in res.stderr
    res = runner.invoke(app, ["play", MINI, "--bots", "nosuchbot"])
    assert res.exit_code == 2 and "unknown bot 'nosuchbot'" in res.stderr


def test_parse_choice_forms():
    from mapkit.engine import Game, card_kind
    from mapkit.play import parse_choice

    game = Game(load_map(RING))
    s = game.new_initial_state(0)
    s.apply_action(card_kind("4"))
    assert parse_choice("R", s) == {"line": "R"}
    assert parse_choice("r 3", s) == {"line": "R", "crosses": 3}
    assert parse_choice("R3", s) == {"line": "R", "crosses": 3}
    assert parse_choice("r back 2", s) == {"line": "R", "crosses": 2, "direction": "backward"}
    assert parse_choice("S, 0", s) == {"line": "S", "crosses": 0}
    t = game.new_initial_state(0)
    t.apply_action(card_kind("free"))
    assert parse_choice("R3", t) == {"station": "r3"} and parse_choice("none", t) == {
        "station": None
    }
    u = game.new_initial_state(0)
    u.apply_action(card_kind("+"))
    assert parse_choice("+s", u) == {"line": "S"}


def _read_until(fd: int, needle: bytes, timeout: float = 20.0) -> bytes:
    buf = b""
    end = time.monotonic() + timeout
    while needle not in buf and time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
    return buf


def _reap(pid: int, timeout: float = 10.0) -> int:
    """The child's wait status; a child still waiting for input is killed, not waited for."""
    import signal

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    return os.waitpid(pid, 0)[1]


def test_play_in_a_real_pseudo_terminal():
    pid, fd = pty.fork()
    if pid == 0:  # the child: run the CLI on the pty
        os.execv(sys.executable, [sys.executable, "-m", "mapkit", "play", MINI, "--seed", "2"])
    try:
        out = _read_until(fd, b"your choice> ")
        assert b"=== Round 1: card" in out
        os.write(fd, b"nonsense\n")
        out = _read_until(fd, b"try again")
        assert b"try again" in out
        for _ in range(12):
            os.write(fd, b"B\n" if b"card free" not in out else b"none\n")
            out = _read_until(fd, b"your choice> ", 5.0)
            if b"solo rating" in out:
                break
            if b"try again" in out:
                os.write(fd, b"A\n")
                out = _read_until(fd, b"your choice> ", 5.0)
                if b"solo rating" in out:
                    break
        assert b"solo rating" in out
    finally:
        status = _reap(pid)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0


def test_the_session_as_library_code():
    """``mapkit.play`` without the terminal: typed answers in, the log and the outcome out."""
    import pytest

    from mapkit import play
    from mapkit.engine.record import result

    ring = load_map(RING)
    with pytest.raises(play.PlayError, match="at most 5 bots play against you") as err:
        play.new_session(ring, "random," * 6, True, 1, False, "ana")
    assert err.value.code == 2
    answers = iter(["", "zz", "?", "Q9", "r back 9", "R back", "s", "none", "R 1", "S", "R"] * 9)
    log: list[str] = []
    session = play.new_session(ring, "greedy", True, 11, False, "ana")
    outcome = play.play(session, lambda _prompt: next(answers), log.append)
    assert log[0].startswith("\n=== Round 1: card ") and "Your sheet (ana)" in "".join(log)
    res = result(replay(ring, play.record(session)))
    assert [s.score for s in outcome.seats] == [p["score"] for p in res["players"]]
    assert [s.rank for s in outcome.seats] == [p["rank"] for p in res["players"]]
    assert [s.bot for s in outcome.seats] == ["ana", "greedy-1"] and outcome.engine == "checked"


def test_quitting_keeps_the_complete_rounds():
    import pytest

    from mapkit import play

    ring = load_map(RING)
    session = play.new_session(ring, "random", True, 11, False, "ana")
    answers = iter(["R", "quit"])
    with pytest.raises(play.Quit):
        play.play(session, lambda _prompt: next(answers), lambda _line: None)
    doc, rounds = play.saved_record(session)
    assert rounds == 1 and len(doc["rounds"]) == 1
    assert doc["players"] == ["ana", "random-1"] and doc["rounds"][0]["moves"][0]["line"] == "R"


def test_parse_choice_and_choices_name_a_branch():
    from mapkit.engine import Game, card_kind
    from mapkit.engine.testing import run
    from mapkit.play import choices_text, parse_choice
    from tests.test_branching import TRIDENT

    s = Game(TRIDENT).new_initial_state(0)
    s.apply_action(card_kind("3"))
    assert parse_choice("Y/3", s) == {"line": "Y", "branch": 3}
    assert parse_choice("y/2 3", s) == {"line": "Y", "branch": 2, "crosses": 3}
    assert parse_choice("Y /3, 2", s) == {"line": "Y", "branch": 3, "crosses": 2}
    assert parse_choice("Y 2", s) == {"line": "Y", "crosses": 2}
    # branch 1 with 0-3 crosses; branches 2 and 3 only past the fork (rules-notes 23)
    assert choices_text(s) == "choices: Y/1 0-3, Y/2 3, Y/3 3, Z 0-2"
    u = run(TRIDENT, [("4", [{"line": "Y"}])]).state  # trunk and branch 1 full
    u.apply_action(card_kind("+"))
    assert choices_text(u) == "choices: Y/1 Y/2 Y/3, Z"
    assert parse_choice("+y/3", u) == {"line": "Y", "branch": 3}
