"""``mapkit report --jobs 2`` against ``--jobs 1`` (issue 17: near 2x on two idle cores).

    python benchmarks/bench_jobs.py                     # Berlin, 2 pairs of runs
    python benchmarks/bench_jobs.py --city madrid --pairs 3

Whole process: ``python -m mapkit report CITY -f json --jobs J`` in a child, defaults otherwise
(start-up, kernel load and every stage included), ``--jobs 1`` and ``--jobs 2`` in turn with the
same fresh ``--seed`` per pair (so both measure the same figures; the order alternates between
pairs). Wall time beside the CPU time of the child and its workers (user + sys), the load
average before each run, and in-process the same pair (``design_report`` with ``jobs`` 1 and 2).
A control before and after: four equal pure-Python busy loops in one process and in two say how
much of a second core the shared machine had to give (2.0 on an idle machine). On a shared
machine the speed-up of the report can only be read against that control.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from bench_report import run  # the whole-process timing of `mapkit report`
from bench_tune import control  # two processes against one on busy loops


def in_process(city: str, jobs: int, seed: int) -> tuple[float, float]:
    import resource

    from mapkit.design.report import ReportConfig, design_report
    from mapkit.mapfile import load_map
    from mapkit.resources import resolve_map

    path = resolve_map(city)
    doc = json.loads(Path(path).read_text(encoding="utf-8"))

    def cpu() -> float:
        me = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

    t, c = time.perf_counter(), cpu()
    design_report(load_map(path), ReportConfig(seed=seed, jobs=jobs), doc=doc)
    return time.perf_counter() - t, cpu() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--city", default="berlin")
    ap.add_argument("--pairs", type=int, default=2)
    ap.add_argument("--no-in-process", action="store_true")
    args = ap.parse_args()
    print(f"{os.cpu_count()} cores; control: two processes run a busy loop "
          f"{control():.2f}x as fast as one (load {os.getloadavg()[0]:.2f})")  # fmt: skip
    speedups = []
    for pair in range(args.pairs):
        seed = int(time.time() * 1000) % 1_000_000
        walls = {}
        for jobs in (1, 2) if pair % 2 == 0 else (2, 1):
            wall, cpu, load = run(args.city, jobs, seed)
            walls[jobs] = wall
            print(f"  whole process: report {args.city} --jobs {jobs} (seed {seed}, load "
                  f"{load:.2f}): wall {wall:.1f} s, cpu {cpu:.1f} s")  # fmt: skip
        speedups.append(walls[1] / walls[2])
        print(f"  pair {pair + 1}: --jobs 2 {walls[1] / walls[2]:.2f}x as fast as --jobs 1")
    if not args.no_in_process:
        seed = int(time.time() * 1000) % 1_000_000
        for jobs in (1, 2):
            load = os.getloadavg()[0]
            wall, cpu = in_process(args.city, jobs, seed)
            print(f"  in-process: design_report jobs={jobs} (seed {seed}, load {load:.2f}): "
                  f"wall {wall:.1f} s, cpu {cpu:.1f} s")  # fmt: skip
    print(f"speed-up of --jobs 2, whole process: {', '.join(f'{s:.2f}x' for s in speedups)}")
    print(f"control: two processes run a busy loop {control():.2f}x as fast as one "
          f"(load {os.getloadavg()[0]:.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
