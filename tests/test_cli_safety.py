"""Issue 21, the command line: a full disk, signals, absurd options, pipes, text cairo refuses,
work without end, record folders on odd file systems, outputs that would destroy, play.

Each test is one attack class of the issue, bounded to a few seconds. The full-disk tests
mount a 200 KiB tmpfs (the suite runs as root); where mounting is refused they fall back to
a write that fails with ENOSPC (the same error, injected), and say so in the test id.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit.cli import app
from mapkit.mapfile import load_map

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "examples" / "games" / "maps" / "mini.json"
runner = CliRunner()
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


TUNE_AT_ONCE = ["tune", "{map}", "--per-line", "-n", "4", "--steps", "0", "--decision-games", "0"]


@pytest.fixture
def mini(tmp_path) -> Path:
    path = tmp_path / "mini.json"
    shutil.copy(MINI, path)
    return path


def _one_line(res, code: int) -> None:
    assert res.exit_code == code, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.stderr.startswith("mapkit: ") and res.stderr.count("\n") == 1, res.stderr


# -- a full disk ----------------------------------------------------------------------------


@contextlib.contextmanager
def _tmpfs(where: Path, size: str = "200k", *options: str):
    where.mkdir(exist_ok=True)
    opts = ",".join([f"size={size}", *options])
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(where)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@pytest.fixture
def tiny_disk(tmp_path):
    with _tmpfs(tmp_path / "tiny") as disk:
        yield disk


def _fill(disk: Path, leave_kib: int) -> None:
    """Fill ``disk`` until about ``leave_kib`` KiB are free."""
    st = os.statvfs(disk)
    free = st.f_bavail * st.f_frsize
    (disk / "fill").write_bytes(bytes(max(0, free - leave_kib * 1024)))


def test_simulate_records_on_a_full_disk_is_one_line_and_leaves_nothing(mini, tiny_disk):
    res = runner.invoke(
        app,
        [
            "simulate",
            str(mini),
            "-n",
            "2000",
            "--bots",
            "random",
            "--records",
            str(tiny_disk / "g"),
        ],
    )
    _one_line(res, 1)
    assert "cannot write the records in" in res.stderr and "No space left on device" in res.stderr
    assert os.listdir(tiny_disk) == []


def test_a_sheet_too_big_for_the_disk_fails_at_write_time_in_one_line(mini, tiny_disk):
    """The trial write passes (there is room for it), the PNG does not fit."""
    _fill(tiny_disk, 80)  # the trial write is 64 KiB; the sheet at 300 dpi is 138 KiB
    out = tiny_disk / "sheet.png"
    res = runner.invoke(app, ["render", str(mini), "--png", "--dpi", "300", "-o", str(out)])
    _one_line(res, 1)
    assert "No space left on device" in res.stderr
    assert os.listdir(tiny_disk) == ["fill"]


@pytest.mark.parametrize(
    "args",
    [
        ["report", "{map}", "-n", "2", "--no-scale", "-o", "{disk}/r.txt"],
        ["tune", "{map}", "--per-line", "-n", "4", "--steps", "0", "-o", "{disk}/t.json"],
        ["tune", "{map}", "--per-line", "--report", "{disk}/r.json", "-o", "{tmp}/t.json"],
        ["render", "{map}", "-o", "{disk}/x.svg"],
        ["simulate", "{map}", "-n", "2", "--heatmap", "{disk}/h.svg"],
        ["simulate", "{map}", "-n", "2", "--records", "{disk}/games"],
        ["play", "{map}", "--no-human", "--bots", "random", "--record", "{disk}/g.json"],
    ],
    ids=["report -o", "tune -o", "tune --report", "render", "heatmap", "records", "play"],
)
def test_a_full_disk_is_found_before_the_work(mini, tiny_disk, tmp_path, args):
    """The disk-full check writes a real trial (an empty file would pass on a full disk)."""
    _fill(tiny_disk, 40)
    res = runner.invoke(app, [a.format(map=mini, disk=tiny_disk, tmp=tmp_path) for a in args])
    _one_line(res, 2)
    assert "No space left on device" in res.stderr
    assert "=== Round" not in res.stdout and "tune: " not in res.stderr
    assert os.listdir(tiny_disk) == ["fill"]


@pytest.mark.parametrize(
    "args",
    [
        ["report", "{map}", "-n", "2", "--no-scale", "--tension-games", "1", "-o", "{tmp}/r.txt"],
        [*TUNE_AT_ONCE, "--partial", "-o", "{tmp}/t.json"],
    ],
    ids=["report -o", "tune -o"],
)
def test_enospc_at_write_time_is_one_line_and_exit_1_injected(mini, tmp_path, monkeypatch, args):
    """ENOSPC injected into the final write (after the trial passed), as a disk filling up
    during the run gives it."""
    import mapkit.atomic

    def full(_fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(mapkit.atomic.os, "fsync", full)
    res = runner.invoke(app, [a.format(map=mini, tmp=tmp_path) for a in args])
    assert res.exit_code == 1, res.output
    assert res.stderr.splitlines()[-1].startswith("mapkit: cannot write ")
    assert "No space left on device" in res.stderr and "Traceback" not in res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mini.json"]


# -- signals --------------------------------------------------------------------------------


def _session(pid: int) -> list[int]:
    """The live processes of the session ``pid`` leads (the command and its workers)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[3]) == pid and fields[0] != "Z":
                out.append(int(entry))
    return out


