"""Speed of `mapkit import gtfs`: whole process beside in-process, by stage.

Target (issue 16): the whole import of LA Metro Rail's feed <= 10 s. The repository
holds that feed with one trip per distinct stop pattern (tests/data/la-metro-rail.zip,
the same map); give the published feed itself (12 MB of stop_times.txt) with --feed.
Run: python benchmarks/bench_import.py [--feed FEED.zip] [--runs N] [--no-layout]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def whole_process(feed: Path, runs: int, layout: bool) -> tuple[list[float], list[float]]:
    """(wall seconds, CPU seconds) of each run of the command."""
    exe = shutil.which("mapkit")
    base = [exe] if exe else [sys.executable, "-m", "mapkit"]
    times, cpu = [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "city.json"
        cmd = [*base, "import", "gtfs", str(feed), "-o", str(out)]
        if not layout:
            cmd.append("--no-layout")
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
            times.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            if done.returncode != 0:
                raise SystemExit(done.stderr)
    return times, cpu


def in_process(feed: Path, runs: int, layout: bool) -> dict[str, list[float]]:
    from mapkit.importers import ImportConfig, network_to_map, read_gtfs

    stages: dict[str, list[float]] = {"read the feed": [], "network to map": []}
    for _ in range(runs):
        start = time.perf_counter()
        net = read_gtfs(feed)
        mid = time.perf_counter()
        network_to_map(net, ImportConfig(layout=layout))
        end = time.perf_counter()
        stages["read the feed"].append(mid - start)
        stages["network to map"].append(end - mid)
    return stages


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--feed", type=Path, default=ROOT / "tests" / "data" / "la-metro-rail.zip")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-layout", dest="layout", action="store_false")
    args = parser.parse_args()
    size = args.feed.stat().st_size / 1024
    mode = "on" if args.layout else "off"
    print(
        f"feed {args.feed.name} ({size:.0f} KiB zipped), layout {mode}, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    times, cpu = whole_process(args.feed, args.runs, args.layout)
    print(
        f"whole process (target <= 10 s)  median {statistics.median(times):6.2f} s   "
        f"best {min(times):6.2f} s   CPU median {statistics.median(cpu):6.2f} s"
    )
    for name, ts in in_process(args.feed, args.runs, args.layout).items():
        print(
            f"in-process {name:<20} median {statistics.median(ts):6.2f} s   best {min(ts):6.2f} s"
        )


if __name__ == "__main__":
    main()
