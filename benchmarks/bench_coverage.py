"""Do the report's 95 % intervals cover the truth 95 % of the time? (issue 17: 93-97 %)

    python benchmarks/bench_coverage.py                 # Berlin, 200 repetitions (100 slow), 2 jobs
    python benchmarks/bench_coverage.py --reps 400 --slow-reps 200 --out coverage.json

Every repetition (``--slow-reps`` of them, spread evenly; the others leave out the slow
figures) is a whole report (``design_report`` at its defaults: 200 decks per bot, 60 tension
games, 6 decision games, 60 mixed games, 3 players; the sensitivity table, which prints no
interval, left out) on a fresh run seed ``1000 + rep``; ``--races-only`` repeats only the line
races, pacing and stations (kernel games, fast). Every figure of its JSON that carries an
interval (``value``, ``lo``, ``hi``, ``se``) is checked against its truth:

- figures the kernel plays at speed (the random, greedy and lookahead means and the skill
  headroom; per line completion, first taken and points paid; per station cuts, crosses lost
  and contested; pacing's late share and the seats' wins; the difficulty mean, the cities' means
  and the index): their value on ``--truth`` games (default 20,000) of a seed no repetition
  uses;
- the slow figures (the clairvoyant mean, the luck and skill shares and relative skill, which
  need the clairvoyant bot; decisions; tension; mixed skill): the mean of the repetitions'
  estimates (the expectation of the estimator; its O(1/n) bias is not seen, its spread is).

With 200 repetitions a coverage near 95 % is known to about +-3 points (its binomial standard
error is 1.5 points), with 100 to about +-4. Prints every figure family's coverage range and
median, and the load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLOW = ("skill.means.clairvoyant", "skill.luck_share", "skill.skill_share",
        "skill.relative_skill", "decisions.", "tension.", "mixed.")  # fmt: skip


def leaves(doc: object, path: str = "") -> dict[str, dict[str, float]]:
    """Every interval of a report's JSON by a stable path (lists keyed by line or station)."""
    out: dict[str, dict[str, float]] = {}
    if isinstance(doc, dict):
        if set(doc) == {"value", "lo", "hi", "se"}:
            return {path: doc}
        for k, v in doc.items():
            out |= leaves(v, f"{path}.{k}" if path else k)
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            key = v.get("line") or v.get("station") if isinstance(v, dict) else None
            out |= leaves(v, f"{path}[{key if key is not None else i}]")
    return out


def family(path: str) -> str:
    """``lines[B].completion`` -> ``lines[*].completion``: figures of one kind together."""
    import re

    return re.sub(r"\[[^\]]*\]", "[*]", path)


def one_report(args: tuple[str, int, bool | None]) -> dict[str, dict[str, float]]:
    """One repetition: the whole report, or (``full`` off) the report without its slow
    figures (no clairvoyant, one tension and one decision game, no mixed table)."""
    from mapkit.design.report import ReportConfig, design_report
    from mapkit.mapfile import load_map

    path, seed, full = args
    if full is None:  # --races-only: the line races, pacing and stations alone
        from mapkit.design.report import _races

        races, pace, stations = _races(load_map(path), ReportConfig(seed=seed))
        doc = {"lines": [r.to_dict() for r in races], "pacing": pace.to_dict(),
               "stations": stations.to_dict()}  # fmt: skip
        return leaves(doc)
    cfg = ReportConfig(seed=seed, sensitivity=False)
    if not full:
        cheap = {"tension_games": 1, "decision_games": 1, "mixed_games": 0}
        bots = ("random", "greedy", "lookahead")
        cfg = ReportConfig(seed=seed, sensitivity=False, skill_bots=bots, **cheap)
    doc = leaves(design_report(load_map(path), cfg).to_dict())
    return doc if full else {k: v for k, v in doc.items() if not k.startswith(SLOW)}


