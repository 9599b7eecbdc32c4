"""Issue 8, items 1, 2 and 4: outputs never destroy what was there; the format follows the
name; every path problem is one line and exit 2, in every command."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit.atomic import OutputError, StagedFolder, check_output, write_text
from mapkit.cli import app

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "examples" / "games" / "maps" / "mini.json"
runner = CliRunner()


@pytest.fixture
def mini(tmp_path) -> Path:
    path = tmp_path / "mini.json"
    shutil.copy(MINI, path)
    return path


def _tmp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# -- devices, FIFOs, symlinks, sockets ------------------------------------------------------


@pytest.fixture
def null_device(tmp_path) -> Path:
    """A private character device like /dev/null: a regression replaces this one, not the
    system's. Making a device needs root (as CI runs); elsewhere /dev/null itself serves."""
    dev = tmp_path / "null"
    try:
        os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        return Path(os.devnull)
    return dev


def test_a_device_is_written_through_not_replaced(mini, null_device):
    res = runner.invoke(app, ["render", str(mini), "-o", str(null_device)])
    assert res.exit_code == 0, res.output
    assert stat.S_ISCHR(os.lstat(null_device).st_mode)


def test_a_fifo_is_written_through(mini, tmp_path):
    fifo = tmp_path / "sheet.svg"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    res = runner.invoke(app, ["render", str(mini), "-o", str(fifo)])
    reader.join(10)
    assert res.exit_code == 0, res.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].startswith(b"<svg") and got[0].rstrip().endswith(b"</svg>")
    assert _tmp_files(tmp_path) == []


def test_a_symlink_is_written_through_and_stays_a_link(mini, tmp_path):
    real = tmp_path / "real.svg"
    real.write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(real)
    res = runner.invoke(app, ["render", str(mini), "-o", str(link)])
    assert res.exit_code == 0, res.output
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().startswith("<svg")


def test_a_symlink_to_the_input_is_refused(mini, tmp_path):
    link = tmp_path / "sheet.svg"
    link.symlink_to(mini)
    before = mini.read_bytes()
    res = runner.invoke(app, ["render", str(mini), "-o", str(link)])
    assert res.exit_code == 2
    assert "refusing to overwrite the input file" in res.stderr
    assert mini.read_bytes() == before


def test_a_socket_is_refused(mini, tmp_path):
    path = tmp_path / "s.svg"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        res = runner.invoke(app, ["render", str(mini), "-o", str(path)])
        assert res.exit_code == 2
        assert "is not a regular file, a device or a pipe; refusing" in res.stderr
        assert stat.S_ISSOCK(os.lstat(path).st_mode)


def test_replacing_a_file_keeps_its_permissions(tmp_path):
    out = tmp_path / "sheet.svg"
    out.write_text("old")
    out.chmod(0o600)
    write_text(out, "new")
    assert out.read_text() == "new" and stat.S_IMODE(out.stat().st_mode) == 0o600


# -- what may be replaced -------------------------------------------------------------------


def test_play_record_keeps_an_existing_file_without_force(mini, tmp_path):
    out = tmp_path / "game.json"
    out.write_text("precious")
    args = ["play", str(mini), "--no-human", "--bots", "random", "--seed", "1", "--record"]
    res = runner.invoke(app, [*args, str(out)])
    assert res.exit_code == 2
    assert f"{out} already exists; add --force to replace it" in res.stderr
    assert "=== Round" not in res.stdout and out.read_text() == "precious"
    res = runner.invoke(app, [*args, str(out), "--force"])
    assert res.exit_code == 0, res.output
    assert json.loads(out.read_text())["map"] == "mini"


def _simulate(mini: Path, games: int, folder: Path, *extra: str):
    args = ["simulate", str(mini), "-n", str(games), "--bots", "random", "--records"]
    return runner.invoke(app, [*args, str(folder), *extra])


def test_simulate_records_never_mix_two_runs(mini, tmp_path):
    folder = tmp_path / "games"
    assert _simulate(mini, 3, folder, "--seed", "1").exit_code == 0
    first = {p.name: p.read_text() for p in folder.iterdir()}
    assert sorted(first) == ["mini-00001.json", "mini-00002.json", "mini-00003.json"]
    (folder / "notes.txt").write_text("mine")
    res = _simulate(mini, 2, folder, "--seed", "2")
    assert res.exit_code == 2
    assert "already holds 3 game record(s) of an earlier run; add --force" in res.stderr
    assert {p.name: p.read_text() for p in folder.iterdir() if p.suffix == ".json"} == first
    res = _simulate(mini, 2, folder, "--seed", "2", "--force")
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in folder.iterdir()) == [
        "mini-00001.json", "mini-00002.json", "notes.txt"
    ]  # fmt: skip
    assert (
        json.loads((folder / "mini-00001.json").read_text())["seed"]
        != json.loads(first["mini-00001.json"])["seed"]
    )
    assert _tmp_files(tmp_path) == []