def _spawn(args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "mapkit", *args],
        cwd=cwd,
        env=ENV,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _wait_for(test, proc: subprocess.Popen, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and proc.poll() is None:
        if test():
            return
        time.sleep(0.02)
    proc.kill()
    raise AssertionError(f"never happened: {proc.communicate()}")


def _gone(pids: list[int], seconds: float = 10) -> list[int]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        alive = [p for p in pids if Path(f"/proc/{p}").exists() and "Z" not in _state(p)]
        if not alive:
            return []
        time.sleep(0.05)
    for p in alive:
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGKILL)
    return alive


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


@pytest.mark.parametrize(
    "args",
    [
        [
            "simulate",
            "mini.json",
            "-n",
            "3000000",
            "--bots",
            "random",
            "-j",
            "2",
            "--records",
            "games",
        ],
        ["tune", "berlin", "--per-line", "-n", "200", "-j", "2", "--steps", "50", "-o", "t.json"],
    ],
    ids=["simulate", "tune"],
)
def test_sigkill_leaves_no_orphan_worker_and_the_next_run_cleans_up(tmp_path, args):
    shutil.copy(MINI, tmp_path / "mini.json")
    proc = _spawn(args, tmp_path)
    _wait_for(lambda: len(_session(proc.pid)) >= 3, proc)  # the command and two workers
    workers = [p for p in _session(proc.pid) if p != proc.pid]
    proc.kill()
    proc.communicate(timeout=30)
    assert _gone(workers) == []
    if args[0] == "simulate":
        stale = [p.name for p in tmp_path.iterdir() if p.name.startswith(".games.")]
        assert len(stale) == 1  # SIGKILL runs no cleanup ...
        args = ["simulate", str(tmp_path / "mini.json"), "-n", "2", "--bots", "random"]
        res = runner.invoke(app, [*args, "--records", str(tmp_path / "games")])
        assert res.exit_code == 0, res.output
        assert sorted(p.name for p in tmp_path.iterdir()) == [
            "games",
            "mini.json",
        ]  # ... the next run does