def truth_of(path: str, games: int) -> dict[str, float]:
    """The kernel-played figures on ``games`` games of seed 999,999."""
    from mapkit.design.difficulty import measure_difficulty
    from mapkit.design.pacing import pacing
    from mapkit.design.races import races_of
    from mapkit.design.skill import measure_skill
    from mapkit.design.stations import stations_of
    from mapkit.engine import Game
    from mapkit.mapfile import load_map
    from mapkit.simulate import RunConfig, simulate

    city, seed = load_map(path), 999_999
    skill = measure_skill(city, games, seed, ("random", "greedy", "lookahead"))
    played = simulate(city, RunConfig(("greedy",) * 3, games, seed, records=True))
    doc = {
        "skill": {"means": {b: e.to_dict() for b, e in skill.means.items()},
                  "skill_headroom": skill.headroom.to_dict() if skill.headroom else None},
        "lines": [r.to_dict() for r in races_of(city, played)],
        "stations": stations_of(Game(city, players=3), played).to_dict(),
        "pacing": pacing(played, seed).to_dict(),
        "difficulty": measure_difficulty(city, games, seed).to_dict(),
    }  # fmt: skip
    return {k: v["value"] for k, v in leaves(doc).items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--map", default=str(ROOT / "maps" / "berlin.json"))
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument(
        "--slow-reps",
        type=int,
        default=100,
        help="repetitions that also measure the slow figures (spread among the others)",
    )
    ap.add_argument("--truth", type=int, default=20_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, help="write every figure's coverage here (JSON)")
    ap.add_argument("--truth-from", type=Path, help="a truth file an earlier run wrote")
    ap.add_argument("--races-only", action="store_true",
                    help="only the races, pacing and stations (kernel games)")  # fmt: skip
    args = ap.parse_args()
    t0, c0, load0 = time.time(), time.process_time(), os.getloadavg()
    cache = Path(f"{args.out}.truth.json") if args.out else None
    if args.truth_from:
        cache = args.truth_from
    if cache is not None and cache.exists():
        truth = json.loads(cache.read_text())
    else:
        truth = truth_of(args.map, args.truth)
        if cache is not None:
            cache.write_text(json.dumps(truth))
    # the slow repetitions spread evenly among the others, so a run stopped early has both
    every = max(1, args.reps // max(1, args.slow_reps))
    seeds = [(args.map, 1000 + rep, None if args.races_only else
              rep % every == 0 and rep // every < args.slow_reps)
             for rep in range(args.reps)]  # fmt: skip
    with Pool(args.jobs) as pool:
        reps = []
        for i, r in enumerate(pool.imap(one_report, seeds)):
            reps.append(r)
            if (i + 1) % 10 == 0:
                print(f"  {i + 1} repetitions, {time.time() - t0:.0f} s", file=sys.stderr)
                if args.out:
                    summary(reps, truth, args, t0, c0, load0, quiet=True)
    summary(reps, truth, args, t0, c0, load0)


def summary(reps, truth, args, t0, c0, load0, quiet=False) -> None:  # type: ignore[no-untyped-def]
    """Print (unless ``quiet``) and write each figure's coverage over the repetitions so far."""
    slow_reps = sum(1 for r in reps if "decisions.share" in r)
    cover: dict[str, float] = {}
    for k in reps[0]:
        slow = k.startswith(SLOW)
        have = [r[k] for r in reps if k in r]
        if (not slow and k not in truth) or len(have) < (slow_reps if slow else len(reps)):
            continue
        t = statistics.fmean(e["value"] for e in have) if slow else truth[k]
        cover[k] = sum(e["lo"] <= t <= e["hi"] for e in have) / len(have)
    fams: dict[str, list[float]] = defaultdict(list)
    for k, c in cover.items():
        fams[family(k)].append(c)
    out = []
    for f, cs in fams.items():
        cs.sort()
        span = f"{cs[0]:.1%}" if len(cs) == 1 else f"{cs[0]:.1%} to {cs[-1]:.1%}"
        out.append(f"{f:<40} {len(cs):>3}  {span:<16} median {statistics.median(cs):.1%}")
    values = sorted(cover.values())
    out.append(
        f"{len(values)} figures, {len(reps)} repetitions ({slow_reps} for the slow figures): "
        f"coverage {values[0]:.1%} to {values[-1]:.1%}, median {statistics.median(values):.1%}; "
        f"{sum(0.93 <= v <= 0.97 for v in values)} within 93-97 %"
    )
    wall, cpu = time.time() - t0, time.process_time() - c0
    out.append(
        f"wall {wall:.0f} s (main process CPU {cpu:.0f} s), load before {load0[0]:.2f}, "
        f"now {os.getloadavg()[0]:.2f}, {args.jobs} jobs on {os.cpu_count()} cores"
    )
    if not quiet:
        print("\n".join(out))
    if args.out:
        doc = {"map": args.map, "reps": len(reps), "slow_reps": slow_reps, "coverage": cover,
               "summary": out}  # fmt: skip
        args.out.write_text(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