def test_staged_folder_is_discarded_on_failure(tmp_path):
    target = tmp_path / "out"
    with pytest.raises(RuntimeError), StagedFolder(target) as staged:
        staged.write("x-00001.json", "{}")
        raise RuntimeError
    assert not target.exists() and list(tmp_path.iterdir()) == []


# -- signals --------------------------------------------------------------------------------


def _start(args: list[str], cwd: Path, busy) -> subprocess.Popen:
    """Start ``mapkit`` and return once ``busy(pid)`` says it is in the middle of its work
    (not importing: an import interrupted by a signal is not what these tests are about)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mapkit", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    end = time.monotonic() + 60
    while time.monotonic() < end and proc.poll() is None:
        if busy(proc.pid):
            time.sleep(0.1)
            return proc
        time.sleep(0.02)
    proc.kill()
    raise AssertionError(f"mapkit never got busy: {proc.communicate()}")


def _drawing_pdf(pid: int) -> bool:
    return "libcairo" in Path(f"/proc/{pid}/maps").read_text()


@pytest.mark.parametrize("sig", [signal.SIGINT], ids=["SIGINT"])  # SIGTERM: simulate below
def test_interrupted_pdf_pad_exits_cleanly(tmp_path, sig):
    args = ["render", "berlin", "--pdf", "--copies", "500", "-o", "pad.pdf"]
    proc = _start(args, tmp_path, _drawing_pdf)
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, err
    assert b"Traceback" not in err and b"interrupted" in err
    assert list(tmp_path.iterdir()) == []  # no pad.pdf, no .pad.pdf.*.tmp


@pytest.mark.parametrize(
    ("sig", "send"),
    [(signal.SIGINT, os.killpg), (signal.SIGTERM, os.kill)],
    ids=["Ctrl-C: SIGINT to the process group", "kill: SIGTERM to the process"],
)
def test_interrupted_simulate_leaves_no_records_and_no_temporary_folder(tmp_path, sig, send):
    """With a pool of workers (--jobs 2), stopped as a terminal or `kill` stops it."""
    shutil.copy(MINI, tmp_path / "mini.json")
    args = ["simulate", "mini.json", "-n", "200000", "--bots", "random", "-j", "2"]
    proc = _start([*args, "--records", "games"], tmp_path,
                  lambda _pid: any(tmp_path.glob(".games.*.tmp/*.json")))  # fmt: skip
    send(proc.pid, sig)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, err
    assert b"Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mini.json"]


# -- unwritable outputs are found before the work, exit 2 everywhere --------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["render", "{map}", "-o", "{bad}/x.svg"],
        ["simulate", "{map}", "-n", "1", "--heatmap", "{bad}/x.svg"],
        ["simulate", "{map}", "-n", "1", "--records", "{map}"],
        ["play", "{map}", "--no-human", "--bots", "random", "--record", "{bad}/x.json"],
    ],
    ids=["render", "heatmap", "records", "play"],
)
def test_unwritable_output_is_exit_2_before_any_work(mini, tmp_path, args):
    bad = tmp_path / "missing"
    res = runner.invoke(app, [a.format(map=mini, bad=bad) for a in args])
    assert res.exit_code == 2, res.output
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("mapkit: ")
    assert "=== Round" not in res.stdout and "games" not in res.stdout


def test_unwritable_folder_is_found_before_the_work(mini, tmp_path, monkeypatch):
    import tempfile

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)
    for args in (
        ["render", str(mini), "-o", str(tmp_path / "x.svg")],
        ["play", str(mini), "--no-human", "--bots", "random", "--record", str(tmp_path / "g")],
        ["simulate", str(mini), "-n", "1", "--heatmap", str(tmp_path / "h.svg")],
    ):
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)
        assert "cannot write in the folder of" in res.stderr
        assert "=== Round" not in res.stdout


# -- the format follows the name ------------------------------------------------------------


def test_output_suffix_sets_the_format(mini, tmp_path):
    out = tmp_path / "sheet.pdf"
    res = runner.invoke(app, ["render", str(mini), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes().startswith(b"%PDF-")
    out = tmp_path / "sheet.png"
    assert runner.invoke(app, ["render", str(mini), "-o", str(out)]).exit_code == 0
    assert out.read_bytes().startswith(b"\x89PNG")


def test_output_suffix_that_contradicts_the_flag_is_refused(mini, tmp_path):
    res = runner.invoke(app, ["render", str(mini), "--png", "-o", str(tmp_path / "x.svg")])
    assert res.exit_code == 2
    assert "names a SVG file but --png asks for PNG" in res.stderr
    assert list(tmp_path.glob("x.*")) == []


def test_output_naming_a_missing_folder_is_an_error(mini, tmp_path):
    res = runner.invoke(app, ["render", str(mini), "-o", str(tmp_path / "nofolder") + "/"])
    assert res.exit_code == 2
    assert "the folder" in res.stderr and "does not exist" in res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mini.json"]


@pytest.mark.parametrize(("suffix", "magic"), [(".png", b"\x89PNG")])  # PDF: the same path
def test_heatmap_format_follows_its_name(mini, tmp_path, suffix, magic):
    out = tmp_path / f"heat{suffix}"
    res = runner.invoke(app, ["simulate", str(mini), "-n", "3", "--heatmap", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes().startswith(magic)


def test_heatmap_with_an_unknown_suffix_is_refused(mini, tmp_path):
    res = runner.invoke(app, ["simulate", str(mini), "-n", "3", "--heatmap", str(tmp_path / "h")])
    assert res.exit_code == 2 and "name a .svg, .pdf or .png file" in res.stderr


# -- paths: one line, exit 2, in every command ----------------------------------------------


def _path_cases(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "loop-a").symlink_to(tmp_path / "loop-b")
    (tmp_path / "loop-b").symlink_to(tmp_path / "loop-a")
    return {
        "too long": "x" * 300,
        "empty": "",
        "folder": str(tmp_path),
        "symlink loop": str(tmp_path / "loop-a"),
        "missing": str(tmp_path / "nope.json"),
    }


COMMANDS = {
    "validate": ["validate", "{p}"],
    "intersections": ["intersections", "{p}"],
    "render": ["render", "{p}"],
    "simulate": ["simulate", "{p}", "-n", "1"],
    "play": ["play", "{p}"],
    "replay record": ["replay", "{p}", "--map", str(MINI)],
    "replay map": ["replay", str(ROOT / "examples/games/01-solo-mini.json"), "--map", "{p}"],
    "render record": ["render", str(MINI), "--record", "{p}", "--player", "ana"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_bad_paths_get_one_line_and_exit_2(tmp_path, command):
    for what, path in _path_cases(tmp_path).items():
        args = [a.replace("{p}", path) for a in COMMANDS[command]]
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (what, res.output)
        assert res.exception is None or isinstance(res.exception, SystemExit), what
        assert res.stderr.startswith("mapkit: ") and res.stderr.count("\n") == 1, (what, res.stderr)
        for p in tmp_path.glob("loop-*"):
            p.unlink()


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("x" * 300 + ".svg", "the file name is too long"),
        ("", "the output file name is empty"),
        ("{tmp}/loop-a", "too many levels of symbolic links"),
        ("{tmp}/file.txt/x.svg", "is not a folder"),
    ],
    ids=["too long", "empty", "symlink loop", "below a file"],
)
def test_bad_output_paths_get_one_line_and_exit_2(mini, tmp_path, out, message):
    (tmp_path / "loop-a").symlink_to(tmp_path / "loop-b")
    (tmp_path / "loop-b").symlink_to(tmp_path / "loop-a")
    (tmp_path / "file.txt").write_text("")
    res = runner.invoke(app, ["render", str(mini), "-o", out.format(tmp=tmp_path)])
    assert res.exit_code == 2, res.output
    assert message in res.stderr and res.stderr.count("\n") == 1


def test_unreadable_map_is_exit_2(mini, monkeypatch):
    import builtins

    real_open = builtins.open

    def guarded(file, *a, **k):
        if str(file) == str(mini):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *a, **k)

    monkeypatch.setattr(builtins, "open", guarded)
    for args in (["validate", str(mini)], ["render", str(mini)], ["play", str(mini)]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2, res.output
        assert "permission denied" in res.stderr


def test_check_output_names_the_problem():
    with pytest.raises(OutputError, match="empty"):
        check_output("")
