"""Play-tests for the studio, run in a worker process so drawing never waits on them.

The functions here run in the worker: they receive the map as text (models do not
pickle) and return plain JSON data: the report ``mapkit simulate --format json``
prints, and the shipped cities' mean scores under the same settings, measured
rather than copied so the comparison is always like for like.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_GAMES = 5000


@dataclass(frozen=True)
class PlaytestConfig:
    games: int = 200
    bots: tuple[str, ...] = ("greedy",)
    seed: int = 1

    @classmethod
    def from_request(cls, body: Any) -> PlaytestConfig:
        """Read ``{"games", "bots", "seed"}``; ValueError with a message for bad values."""
        from mapkit.engine.seats import PLAYER_RANGE
        from mapkit.simulate.runner import check_seating

        if not isinstance(body, dict):
            raise ValueError('expected a JSON object like {"games": 200, "bots": ["greedy"]}')
        games = body.get("games", cls.games)
        bots = body.get("bots", list(cls.bots))
        seed = body.get("seed", cls.seed)
        if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
            raise ValueError(f"games must be a whole number from 1 to {MAX_GAMES}")
        if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
            raise ValueError(f"bots must be a list of {PLAYER_RANGE} bot names, one per seat")
        check_seating(bots)  # the runner's rule: a known bot in each of 1 to 6 seats
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed must be a whole number")
        return cls(games, tuple(bots), seed)


def run_report(text: str, cfg: PlaytestConfig) -> dict[str, Any]:
    """The ``mapkit simulate --format json`` report for the map ``text``."""
    from mapkit.mapfile import load_source

    result = load_source(text)
    city = result.map
    if city is None:
        first = result.errors[0] if result.errors else None
        why = f": {first.code} {first.message}" if first else ""
        raise ValueError(f"the map is not playable yet{why}")
    report = _play(city, cfg)
    report["apply_points"], report["apply_settled"] = settled_points(text, report, cfg)
    return report


SETTLE_ROUNDS = 4
"""Play-tests at most, beyond the first, to find points that stay put when applied."""


def _play(city: Any, cfg: PlaytestConfig) -> dict[str, Any]:
    from mapkit.simulate import RunConfig, run, summarize
    from mapkit.simulate.report import to_dict

    games = RunConfig(bots=cfg.bots, games=cfg.games, seed=cfg.seed)
    return to_dict(summarize(city, run(city, games), seed=cfg.seed))


def _with_points(text: str, points: dict[str, dict[str, int]]) -> str:
    import json

    from mapkit.mapfile import writer

    doc = json.loads(text)
    for ln in doc.get("lines", []):
        if isinstance(ln, dict) and ln.get("id") in points:
            ln["points"] = dict(points[ln["id"]])
    return writer.dumps(doc)


def settled_points(
    text: str, report: dict[str, Any], cfg: PlaytestConfig
) -> tuple[dict[str, dict[str, int]], bool]:
    """Points to apply that a play-test with the same settings suggests again (and whether
    they settled within SETTLE_ROUNDS).

    The bots value bonuses, so new points change the games and with them the next
    suggestion; the map with the points applied is played again until the suggestion
    repeats. So "use all" followed by another run with the same seed suggests the same.
    """
    import json

    from mapkit.mapfile import load_source

    points = points_to_apply(text, report)
    printed = {
        ln.get("id"): ln.get("points")
        for ln in json.loads(text).get("lines", [])
        if isinstance(ln, dict)
    }
    for _ in range(SETTLE_ROUNDS):
        if all(printed.get(lid) == p for lid, p in points.items()):
            return points, True
        applied = _with_points(text, points)
        city = load_source(applied).map
        if city is None:
            return points, False
        again = points_to_apply(applied, _play(city, cfg))
        if again == points:
            return points, True
        points = again
    return points, False


def points_to_apply(text: str, report: dict[str, Any]) -> dict[str, dict[str, int]]:
    """The report's suggested points, made safe to apply: no warning the map lacks now.

    Suggestions follow measured difficulty, DES005 counts stops and the completion chance;
    where they disagree (a longer line would pay less than a shorter one), the longer line's
    ``first`` is raised to the shorter lines' largest, and a line whose suggestion still
    brings a new problem keeps its printed points. ``validate`` decides, so what the page
    applies is exactly what the problems list then shows.
    """
    import copy
    import json

    from mapkit.checks import validate_source
    from mapkit.mapfile import writer

    doc = json.loads(text)
    lines = [ln for ln in doc.get("lines", []) if isinstance(ln, dict)]
    index = {ln.get("id"): i for i, ln in enumerate(lines)}
    printed = {ln["id"]: dict(ln.get("points") or {}) for ln in lines}
    points = {
        r["line"]: {"first": r["suggested"]["first"], "others": r["suggested"]["others"]}
        for r in report["lines"]
        if r["line"] in index
    }

    def problems(pts: dict[str, dict[str, int]]) -> set[tuple[str, str]]:
        cand = copy.deepcopy(doc)
        for lid, p in pts.items():
            cand["lines"][index[lid]]["points"] = dict(p)
        found = validate_source(writer.dumps(cand), draft=True).diagnostics
        return {(d.code, d.pointer) for d in found}

    before = problems({})
    stops = {ln["id"]: len(ln.get("stops", [])) for ln in lines}
    for _ in range(len(points) + 1):
        new = problems(points) - before
        if not new:
            return points
        for code, pointer in new:
            lid = next((k for k, i in index.items() if pointer.startswith(f"/lines/{i}/")), None)
            if code != "DES005" or lid not in points:
                continue
            shorter = [points[k]["first"] for k in points if stops[k] < stops[lid]]
            points[lid]["first"] = max([points[lid]["first"], *shorter])
    for _code, pointer in problems(points) - before:
        for lid, i in index.items():
            if pointer.startswith(f"/lines/{i}/") and lid in points and printed[lid]:
                points[lid] = printed[lid]
    return points


def shipped_means(cfg: PlaytestConfig) -> list[dict[str, Any]]:
    """Seat 1's mean score on each shipped city, with the same bots, games and seed."""
    from mapkit.mapfile import load_map
    from mapkit.resources import shipped_maps
    from mapkit.simulate import RunConfig, simulate

    out = []
    for path in shipped_maps():
        city = load_map(path)
        outcomes = simulate(city, RunConfig(bots=cfg.bots, games=cfg.games, seed=cfg.seed))
        mean = sum(g.seats[0].score for g in outcomes) / len(outcomes)
        out.append({"id": city.id, "name": city.name, "mean": round(mean, 2)})
    return out


