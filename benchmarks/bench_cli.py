"""Whole-process speed of the CLI: `mapkit --help` and `mapkit validate maps/*.json`.

Targets (issue 2): --help < 200 ms; validate of the shipped maps < 600 ms.
Run: python benchmarks/bench_cli.py [--runs N]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    exe = shutil.which("mapkit")
    base = [exe] if exe else [sys.executable, "-m", "mapkit"]
    maps = sorted(str(p) for p in (ROOT / "maps").glob("*.json"))
    cases = {
        "python -c pass (interpreter floor)": [sys.executable, "-c", "pass"],
        "mapkit --help (target < 200 ms)": [*base, "--help"],
        f"mapkit validate maps/*.json ({len(maps)} maps; target < 600 ms)": [
            *base,
            "validate",
            *maps,
        ],
    }
    for name, cmd in cases.items():
        med, best = timed(cmd, args.runs)
        print(f"{name:<60} median {med:7.1f} ms   best {best:7.1f} ms")


if __name__ == "__main__":
    main()
