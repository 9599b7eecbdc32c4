"""Do the report's 95 % intervals cover the truth 95 % of the time? (issue 17: 93-97 %)

    python benchmarks/bench_coverage.py                       # Berlin, 200 repetitions
    python benchmarks/bench_coverage.py --map maps/paris.json --reps 400 --games 100

The "truth" of each figure is its value over ``--truth`` games (default 20,000) of seeds no
repetition uses; each repetition measures the figure on ``--games`` games of a fresh seed, as the
report does, and counts whether its interval holds the truth. Kernel-played figures only (greedy
solo mean, skill headroom, and per line of 3-player greedy games the completion and the points
paid, clustered by game); the slow figures (decisions, tension, clairvoyant skill) are not
repeated here. With 200 repetitions a coverage is known to about +-3 points.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def figures(city, games: int, seed: int) -> dict[str, object]:  # type: ignore[no-untyped-def]
    from mapkit.design.profile import profile
    from mapkit.design.races import races_of
    from mapkit.simulate import RunConfig, simulate

    p = profile(city, games, seed)
    out: dict[str, object] = {"greedy mean": p.mean, "skill headroom": p.headroom}
    played = simulate(city, RunConfig(("greedy",) * 3, games, seed))
    for r in races_of(city, played):
        out[f"line {r.line} completed"] = r.completion
        out[f"line {r.line} points paid"] = r.expected
    return out


def main() -> None:
    from mapkit.mapfile import load_map

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--map", default=str(ROOT / "maps" / "berlin.json"))
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--truth", type=int, default=20_000)
    args = ap.parse_args()
    city = load_map(args.map)
    truth = {k: e.value for k, e in figures(city, args.truth, 999_999).items()}  # type: ignore[attr-defined]
    hits: dict[str, int] = defaultdict(int)
    for rep in range(args.reps):
        for k, e in figures(city, args.games, 1_000 + rep).items():
            hits[k] += e.lo <= truth[k] <= e.hi  # type: ignore[attr-defined]
    cover = {k: hits[k] / args.reps for k in truth}
    for k, c in cover.items():
        print(f"{k:<24} {c:6.1%}")
    values = sorted(cover.values())
    median = values[len(values) // 2]
    print(f"{len(values)} figures, {args.reps} repetitions of {args.games} games: coverage "
          f"{values[0]:.1%} to {values[-1]:.1%}, median {median:.1%}")  # fmt: skip


if __name__ == "__main__":
    main()
