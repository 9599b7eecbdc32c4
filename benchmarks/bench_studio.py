"""Speed of `mapkit studio`: an edit's round trip, and the whole process until it serves.

Targets (issue 11): an edit's round trip (PUT the map, then GET the diagnostics and the
sheet, as the page does after every edit) under 150 ms for the shipped cities; `mapkit
studio` ready to serve in under 1 s, whole process (spawn to the first answered request).

Both are measured against a real server process over HTTP (keep-alive, as a browser).
Each edit moves a different station to a fresh random spot (seeded per run from the clock
unless --seed is given), so no figure comes from a cache the same edit filled before.
Run: python benchmarks/bench_studio.py [--edits N] [--starts N] [--seed S]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CITIES = ("amsterdam", "berlin", "paris", "madrid")


TOKEN = {"X-Mapkit-Token": ""}
"""The running server's session token, sent with every request."""


def start_server(city: str) -> tuple[subprocess.Popen, int, float]:
    """Start `mapkit studio CITY` and wait until it answers; (process, port, seconds)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mapkit", "studio", city, "--no-browser", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    head = proc.stderr.readline() + proc.stderr.readline()
    found = re.search(r"127\.0\.0\.1:(\d+)/\?token=([\w-]+)", head)
    port, TOKEN["X-Mapkit-Token"] = int(found.group(1)), found.group(2)
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/map", headers=TOKEN)
            if conn.getresponse().status == 200:
                break
        except OSError:
            time.sleep(0.002)
    return proc, port, time.perf_counter() - t0


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(10)


def request(conn, method: str, url: str, body=None) -> tuple[int, bytes]:
    headers = {**TOKEN, "Content-Type": "application/json"} if body is not None else TOKEN
    conn.request(method, url, body=None if body is None else json.dumps(body), headers=headers)
    res = conn.getresponse()
    return res.status, res.read()


def round_trips(city: str, edits: int, rng: random.Random, labels: bool) -> list[float]:
    proc, port, _ = start_server(city)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        state = json.loads(request(conn, "GET", "/api/map")[1])
        doc, rev = state["map"], state["revision"]
        sheet = f"/api/sheet.svg?labels={int(labels)}"
        request(conn, "GET", "/api/diagnostics")  # the first request imports the checks
        request(conn, "GET", sheet)
        times = []
        for _ in range(edits):
            st = rng.choice(doc["stations"])
            st["x"] = round(st["x"] + rng.uniform(-0.4, 0.4), 3)
            st["y"] = round(st["y"] + rng.uniform(-0.4, 0.4), 3)
            t0 = time.perf_counter()
            status, body = request(conn, "PUT", "/api/map", {"revision": rev, "map": doc})
            assert status == 200, body
            rev = json.loads(body)["revision"]
            assert request(conn, "GET", "/api/diagnostics")[0] == 200
            assert request(conn, "GET", sheet)[0] == 200
            times.append((time.perf_counter() - t0) * 1000)
        return times
    finally:
        stop(proc)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else time.time_ns()
    rng = random.Random(seed)
    print(f"load average: {os.getloadavg()[0]:.2f} (1 min); edit seed {seed}")
    print("edit round trip: PUT /api/map + GET /api/diagnostics + GET /api/sheet.svg (ms)")
    print(f"  {'city':<10} {'median':>7} {'p90':>7} {'max':>7}   target < 150 ms")
    for labels in (False, True):
        for city in CITIES:
            t = sorted(round_trips(city, args.edits, rng, labels))
            p90 = t[int(0.9 * (len(t) - 1))]
            name = city + (" +names" if labels else "")
            print(f"  {name:<16} {statistics.median(t):7.1f} {p90:7.1f} {t[-1]:7.1f}")
    starts = []
    for _ in range(args.starts):
        proc, _, seconds = start_server("berlin")
        stop(proc)
        starts.append(seconds * 1000)
    print(
        f"`mapkit studio berlin` ready to serve, whole process (ms): first {starts[0]:.0f}, "
        f"median {statistics.median(starts):.0f}, max {max(starts):.0f}   target < 1000 ms"
    )


if __name__ == "__main__":
    main()
