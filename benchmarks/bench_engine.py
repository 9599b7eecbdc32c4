"""Engine throughput: random solo and 4-player games/s, clone cost, legal_actions cost.

Run by hand: ``python benchmarks/bench_engine.py [MAP ...]`` (default: Metro City from
../shared and every maps/*.json). Prints figures; not a test.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from mapkit.engine import Game
from mapkit.mapfile import load_map

ROOT = Path(__file__).resolve().parent.parent


def rate(fn, n: int) -> float:
    t0 = time.perf_counter()
    fn(n)
    return n / (time.perf_counter() - t0)


def bench_map(path: Path, seconds: float = 1.5) -> None:
    city = load_map(path)
    rng = random.Random(1)
    for players in (1, 4):
        game = Game(city, players=players)

        def playouts(n: int, game=game) -> None:
            for i in range(n):
                game.new_initial_state(i).random_playout(rng)

        def stepped(n: int, game=game) -> None:
            for i in range(n):
                s = game.new_initial_state(i)
                while not s.is_terminal():
                    if s.is_chance_node():
                        s.deal()
                    else:
                        acts = s.legal_actions()
                        s.apply_action(acts[int(rng.random() * len(acts))])

        playouts(500)  # fill the memo tables
        n = max(200, int(rate(playouts, 300) * seconds))
        fast = rate(playouts, n)
        slow = rate(stepped, max(100, n // 8))
        print(
            f"{city.id:<12} {players}p  random_playout {fast:>8.0f} games/s"
            f"   legal_actions+apply_action {slow:>7.0f} games/s"
        )
    game = Game(city, players=4)
    s = game.new_initial_state(1)
    for _ in range(30):
        if s.is_chance_node():
            s.deal()
        else:
            s.apply_action(s.legal_actions()[0])
    t0 = time.perf_counter()
    for _ in range(100000):
        s.clone()
    clone_us = (time.perf_counter() - t0) * 10
    print(f"{city.id:<12} clone (4 players, mid-game): {clone_us:.2f} us")


def main(argv: list[str]) -> None:
    paths = [Path(a) for a in argv]
    if not paths:
        metro = ROOT.parent / "shared" / "benchmark-maps" / "metro-city.json"
        paths = ([metro] if metro.exists() else []) + sorted((ROOT / "maps").glob("*.json"))
    print(f"python {sys.version.split()[0]}, one core")
    for p in paths:
        bench_map(p)


if __name__ == "__main__":
    main(sys.argv[1:])
