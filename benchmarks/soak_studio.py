"""Soak `mapkit studio`, a real process: tabs editing at once, hostile requests between
them, for as long as asked; then the server must answer at once and the file be intact.

The test suite runs the same soak in-process for 3 seconds (tests/test_studio_soak.py).
Run: python benchmarks/soak_studio.py [--tabs N] [--seconds S] [--edits N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.studio_soak import Tab, soak  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tabs", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--edits", type=int, default=5000)
    parser.add_argument("--map", default=str(ROOT / "maps" / "berlin.json"))
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="mapkit-soak-"))
    (folder / "folder.json").mkdir()
    path = folder / "city.json"
    shutil.copy(args.map, path)
    before = path.read_bytes()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mapkit", "studio", str(path), "--no-browser", "--port", "0"],
        stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        head = proc.stderr.readline() + proc.stderr.readline()
        port, token = re.search(r"127\.0\.0\.1:(\d+)/\?token=([\w-]+)", head).groups()
        time.sleep(1.0)
        print(f"load average: {os.getloadavg()[0]:.2f} (1 min); {args.tabs} tabs + 1 hostile")
        t0 = time.perf_counter()
        result = soak(int(port), token, tabs=args.tabs, seconds=args.seconds, edits=args.edits)
        took = time.perf_counter() - t0
        print(f"{result.edits} edits accepted in {took:.1f} s ({result.edits / took:.0f}/s)")
        print(f"answers: {dict(sorted(result.statuses.items()))}; slowest {result.slowest:.2f} s")
        tab = Tab(int(port), token)
        t0 = time.perf_counter()
        status, data = tab.call("GET", "/api/map")
        print(f"afterwards GET /api/map: {status} in {(time.perf_counter() - t0) * 1000:.0f} ms")
        print(f"file untouched by the hostile saves: {path.read_bytes() == before}")
        status, _ = tab.call("POST", "/api/save", b"{}")
        saved = json.loads(path.read_text(encoding="utf-8")) == json.loads(data)["map"]
        print(f"save: {status}, file == server's map: {saved}")
        bad = [s for s in result.statuses if s >= 500]
        leftovers = sorted(p.name for p in folder.iterdir())
        print(f"5xx answers: {bad or 'none'}; folder: {leftovers}")
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
