"""Engine throughput: random solo and 4-player games/s, clone cost, legal_actions cost.

Solo random playouts are also timed side by side with the plain dict-and-set random
simulator of ``benchmarks/maxfit.py`` (interleaved, so both see the same machine load):
the ratio engine/reference means something on a busy machine, the games/s alone do not.

Run by hand: ``python benchmarks/bench_engine.py [MAP ...]`` (default: Metro City from
benchmarks/maps and every maps/*.json). Prints figures; not a test.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from mapkit.engine import Game
from mapkit.mapfile import load_map

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import maxfit  # noqa: E402  (the reference simulator, beside this script)


def rate(fn, n: int) -> float:
    t0 = time.perf_counter()
    fn(n)
    return n / (time.perf_counter() - t0)


def versus_reference(path: Path, game: Game, rounds: int = 6, seconds: float = 0.25) -> str:
    """Solo random playouts: engine and reference games/s, timed in alternating bursts."""
    try:
        ref_city = maxfit.City(json.loads(path.read_text(encoding="utf-8")))
    except SystemExit as exc:  # the reference plays open lines only
        return f"reference: n/a ({exc})"
    rng_e, rng_r = random.Random(2), random.Random(2)
    _playouts(game, rng_e, 500)  # fill the memo tables
    n_e = max(50, int(rate(lambda n: _playouts(game, rng_e, n), 100) * seconds))
    n_r = max(50, int(rate(lambda n: _reference(ref_city, rng_r, n), 100) * seconds))
    t_e = t_r = 0.0
    for _ in range(rounds):
        t0 = time.perf_counter()
        _playouts(game, rng_e, n_e)
        t1 = time.perf_counter()
        _reference(ref_city, rng_r, n_r)
        t_e, t_r = t_e + t1 - t0, t_r + time.perf_counter() - t1
    eng, ref = n_e * rounds / t_e, n_r * rounds / t_r
    return f"engine {eng:>8.0f} vs reference {ref:>8.0f} games/s: ratio {eng / ref:.2f}"


def _playouts(game: Game, rng: random.Random, n: int) -> None:
    for i in range(n):
        game.new_initial_state(i).random_playout(rng)


def _reference(city: maxfit.City, rng: random.Random, n: int) -> None:
    for _ in range(n):
        maxfit.play_random(city, rng)


def bench_map(path: Path, seconds: float = 1.5) -> None:
    city = load_map(path)
    rng = random.Random(1)
    print(f"{city.id:<12} 1p  random_playout {versus_reference(path, Game(city, players=1))}")
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
        metro = ROOT / "benchmarks" / "maps" / "metro-city.json"
        paths = ([metro] if metro.exists() else []) + sorted((ROOT / "maps").glob("*.json"))
    print(f"python {sys.version.split()[0]}, one core")
    for p in paths:
        bench_map(p)


if __name__ == "__main__":
    main(sys.argv[1:])
