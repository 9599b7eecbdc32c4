"""Does ``mapkit tune --per-line`` mend the three flawed copies of Berlin, within 60 s? (issue 17)

    python benchmarks/bench_tune_flawed.py              # the three flawed maps and Berlin itself
    python benchmarks/bench_tune_flawed.py --seed 7

Whole process, default settings (300 decks per candidate, 20 steps at most, the decisions
guard on): ``python -m mapkit tune MAP -o TMP --per-line --report TMP.json`` in a child, wall
time beside the child's CPU time and the load average before the run (the machine is shared).
Then every line of the tuned map is measured again on **fresh decks** (seed + 1000, 1000
games): its completion and bonus per window against the shipped cities' band on the same fresh
decks, and the greedy mean (per window, and whole) against the shipped cities', so the
verdict is not the search's own (possibly overfitted) measurement.
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

ROOT = Path(__file__).resolve().parent.parent
MAPS = ["berlin-ten-times", "berlin-one-window", "berlin-identical"]


def run(path: Path, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out, rep = Path(tmp) / "tuned.json", Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "mapkit", "tune", str(path), "-o", str(out), "--per-line",
               "--seed", str(seed), "--report", str(rep)]  # fmt: skip
        load = os.getloadavg()[0]
        t = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t
        stdout, stderr = child.communicate()
        code = os.waitstatus_to_exitcode(status)
        tuned = json.loads(out.read_text()) if out.exists() else None
        report = json.loads(rep.read_text()) if rep.exists() else None
    summary = (stdout or stderr).splitlines()[0]
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "load": load, "code": code,
            "doc": tuned, "report": report, "summary": summary}  # fmt: skip


def check(doc: dict, seed: int, games: int = 1000) -> list[str]:
    """What the tuned map still misses, measured on fresh decks."""
    from mapkit.design.band import bonus_per_window, mean_per_window, shipped_band
    from mapkit.design.profile import profile
    from mapkit.design.tune import city_of
    from mapkit.mapfile import load_map
    from mapkit.resources import shipped_maps

    city = city_of(doc, "a4")
    assert city is not None, "the tuned map does not validate"
    band = shipped_band(games, seed)
    p = profile(city, games, seed)
    out = []
    if band.mean.distance(mean_per_window(p)):
        out.append(f"mean per window {mean_per_window(p):.2f} outside {band.mean.text()}")
    cities = [profile(load_map(c), games, seed).mean.value for c in shipped_maps()]
    if not min(cities) <= p.mean.value <= max(cities):
        out.append(
            f"mean {p.mean.value:.1f} outside the cities' {min(cities):.1f}-{max(cities):.1f}"
        )
    for lid, ln in p.lines.items():
        if ln.completion.hi < band.completion.lo or ln.completion.lo > band.completion.hi:
            out.append(f"{lid} completion {ln.completion.value:.2f}")
        rate = bonus_per_window(ln)
        if band.rate.distance(rate) > 1.96 * ln.points.se / ln.windows:
            out.append(f"{lid} bonus per window {rate:.2f}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    paths = [ROOT / "tests" / "maps" / f"{m}.json" for m in MAPS] + [ROOT / "maps" / "berlin.json"]
    for path in paths:
        r = run(path, args.seed)
        edits = len(r["report"]["edits"]) if r["report"] else 0
        verdict = check(r["doc"], args.seed + 1000) if r["doc"] else ["nothing written"]
        print(
            f"{path.stem}: exit {r['code']}, wall {r['wall']:.1f} s, cpu {r['cpu']:.1f} s "
            f"(load {r['load']:.2f}), {edits} edits; fresh decks: "
            f"{'every line and the mean inside the band' if not verdict else '; '.join(verdict)}"
        )
        print(f"    {r['summary']}")


if __name__ == "__main__":
    main()
