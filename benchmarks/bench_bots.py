"""Bot benchmarks (run by hand, not tests): strength and the greedy tuning.

    python benchmarks/bench_bots.py strength   # mean solo scores on Metro City (± s.e.)
    python benchmarks/bench_bots.py tune       # coordinate search of the greedy weights

Throughput is ``benchmarks/bench_simulate.py`` (whole process beside in-process, fresh seeds:
the old ``speed``/``issue`` modes warmed memos on the very seeds they timed).

Every engine game deals from its seeded deck (``State.deal``), so bots compared on the same
seeds see the same cards (paired comparison).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from mapkit.bots import make_bot  # noqa: E402
from mapkit.bots.evaluate import DEFAULT, Weights  # noqa: E402
from mapkit.bots.greedy import GreedyBot  # noqa: E402
from mapkit.engine import Game  # noqa: E402
from mapkit.mapfile import load_map  # noqa: E402
from mapkit.simulate.runner import play_out  # noqa: E402

METRO = ROOT / "benchmarks" / "maps" / "metro-city.json"


def maps() -> list[Path]:
    out = sorted((ROOT / "maps").glob("*.json"))
    return out + ([METRO] if METRO.exists() else [])


def play(game: Game, bots: list, seed: int):
    return play_out(game.new_initial_state(seed), bots)  # the checked engine's one game loop


def rate(fn, games: int) -> float:
    t = time.perf_counter()
    for i in range(games):
        fn(i)
    return games / (time.perf_counter() - t)


def mean_se(xs: list[float]) -> tuple[float, float]:
    return statistics.fmean(xs), statistics.stdev(xs) / math.sqrt(len(xs))


def scores(bot_name: str, games: int, **options) -> tuple[list[int], float]:
    city = load_map(METRO)
    game = Game(city, players=1)
    bot = make_bot(bot_name, 0, **options)
    t = time.perf_counter()
    out = [play(game, [bot], 1000 + i).score(0) for i in range(games)]
    return out, games / (time.perf_counter() - t)


def strength(games: int) -> None:
    import maxfit

    city = maxfit.City(__import__("json").loads(METRO.read_text(encoding="utf-8")))
    mrate, mmean, mse = maxfit.measure(city, "maxfit", games, 1)
    print("mean solo score on Metro City (± standard error; engine bots on the same decks)")
    print(
        f"{'maxfit':18s} {mmean:7.2f} ± {mse:.2f}   {games:5d} games {mrate:7.0f} games/s (plain)"
    )
    base = None
    runs = (
        ("greedy", games, {}),
        ("lookahead", games // 4, {}),
        ("clairvoyant", games // 4, {}),
        ("clairvoyant", games // 20, {"beam": 160}),
    )
    for name, n, options in runs:
        xs, r = scores(name, n, **options)
        m, se = mean_se(xs)
        if base is not None:
            diffs = [a - b for a, b in zip(xs, base[: len(xs)], strict=True)]
            dm, dse = mean_se(diffs)
            ratio = m / statistics.fmean(base[: len(xs)])
            extra = f"   vs greedy (paired): {dm:+.2f} ± {dse:.2f}, x{ratio:.3f}"
        else:
            extra = f"   x{m / mmean:.3f} maxfit"
            base = xs
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        print(f"{label:18s} {m:7.2f} ± {se:.2f}   {n:5d} games {r:7.0f} games/s{extra}")


def tune(games: int) -> None:
    """Coordinate search: change one weight at a time, keep a change that gains > 0.05."""
    city = load_map(METRO)
    game = Game(city, players=1)

    def mean(w: Weights) -> float:
        bot = GreedyBot(0, weights=w)
        return statistics.fmean(play(game, [bot], 5000 + i).score(0) for i in range(games))

    grid = {
        "beta": [0.5, 0.6, 0.7, 0.8, 0.9],
        "over": [0.0, 0.1, 0.3, 0.5],
        "card": [4.0, 4.5, 5.0, 5.5, 6.0],
        "cap": [0.0, 0.1, 0.2, 0.35, 0.5],
    }
    w = DEFAULT
    best = mean(w)
    print(f"start {w}: {best:.2f}")
    for _ in range(2):
        for key, values in grid.items():
            for val in values:
                if getattr(w, key) == val:
                    continue
                cand = dataclasses.replace(w, **{key: val})
                m = mean(cand)
                print(f"  {key}={val}: {m:.2f}{'  <- better' if m > best + 0.05 else ''}")
                if m > best + 0.05:
                    w, best = cand, m
    print(f"final {w}: {best:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", nargs="?", choices=["strength", "tune"], default="strength")
    ap.add_argument("--games", type=int, default=2000)
    args = ap.parse_args()
    if args.what == "strength":
        strength(args.games)
    if args.what == "tune":
        tune(min(args.games, 600))


if __name__ == "__main__":
    main()
