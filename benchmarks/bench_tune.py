"""How long a tune of a shipped city takes on one core and on two (issue 12).

    python benchmarks/bench_tune.py                  # Berlin, --per-line, 3 steps, 200 decks
    python benchmarks/bench_tune.py --city madrid --steps 5 --games 300

Whole process: ``python -m mapkit tune CITY -o TMP --per-line ...`` in a child with ``--jobs 1``
and then ``--jobs 2`` (candidates measured in two local processes), start-up, kernel load,
every candidate and the before/after comparison included; wall time beside the CPU time of the
child and its workers (user + sys), and the load average before each run (the machine is
shared). Each run uses a fresh ``--seed`` from the clock (no cache warmed on the timed decks),
so the two runs search on different decks; both do the same number of candidate evaluations
when they take the same number of steps, which the output shows. A control beside them: the
same pure-Python busy loop four times, in one process and in two, says how much of a second
core the shared machine had to give at that moment.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(city: str, jobs: int, steps: int, games: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "tuned.json"
        cmd = [sys.executable, "-m", "mapkit", "tune", city, "-o", str(out), "--per-line",
               "--steps", str(steps), "-n", str(games), "--seed", str(seed), "--jobs", str(jobs),
               "--decision-games", "0"]  # fmt: skip
        load = os.getloadavg()[0]
        t = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t
        stdout, stderr = child.communicate()
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"{' '.join(cmd)} failed:\n{stderr}")
    edits = sum(1 for line in stderr.splitlines() if "objective" in line and "/" in line)
    return {"jobs": jobs, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "load": load,
            "edits": edits, "summary": stdout.splitlines()[0]}  # fmt: skip


def _burn(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i
    return s


def control() -> float:
    """Speed-up of two processes over one on four equal busy loops (2.0 on an idle machine)."""
    from multiprocessing import get_context

    n = 3_000_000
    t = time.perf_counter()
    for _ in range(4):
        _burn(n)
    one = time.perf_counter() - t
    with get_context("fork").Pool(2) as pool:
        t = time.perf_counter()
        pool.map(_burn, [n] * 4, chunksize=1)
        two = time.perf_counter() - t
    return one / two


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--city", default="berlin")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    print(f"control: two processes run a busy loop {control():.2f}x as fast as one")
    for jobs in (1, 2):
        seed = int(time.time() * 1000) % 1_000_000
        r = run(args.city, jobs, args.steps, args.games, seed)
        print(
            f"{args.city} --per-line --steps {args.steps} -n {args.games} --jobs {jobs} "
            f"(seed {seed}, load {r['load']:.2f}): wall {r['wall']:.1f} s, cpu {r['cpu']:.1f} s, "
            f"{r['edits']} edits; {r['summary']}"
        )
    print(f"control: two processes run a busy loop {control():.2f}x as fast as one")


if __name__ == "__main__":
    main()