class PlaytestStopped(Exception):
    """The play-test process ended (killed, or the server is stopping) before answering."""


def _serve(conn: Any, parent: int) -> None:
    """The play-test process: run each ``(fn, args)`` it is sent and send back the result.

    The process has a session of its own (``Worker._start``), so a terminal's Ctrl-C does not
    reach it; SIGINT sent to it alone is ignored too: the server decides. The kernel kills the
    process as soon as the server is gone, however it went (kill -9 too), so no play-test
    outlives it: ``die_with_parent`` arms ``PR_SET_PDEATHSIG``, a signal that needs no
    thread of ours. (A watchdog thread here could not run while a kernel batch, compiled code
    that holds the GIL for seconds, plays; it is only the fallback where prctl is missing.)
    """
    import signal

    from mapkit.workers import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply = ("ok", fn(*args))
        except Exception as exc:  # sent back to the server, which answers the request with it
            reply = ("error", exc)
        conn.send(reply)


def _child(fd: int, parent: int) -> None:
    """The play-test process's entry point (``Worker._start``)."""
    from multiprocessing.connection import Connection

    _serve(Connection(fd), parent)


class Worker:
    """One play-test process (started on first use), its jobs one at a time, and a cache
    of the reference figures. ``close`` kills the process: a running play-test stops."""

    def __init__(self) -> None:
        self._proc: Any = None
        self._conn: Any = None
        self._lock = threading.Lock()
        self._jobs: Any = None
        self.references: dict[PlaytestConfig, list[dict[str, Any]]] = {}

    @property
    def pid(self) -> int | None:
        proc = self._proc
        return proc.pid if proc is not None else None

    def _start(self) -> None:
        """Start the process in a session of its own: a terminal's Ctrl-C (sent to the
        foreground process group) never reaches it, not even while it is still starting;
        the server ends it. It talks pickles over a socket pair. Called only from the one
        job thread (``submit``), which lives as long as the worker: the kernel's parent-death
        signal fires when the *thread* that started the process ends, not the server."""
        import os
        import socket
        import subprocess
        import sys
        from multiprocessing.connection import Connection

        ours, theirs = socket.socketpair()
        fd = theirs.fileno()
        code = f"from mapkit.studio.playtest import _child; _child({fd}, {os.getpid()})"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", code],
                pass_fds=[fd],
                start_new_session=True,
                stdin=subprocess.DEVNULL,
                env=env,
            )
        finally:
            theirs.close()
        self._conn = Connection(ours.detach())

    def _run(self, fn: Callable[..., Any], args: tuple) -> Any:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._start()
            conn = self._conn
        try:
            conn.send((fn, args))
            kind, value = conn.recv()
        except (EOFError, OSError):
            self.kill()
            raise PlaytestStopped() from None
        if kind == "error":
            raise value
        return value

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` in the play-test process; a ``concurrent.futures.Future``."""
        import concurrent.futures

        with self._lock:
            if self._jobs is None:
                self._jobs = concurrent.futures.ThreadPoolExecutor(1, "studio-playtest")
            return self._jobs.submit(self._run, fn, args)

    def kill(self) -> None:
        """Kill the process now (safe in a signal handler: no lock, no wait)."""
        proc = self._proc
        if proc is not None and proc.returncode is None:
            import contextlib
            import os
            import signal

            with contextlib.suppress(OSError):
                os.kill(proc.pid, signal.SIGKILL)

    def close(self) -> None:
        self.kill()
        with self._lock:
            proc, self._proc = self._proc, None
            jobs, self._jobs = self._jobs, None
        if proc is not None:
            proc.wait(5)
        if jobs is not None:
            jobs.shutdown(wait=False, cancel_futures=True)