@pytest.mark.parametrize(
    ("sig", "when"),
    [(signal.SIGINT, "running"), (signal.SIGINT, "starting"), (signal.SIGTERM, "starting")],
    ids=["SIGINT", "SIGINT-starting", "SIGTERM-starting"],
)
def test_tune_on_dask_stops_with_no_orphan_and_no_traceback(tmp_path, sig, when):
    """Once the cluster works (the first measurement printed), or to the whole process group
    (a terminal's Ctrl-C) while it starts (the resource tracker is up: the workers are being
    spawned); the workers were started not hearing SIGINT, and the command stops them."""
    pytest.importorskip("distributed")
    args = [
        "tune",
        "berlin",
        "--per-line",
        "-n",
        "200",
        "--engine",
        "dask",
        "-j",
        "2",
        "--steps",
        "50",
        "-o",
        "t.json",
    ]
    proc = _spawn(args, tmp_path)
    assert proc.stderr is not None
    seen = []
    if when == "starting":
        _wait_for(lambda: len(_session(proc.pid)) >= 2, proc)
        os.killpg(proc.pid, sig)
        _out, err = proc.communicate(timeout=90)
        everyone = _session(proc.pid)
    else:
        for line in proc.stderr:
            seen.append(line)
            if line.startswith(b"tune: start:"):
                break
        everyone = _session(proc.pid)
        assert len(everyone) >= 3, everyone  # the command and two Dask workers at least
        os.kill(proc.pid, sig)
        _out, err = proc.communicate(timeout=60)
    err = b"".join(seen) + err
    assert proc.returncode == 128 + sig, err
    assert _gone(everyone) == []
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert not (tmp_path / "t.json").exists()


