"""A soak of the studio's server: tabs editing at once, hostile requests between them.

Shared by ``tests/test_studio_soak.py`` (a few seconds in every run) and
``benchmarks/soak_studio.py`` (as long as you like, against a real process).
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

HOSTILE_BODIES = [
    b'{"revision": "r1", "map": {"x": 1e999}}',
    b'{"revision": "r1", "map": {"x": NaN}}',
    b'{"revision": "r1", "map": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
    b"\xff\xfe\x00",
    b'{"revision": "r1", "map": {',
    b'{"revision": "r1", "map": [1]}',
    b'{"revision": "r1", "map": {"description": "' + b"x" * (1 << 20) + b'"}}',
    b'{"revision": "r1", "map": {"name": "\\ud800"}}',
]
HOSTILE_SAVES = [
    "../out.json", "/tmp/out.json", "~/out.json", "a\0.json", "x" * 2000 + ".json",
    "missing/x.json", "notes.txt", "", "folder.json",
]  # fmt: skip


@dataclass
class SoakResult:
    edits: int = 0
    statuses: Counter = field(default_factory=Counter)
    slowest: float = 0.0


class Tab:
    """One browser tab's traffic on a kept-alive connection."""

    def __init__(self, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"X-Mapkit-Token": token, "Content-Type": "application/json"}

    def call(self, method: str, route: str, body: bytes | None = None, token: bool = True):
        headers = dict(self.headers) if token else {"Content-Type": "application/json"}
        self.conn.request(method, route, body=body, headers=headers)
        res = self.conn.getresponse()
        data = res.read()
        if res.getheader("connection", "").lower() == "close":
            self.conn.close()
        return res.status, data


def soak(port: int, token: str, *, tabs: int, seconds: float, edits: int) -> SoakResult:
    """``tabs`` tabs edit station positions (each PUT against the revision it last saw)
    while a hostile tab sends every body and save path no map allows (and a request without
    the token) once, then more of them at random, until ``edits`` edits were accepted or
    ``seconds`` passed."""
    result = SoakResult()
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def record(status: int, took: float) -> None:
        with lock:
            result.statuses[status] += 1
            result.slowest = max(result.slowest, took)

    def editor(seed: int) -> None:
        rnd = random.Random(seed)
        tab = Tab(port, token)
        while time.monotonic() < stop and result.edits < edits:
            start = time.monotonic()
            status, data = tab.call("GET", "/api/map")
            record(status, time.monotonic() - start)
            state = json.loads(data)
            doc = state["map"]
            st = rnd.choice(doc["stations"])
            st["x"] = round(st["x"] + rnd.choice((-0.5, 0.5)), 3)
            body = json.dumps({"revision": state["revision"], "map": doc}).encode()
            start = time.monotonic()
            status, _ = tab.call("PUT", "/api/map", body)
            record(status, time.monotonic() - start)
            if status == 200:
                with lock:
                    result.edits += 1
            if rnd.random() < 0.05:
                for route in ("/api/diagnostics", "/api/sheet.svg", "/api/status"):
                    start = time.monotonic()
                    record(tab.call("GET", route)[0], time.monotonic() - start)

    def hostile(seed: int) -> None:
        rnd = random.Random(seed)
        tab = Tab(port, token)
        # each hostile request once, however fast the editors reach their count; then more
        for body in HOSTILE_BODIES:
            start = time.monotonic()
            record(tab.call("PUT", "/api/map", body)[0], time.monotonic() - start)
        for path in HOSTILE_SAVES:
            body = json.dumps({"path": path, "overwrite": True}).encode()
            start = time.monotonic()
            record(tab.call("POST", "/api/save", body)[0], time.monotonic() - start)
        start = time.monotonic()
        record(tab.call("PUT", "/api/map", b"{}", token=False)[0], time.monotonic() - start)
        while time.monotonic() < stop and result.edits < edits:
            kind = rnd.random()
            start = time.monotonic()
            if kind < 0.4:
                status, _ = tab.call("PUT", "/api/map", rnd.choice(HOSTILE_BODIES))
            elif kind < 0.8:
                body = json.dumps({"path": rnd.choice(HOSTILE_SAVES), "overwrite": True})
                status, _ = tab.call("POST", "/api/save", body.encode())
            else:
                status, _ = tab.call("PUT", "/api/map", b"{}", token=False)
            record(status, time.monotonic() - start)

    threads = [threading.Thread(target=editor, args=(i,)) for i in range(tabs)]
    threads.append(threading.Thread(target=hostile, args=(99,)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return result
