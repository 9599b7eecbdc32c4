"""How long ``mapkit report CITY`` takes, whole process, for each shipped city (issue 17: <= 15 s
on one core).

    python benchmarks/bench_report.py
    python benchmarks/bench_report.py --city berlin --jobs 2

Each run: ``python -m mapkit report CITY -f json`` with the defaults in a child process, a fresh
``--seed`` from the clock (nothing cached on the timed decks), wall time beside the child's CPU
time (user + sys: the one-core figure when the machine is shared) and the load average before
the run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

CITIES = ("amsterdam", "berlin", "paris", "madrid")


def run(city: str, jobs: int, seed: int) -> tuple[float, float, float]:
    cmd = [sys.executable, "-m", "mapkit", "report", city, "-f", "json", "--seed", str(seed),
           "--jobs", str(jobs)]  # fmt: skip
    load = os.getloadavg()[0]
    t = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(cmd)} failed: {child.stderr.read() if child.stderr else ''}")
    return wall, usage.ru_utime + usage.ru_stime, load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--city", action="append")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    for city in args.city or CITIES:
        seed = int(time.time() * 1000) % 1_000_000
        wall, cpu, load = run(city, args.jobs, seed)
        print(f"{city} --jobs {args.jobs} (seed {seed}, load {load:.2f}): "
              f"wall {wall:.1f} s, cpu {cpu:.1f} s")  # fmt: skip


if __name__ == "__main__":
    main()