def _catches_sigterm(pid: int) -> bool:
    """mapkit's first code has run: it catches SIGTERM (Python alone does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = int(status.split("SigCgt:")[1].split()[0], 16)
    return bool(caught >> (signal.SIGTERM - 1) & 1)


@pytest.mark.parametrize(
    ("args", "delay"),
    [
        (["tune", "mini.json", "--per-line", "-o", "t.json"], 0.0),
        (["report", "mini.json"], 0.15),
        (["compare", "mini.json", "mini.json"], 0.3),
    ],
    ids=["tune", "report", "compare"],
)
def test_ctrl_c_while_starting_prints_no_traceback(tmp_path, args, delay):
    """From mapkit's first line of code on (Python's own start-up comes before it)."""
    shutil.copy(MINI, tmp_path / "mini.json")
    proc = _spawn(args, tmp_path)
    _wait_for(lambda: _catches_sigterm(proc.pid), proc)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and err.decode().strip().startswith("mapkit: ")


def test_sigint_during_simulate_records_exits_130_and_leaves_the_folder(tmp_path):
    """Ctrl-C to the process group, with one process (the pool case: test_outputs.py)."""
    shutil.copy(MINI, tmp_path / "mini.json")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "notes.txt").write_text("mine")
    args = ["simulate", "mini.json", "-n", "3000000", "--bots", "random", "--records", "games"]
    proc = _spawn(args, tmp_path)
    _wait_for(lambda: any((tmp_path / "games").glob(".games.*.tmp/*.json")), proc)
    os.killpg(proc.pid, signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert os.listdir(tmp_path / "games") == ["notes.txt"]


# -- absurd options -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["simulate", "{map}", "--games", "99999999999999999999999999"],
            "--games must be from 1 to 1,000,000,000, not 9999999999...(26 digits)",
        ),
        (
            ["simulate", "{map}", "--games", str(10**11)],
            "--games must be from 1 to 1,000,000,000, not 100000000000",
        ),
        (["simulate", "{map}", "--games", "-3"], "--games must be from 1 to 1,000,000,000, not -3"),
        (["simulate", "{map}", "--time-limit", "nan"], "--time-limit must be seconds above 0"),
        (["report", "{map}", "--games", str(10**12)], "--games must be from 2 to 1,000,000,000"),
        (
            ["report", "{map}", "--threshold", "nan"],
            "--threshold must be a number from 0 to 1000, not nan",
        ),
        (
            ["report", "{map}", "--threshold", "inf"],
            "--threshold must be a number from 0 to 1000, not inf",
        ),
        (
            ["report", "{map}", "--decision-games", "10000000000"],
            "--decision-games must be from 1 to",
        ),
        (["compare", "{map}", "{map}", "--games", str(10**10)], "--games must be from 2 to"),
        (
            ["tune", "{map}", "-o", "{tmp}/t.json", "--mean", "1e308"],
            "--mean must be a number from 0 to 10000, not 1e+308",
        ),
        (
            ["tune", "{map}", "-o", "{tmp}/t.json", "--mean", "nan"],
            "--mean must be a finite number, not nan",
        ),
        (
            ["tune", "{map}", "-o", "{tmp}/t.json", "--max-luck", "inf"],
            "--max-luck must be a finite number, not inf",
        ),
        (
            ["tune", "{map}", "-o", "{tmp}/t.json", "--min-decisions", "-inf"],
            "--min-decisions must be a finite number, not -inf",
        ),
        (
            ["tune", "{map}", "-o", "{tmp}/t.json", "--per-line", "--steps", "10000000"],
            "--steps must be from 0 to 1000",
        ),
        (
            ["tune", "{map}", "-o", "{tmp}/t.json", "--per-line", "--cluster", "not-a-url"],
            "--cluster 'not-a-url' is not a scheduler address",
        ),
        (
            ["tune", "{map}", "-o", "{tmp}/t.json", "--per-line", "--cluster", "tcp://[::1"],
            "--cluster 'tcp://[::1' is not a scheduler address",
        ),
        (
            ["tune", "{map}", "-o", "{tmp}/t.json", "--per-line", "--cluster", "inproc://x"],
            "--cluster 'inproc://x' is not a scheduler address",
        ),
        (
            ["tune", "{map}", "-o", "{tmp}/t.json", "--per-line", "--cluster", "tcp://h:99999"],
            "is not a scheduler address",
        ),
        (["simulate", "{map}", "--records", ""], "the output folder name is empty"),
    ],
)
def test_absurd_options_are_one_line_and_exit_2(mini, tmp_path, args, message):
    res = runner.invoke(app, [a.format(map=mini, tmp=tmp_path) for a in args])
    _one_line(res, 2)
    assert message in res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mini.json"]


def test_a_good_cluster_address_passes_the_check():
    from mapkit.cli.options import cluster_address

    for address in ("tcp://127.0.0.1:8786", "tls://[::1]:8786", "scheduler:8786"):
        assert cluster_address(address) == address


def test_jobs_beyond_the_cores_are_capped_with_a_note(mini):
    from mapkit.workers import cores

    res = runner.invoke(
        app, ["simulate", str(mini), "-n", "3", "--bots", "random", "--jobs", "1000"]
    )
    assert res.exit_code == 0, res.output
    assert res.stderr == f"mapkit: --jobs 1000 capped at {cores()}, the cores here\n"


def test_a_pool_whose_result_queue_is_left_locked_still_stops() -> None:
    """A worker killed inside a ``put`` leaves the result queue's lock taken, and
    ``Pool.terminate`` waits for it for ever; ``workers.stop`` returns, its workers dead."""
    from mapkit import workers

    pool = workers.pool(2)
    procs = list(pool._pool)
    pool._outqueue._wlock.acquire()  # as the killed worker left it
    start = time.monotonic()
    workers.stop(pool)
    assert time.monotonic() - start < 3 * workers.STOP_SECONDS
    assert all(p.exitcode is not None for p in procs)


def test_a_billion_games_allocate_nothing_up_front_and_stop_at_the_time_limit(tmp_path):
    shutil.copy(MINI, tmp_path / "mini.json")
    args = [
        "simulate",
        "mini.json",
        "-n",
        str(10**9),
        "--bots",
        "random",
        "-j",
        "2",
        "--time-limit",
        "1.5",
    ]
    proc = _spawn(args, tmp_path)
    peak = 0
    end = time.monotonic() + 60
    while proc.poll() is None:
        with contextlib.suppress(OSError, IndexError):
            status = Path(f"/proc/{proc.pid}/status").read_text()
            peak = max(peak, int(status.split("VmHWM:")[1].split()[0]))
        if time.monotonic() > end:  # a pool that never stops (workers.stop) fails, not hangs
            proc.kill()
            pytest.fail("simulate did not end 60 s after its 1.5 s time limit")
        time.sleep(0.05)
    _out, err = proc.communicate()
    assert proc.returncode == 1, err
    assert (
        err.decode().strip() == "mapkit: stopped at the --time-limit of 1.5 s; nothing was written"
    )
    assert peak < 200 * 1024  # KiB: the 4.3 GB of issue 21 was a list of every chunk


# -- pipes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "{fifo}"],
        ["replay", "{fifo}", "--map", str(MINI)],
        ["replay", str(ROOT / "examples/games/01-solo-mini.json"), "--map", "{fifo}"],
        ["render", "{fifo}"],
        ["simulate", "{fifo}", "-n", "1"],
        ["play", "--resume", "{fifo}"],
    ],
    ids=["validate", "replay record", "replay map", "render", "simulate", "resume"],
)
def test_a_fifo_with_no_writer_is_refused_at_once(tmp_path, args):
    fifo = tmp_path / "map.json"
    os.mkfifo(fifo)

    def unblock() -> None:  # a regression would block for ever: end it after 5 s
        time.sleep(5)
        with contextlib.suppress(OSError):
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)

    threading.Thread(target=unblock, daemon=True).start()
    start = time.monotonic()
    res = runner.invoke(app, [a.format(fifo=fifo) for a in args])
    assert time.monotonic() - start < 4
    _one_line(res, 2)
    assert "a named pipe with no writer (nothing to read)" in res.stderr


def test_a_pipe_with_a_writer_is_read():
    from mapkit.mapfile import read_limited

    r, w = os.pipe()
    threading.Thread(target=lambda: (time.sleep(0.2), os.write(w, b"{}"), os.close(w))).start()
    try:
        assert read_limited(f"/proc/self/fd/{r}") == b"{}"
    finally:
        os.close(r)


# -- text cairo refuses -----------------------------------------------------------------------


NONCHARACTERS = "\ufdd0 \uffff \U0010ffff"


@pytest.fixture
def nonchar_map(tmp_path) -> Path:
    doc = json.loads(MINI.read_text())
    doc["name"] = f"Mini {NONCHARACTERS}"
    doc["stations"][0]["name"] = "Stop \uffff"
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_map_with_noncharacters_validates(nonchar_map):
    assert runner.invoke(app, ["validate", str(nonchar_map)]).exit_code == 0


@pytest.mark.parametrize("fmt", ["--pdf", "--png"])
def test_noncharacters_are_drawn_as_replacement_characters_with_a_warning(nonchar_map, fmt):
    res = runner.invoke(app, ["render", str(nonchar_map), fmt, "--labels"])
    assert res.exit_code == 0, res.output
    assert "mapkit: warning: " in res.stderr and "U+10FFFF, U+FDD0" in res.stderr
    assert "drawn as U+FFFD" in res.stderr


def test_heatmap_of_a_map_with_noncharacters(nonchar_map, tmp_path):
    out = tmp_path / "heat.png"
    res = runner.invoke(app, ["simulate", str(nonchar_map), "-n", "2", "--heatmap", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes().startswith(b"\x89PNG") and "drawn as U+FFFD" in res.stderr


def test_cairo_safe_replaces_every_noncharacter_and_lone_surrogate():
    from mapkit.render.export import UndrawableText, cairo_safe

    bad = ["\ud800", "\udfff", "\ufdd0", "\ufdef", "\ufffe", "\uffff", "\U0001fffe", "\U0010ffff"]
    good = "Zoo \ufffd \ue000 \U0001f687 \ufdf0"
    with pytest.warns(UndrawableText, match="8 character"):
        assert cairo_safe("".join(bad) + good) == "\ufffd" * 8 + good
    assert cairo_safe(good) == good


# -- work without end -----------------------------------------------------------------------


def test_report_on_a_map_at_the_schema_bounds_honours_the_time_limit(tmp_path):
    from tests.test_limits import _bounds_map

    (tmp_path / "bounds.json").write_text(json.dumps(_bounds_map()))
    start = time.monotonic()
    proc = _spawn(
        ["report", "bounds.json", "-n", "2", "--time-limit", "1", "-o", "r.txt", "--allow-invalid"],
        tmp_path,
    )
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    assert err.decode().strip().endswith("stopped at the --time-limit of 1 s; nothing was written")
    assert time.monotonic() - start < 20  # start-up and loading the map included
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bounds.json"]


# -- record folders ---------------------------------------------------------------------------


def _records(mini: Path, folder: str | Path, *extra: str):
    args = ["simulate", str(mini), "-n", "2", "--bots", "random", "--records", str(folder)]
    return runner.invoke(app, [*args, *extra])


def test_force_into_a_folder_on_another_file_system_replaces_the_run(mini, tiny_disk):
    """``tiny_disk`` is a mount point: its parent is another file system."""
    assert _records(mini, tiny_disk, "--seed", "1").exit_code == 0
    (tiny_disk / "notes.txt").write_text("mine")
    first = (tiny_disk / "mini-00001.json").read_text()
    res = _records(mini, tiny_disk, "--seed", "2", "--force")
    assert res.exit_code == 0, res.output
    assert sorted(os.listdir(tiny_disk)) == ["mini-00001.json", "mini-00002.json", "notes.txt"]
    assert (tiny_disk / "mini-00001.json").read_text() != first


def test_force_into_a_read_only_folder_is_refused_before_the_run(mini, tiny_disk):
    assert _records(mini, tiny_disk).exit_code == 0
    before = {p: p.read_bytes() for p in tiny_disk.iterdir()}
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_disk)], check=True)
    res = _records(mini, tiny_disk, "--force")
    _one_line(res, 2)
    assert "Read-only file system" in res.stderr and "games" not in res.stdout
    assert {p: p.read_bytes() for p in tiny_disk.iterdir()} == before


def test_records_into_a_dangling_symlink_are_refused(mini, tmp_path):
    (tmp_path / "games").symlink_to(tmp_path / "nowhere")
    res = _records(mini, tmp_path / "games", "--force")
    _one_line(res, 2)
    assert f"is a symlink to {tmp_path / 'nowhere'}, which does not exist" in res.stderr


def test_records_through_a_symlink_go_to_its_folder(mini, tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "games").symlink_to(tmp_path / "real")
    assert _records(mini, tmp_path / "games").exit_code == 0
    assert sorted(os.listdir(tmp_path / "real")) == ["mini-00001.json", "mini-00002.json"]
    assert (tmp_path / "games").is_symlink()


# -- outputs that would destroy -------------------------------------------------------------


def test_tune_output_and_report_naming_one_file_are_refused(mini, tmp_path):
    out = tmp_path / "x.json"
    res = runner.invoke(
        app, ["tune", str(mini), "--per-line", "-o", str(out), "--report", str(out)]
    )
    _one_line(res, 2)
    assert f"-o and --report both name {out}" in res.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["render", "{map}", "-o", "{other}"], "a sheet is a .svg, .pdf or .png file, not .json"),
        (["render", "{map}", "-o", "{tmp}/new.json"], "a sheet is a .svg, .pdf or .png file"),
        (["report", "{map}", "-o", "{other}"], "names a json file but the format is text"),
        (["report", "{map}", "-f", "json", "-o", "{other}"], "is a map file; refusing to replace"),
        (
            ["tune", "{map}", "--per-line", "-o", "{tmp}/t.json", "--report", "{other}"],
            "is a map file; refusing to replace it with a tuning report",
        ),
    ],
    ids=["render over a map", "render suffix", "report suffix", "report over a map", "tune"],
)
def test_an_output_that_would_replace_a_map_or_lie_about_its_format_is_refused(
    mini, tmp_path, args, message
):
    other = tmp_path / "other.json"
    shutil.copy(MINI, other)
    res = runner.invoke(app, [a.format(map=mini, other=other, tmp=tmp_path) for a in args])
    _one_line(res, 2)
    assert message in res.stderr
    assert other.read_bytes() == MINI.read_bytes()


# -- play -----------------------------------------------------------------------------------


def _interchange_state():
    """Mini with its lines renamed H and Q (Berlin and Madrid have a line H), dealt an
    interchange card."""
    from mapkit.engine import Game
    from mapkit.engine.cards import PLUS
    from mapkit.mapfile import load_source

    doc = json.loads(MINI.read_text())
    for line, new in zip(doc["lines"], "HQ", strict=False):
        line["id"] = new
    city = load_source(json.dumps(doc)).map
    assert city is not None and [ln.id for ln in city.lines] == ["H", "Q"]
    for seed in range(200):
        state = Game(city).new_initial_state(seed)
        state.deal()
        if state.card() == PLUS:
            return state
    raise AssertionError("no interchange card first in 200 seeds")


@pytest.mark.parametrize("typed", ["H", "h", "Q", "q"])
def test_a_line_letter_is_a_line_not_a_command(typed):
    from mapkit.play import ask_action

    state = _interchange_state()
    action = ask_action(state, lambda _prompt: typed, print)
    assert state.action_to_move(action)["line"] == typed.upper()


def test_help_and_quit_are_spelled_out():
    from mapkit.play import Quit, ask_action

    state = _interchange_state()
    answers = iter(["?", "help", "quit"])
    said: list[str] = []
    with pytest.raises(Quit):
        ask_action(state, lambda _prompt: next(answers), said.append)
    assert sum("How to answer:" in line for line in said) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--name", "n" * 41], "--name is 41 characters; a record holds names of at most 40"),
        (["--name", "a\tb"], "--name must be on one line"),
        (["--seed", str(2**64)], "--seed must be an integer from -2^63 to 2^64-1"),
        (["--seed", str(-(2**63) - 1)], "--seed must be an integer from -2^63 to 2^64-1"),
    ],
)
def test_play_refuses_what_a_record_cannot_hold_at_the_start(mini, tmp_path, args, message):
    out = tmp_path / "g.json"
    res = runner.invoke(app, ["play", str(mini), "--bots", "random", *args, "--record", str(out)])
    _one_line(res, 2)
    assert message in res.stderr and "=== Round" not in res.stdout and not out.exists()


def test_a_resumed_game_plays_the_bots_moves_of_the_game_played_straight_through(tmp_path):
    """Every round from round 5 on: the bots' randomness comes from the seed and the move
    number, not from a generator the resumed game would restart."""
    from mapkit import play
    from mapkit.engine.record import parse_record, record_from_history, to_json

    berlin = load_map(ROOT / "maps" / "berlin.json")
    straight = play.new_session(berlin, "random,greedy,lookahead", False, 5, False, "x")
    outcome = play.play(straight, input, lambda _line: None)  # bots only: nobody is asked
    assert (outcome.engine, [s.bot for s in outcome.seats]) == ("checked", straight.names)
    assert [s.score for s in outcome.seats] == straight.state.scores()
    whole = straight.state.history()
    walk = straight.game.new_initial_state(5)
    rounds, cut = 0, 0
    for i, action in enumerate(whole):
        if walk.is_chance_node():
            rounds += 1
            if rounds == 5:
                cut = i
        walk.apply_action(action)
    assert rounds >= 20
    saved = tmp_path / "part.json"
    saved.write_text(to_json(record_from_history(straight.game, whole[:cut], straight.names, 5)))
    again = play.resume_session(berlin, parse_record(saved.read_text()))
    play.play(again, input, lambda _line: None)
    assert again.state.history() == whole
