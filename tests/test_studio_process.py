"""``mapkit studio`` as a process: it stops on Ctrl-C and SIGTERM even during a play-test,
its play-test process dies with it (kill -9 too), a restart gets the same port, and a
device or an oversized file is refused at once."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = ROOT / "examples" / "minimal.json"
BERLIN = ROOT / "maps" / "berlin.json"


class Studio:
    """A ``mapkit studio`` process in its own session (as a terminal runs it)."""

    def __init__(self, path: Path, *args: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mapkit", "studio", str(path), "--no-browser", *args],
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=path.parent,
            start_new_session=True,
        )
        first = self.proc.stderr.readline() + self.proc.stderr.readline()
        found = re.search(r"(http://127\.0\.0\.1:(\d+)/)\?token=([\w-]+)", first)
        assert found, first + self.proc.stderr.read()
        self.base, port, self.token = found.groups()
        self.port = int(port)
        for _ in range(200):
            try:
                self.request("api/map")
                break
            except OSError:
                time.sleep(0.05)

    def request(self, route: str, body: object = None, timeout: float = 30) -> int:
        req = urllib.request.Request(
            self.base + route,
            data=None if body is None else json.dumps(body).encode(),
            headers={"X-Mapkit-Token": self.token, "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=timeout) as res:
                return res.status
        except urllib.error.HTTPError as exc:
            return exc.code

    def children(self) -> list[int]:
        """The processes whose parent is the server (the play-test worker)."""
        out = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = Path(f"/proc/{entry}/stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                    out.append(int(entry))
        return out

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture
def minimal(tmp_path) -> Path:
    shutil.copy(MINIMAL, tmp_path / "minimal.json")
    return tmp_path / "minimal.json"


@pytest.mark.parametrize(
    "sig, code",
    [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -9)],
    ids=["Ctrl-C", "SIGTERM", "kill -9"],
)
def test_a_play_test_never_outlives_the_server(tmp_path, sig, code):
    # Berlin, not the minimal map: 5000 lookahead games there last well past the kill on an
    # idle machine too (the minimal map's finish in about a second)
    shutil.copy(BERLIN, tmp_path / "berlin.json")
    studio = Studio(tmp_path / "berlin.json", "--port", "0")
    answers: list[int | str] = []

    def play() -> None:  # a play-test of a minute or more
        try:
            answers.append(studio.request("api/simulate", {"games": 5000, "bots": ["lookahead"]}))
        except OSError as exc:
            answers.append(type(exc).__name__)

    player = threading.Thread(target=play)
    try:
        player.start()
        deadline = time.monotonic() + 30
        while not studio.children() and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = studio.children()
        assert workers, "the play-test process did not start"
        time.sleep(1.0)  # playing now
        start = time.monotonic()
        if sig == signal.SIGKILL:
            os.kill(studio.proc.pid, sig)
        else:
            os.killpg(studio.proc.pid, sig)  # a terminal's Ctrl-C reaches the whole group
        assert studio.proc.wait(10) == code
        while any(_alive(p) for p in workers) and time.monotonic() < start + 5:
            time.sleep(0.05)
        assert not any(_alive(p) for p in workers), "the play-test process outlived the server"
        err = studio.proc.stderr.read()
        assert "Traceback" not in err
        if sig != signal.SIGKILL:
            assert err.strip() == f"mapkit: interrupted ({sig.name}); nothing half-written was left"
            assert time.monotonic() - start < 5
        player.join(10)
        assert answers and answers[0] != 200
    finally:
        studio.stop()


def test_a_restart_gets_the_same_port(minimal):
    first = Studio(minimal)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", first.port)  # kept alive, as browsers do
        conn.request("GET", "/api/map", headers={"X-Mapkit-Token": first.token})
        assert conn.getresponse().read()
        os.killpg(first.proc.pid, signal.SIGINT)
        assert first.proc.wait(10) == 130
        conn.close()
    finally:
        first.stop()
    again = Studio(minimal)  # right away: the old connection is in TIME_WAIT
    try:
        assert again.port == first.port and again.token != first.token
        assert again.request("api/map") == 200
    finally:
        again.stop()


@pytest.mark.parametrize(
    "make, code, message",
    [
        (lambda d: Path("/dev/zero"), 2, "/dev/zero is not a regular file"),
        (lambda d: _fifo(d / "pipe.json"), 2, "pipe.json is not a regular file (a device or a"),
        (lambda d: _big(d / "big.json"), 1, "the file holds more than 1048576 bytes"),
    ],
    ids=["device", "fifo", "over-1-MiB"],
)  # fmt: skip
def test_a_device_or_oversized_file_is_refused_at_once(tmp_path, make, code, message):
    path = make(tmp_path)
    start = time.monotonic()
    res = subprocess.run(
        [sys.executable, "-m", "mapkit", "studio", str(path), "--no-browser"],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert res.returncode == code and message in res.stderr and "Traceback" not in res.stderr
    assert res.stderr.count("\n") == 1
    assert time.monotonic() - start < 10


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _big(path: Path) -> Path:
    path.write_bytes(b'{"description": "' + b"x" * (2 << 20) + b'"}')
    return path
