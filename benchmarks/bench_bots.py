"""Bot benchmarks (run by hand, not tests): throughput, strength, and the greedy tuning.

    python benchmarks/bench_bots.py speed      # games/s, one core: random and greedy, solo and 4p
    python benchmarks/bench_bots.py strength   # mean solo scores on Metro City (± s.e.)
    python benchmarks/bench_bots.py tune       # coordinate search of the greedy weights
    python benchmarks/bench_bots.py issue      # issue 5's targets, all figures in one run
    python benchmarks/bench_bots.py            # speed and strength

Every engine game deals from its seeded deck (``State.deal``), so bots compared on the same
seeds see the same cards (paired comparison).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
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

METRO = ROOT / "benchmarks" / "maps" / "metro-city.json"


def maps() -> list[Path]:
    out = sorted((ROOT / "maps").glob("*.json"))
    return out + ([METRO] if METRO.exists() else [])


def play(game: Game, bots: list, seed: int):
    s = game.new_initial_state(seed)
    while not s.is_terminal():
        if s.is_chance_node():
            s.deal()
        else:
            s.apply_action(bots[s.current_player()].choose(s))
    return s


def rate(fn, games: int) -> float:
    t = time.perf_counter()
    for i in range(games):
        fn(i)
    return games / (time.perf_counter() - t)


def speed(games: int) -> None:
    from mapkit.simulate.runner import Player, RunConfig

    print(f"games/s on one core ({games} games each; mapkit simulate's loop, warm memos)")
    print(f"{'map':12s} {'players':>7s} {'random':>9s} {'playout':>9s} {'greedy':>9s}")
    for path in maps():
        city = load_map(path)
        for n in (1, 4):
            game = Game(city, players=n)
            rnd = Player(city, RunConfig(("random",) * n, games))
            grd = Player(city, RunConfig(("greedy",) * n, games))
            for i in range(games // 2):  # warm the memos, as a long run would
                rnd.play(10**6 + i)
            for i in range(games // 20):
                grd.play(10**6 + i)
            rr = random.Random(1)
            r1 = rate(rnd.play, games)
            r2 = rate(lambda i, g=game, r=rr: g.new_initial_state(i).random_playout(r), games)
            r3 = rate(grd.play, max(1, games // 4))
            print(f"{city.id:12s} {n:7d} {r1:9.0f} {r2:9.0f} {r3:9.0f}")


def issue(games: int) -> None:
    """Issue 5's throughput targets on Metro City solo, every figure from the same run.

    ``simulate random`` / ``simulate greedy``: ``mapkit simulate``'s own game loop
    (``Player.play``: deck seed, bot reseeding, the game, the outcome), memos warmed by a
    first pass as in a long run. ``plain`` / ``maxfit``: ``benchmarks/maxfit.py``.
    """
    import json

    import maxfit

    from mapkit.simulate.runner import Player, RunConfig

    city = load_map(METRO)
    plain_city = maxfit.City(json.loads(METRO.read_text(encoding="utf-8")))
    rnd = Player(city, RunConfig(("random",), games))
    grd = Player(city, RunConfig(("greedy",), games))
    for i in range(games):
        rnd.play(i)
    for i in range(games // 4):
        grd.play(i)
    game = Game(city, players=1)
    rr = random.Random(1)
    print(f"Metro City solo, one core, {games} games each (greedy and maxfit: {games // 2})")
    for _ in range(3):
        plain = maxfit.measure(plain_city, "random", games, 1)[0]
        mf = maxfit.measure(plain_city, "maxfit", games // 2, 1)[0]
        sim_r = rate(rnd.play, games)
        po = rate(lambda i: game.new_initial_state(i).random_playout(rr), games)
        sim_g = rate(grd.play, games // 2)
        print(
            f"plain {plain:7.0f}  simulate random {sim_r:7.0f} (x{sim_r / plain:.2f} plain)"
            f"  random_playout {po:7.0f}  |  maxfit {mf:6.0f}  simulate greedy {sim_g:6.0f}"
            f" (x{sim_g / mf:.2f} maxfit)"
        )


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
    ap.add_argument(
        "what", nargs="?", choices=["speed", "strength", "tune", "issue", "all"], default="all"
    )
    ap.add_argument("--games", type=int, default=2000)
    args = ap.parse_args()
    if args.what in ("speed", "all"):
        speed(args.games)
    if args.what in ("strength", "all"):
        strength(args.games)
    if args.what == "issue":
        issue(args.games)
    if args.what == "tune":
        tune(min(args.games, 600))


if __name__ == "__main__":
    main()
