"""``simulate``, ``report`` and ``tune`` at their defaults on big legal maps: wall, CPU, peak RSS.

Run by hand: ``python benchmarks/bench_bounds.py [--fuzz-seed 1]``. The maps: the map at every
schema bound (``bounds_map.py``: 400 stations, 26 lines of 100 stops, 208 windows; it does not
validate, so ``tune`` refuses it), a fuzzed 26-line map (``bounds_map.fuzzed_map``) and the
biggest grid map that validates (``bounds_map.legal_map``: 231 stations, 14 lines, which
``tune`` tunes). Every command runs as a whole process (``os.wait4``
gives its CPU time and peak RSS); the machine's load average is printed beside the figures.
Issue 21 measured, before the byte-bounded memos, the clairvoyant planning fix and the scaled
defaults: ``report`` on the bounds map 132 s and 593 MB with ``-n 2``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bounds_map import bounds_map, fuzzed_map, legal_map

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str], cwd: Path) -> tuple[int, float, float, float]:
    """(exit code, wall s, CPU s, peak RSS MB) of ``python -m mapkit ARGS``."""
    t = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mapkit", *args], cwd=cwd,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    code = os.waitstatus_to_exitcode(status)
    return code, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fuzz-seed", type=int, default=1)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "bounds.json").write_text(json.dumps(bounds_map()))
        (d / "fuzzed.json").write_text(json.dumps(fuzzed_map(a.fuzz_seed)))
        (d / "legal.json").write_text(json.dumps(legal_map()))
        runs = [
            cmd
            for name in ("bounds.json", "fuzzed.json")
            for cmd in (
                ["simulate", name],
                ["simulate", name, "--bots", "clairvoyant", "-n", "20"],
                ["report", name, "--allow-invalid"],
                ["tune", name, "--mean", "50", "-o", "t.json"],
            )
        ]
        runs.append(["tune", "legal.json", "--per-line", "-o", "t.json"])  # a map tune accepts
        for cmd in runs:
            load = os.getloadavg()[0]
            code, wall, cpu, rss = run(cmd, d)
            print(
                f"{' '.join(cmd):<50} exit {code}  wall {wall:6.1f} s  CPU {cpu:6.1f} s  "
                f"peak RSS {rss:5.0f} MB  (load {load:.1f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
