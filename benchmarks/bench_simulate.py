"""Whole-process and in-process simulation speed, side by side in one run (issue 10's targets).

    python benchmarks/bench_simulate.py              # the targets on Metro City
    python benchmarks/bench_simulate.py --million    # + peak memory at 1,000,000 random games
    python benchmarks/bench_simulate.py --cold       # + each bot's first run after install

Whole process: ``python -m mapkit simulate benchmarks/maps/metro-city.json ...`` in a child,
start-up, imports, seeds, statistics and the JSON report included; wall time and the
child's CPU time (user + sys, honest under load) and its peak memory (``wait4``'s
ru_maxrss: that process alone; with ``--jobs`` the largest of it and its workers). Every run uses
a fresh ``--seed`` (from the clock), so no cache is warmed on the games it times. In-process:
the kernel's ``play_batch`` beside the checked engine playing the very same games
(``State.seeded_playout``: ``deal()`` and ``random_action`` for every decision) on other fresh
seeds; the baseline does the same work, move for move.
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
METRO = ROOT / "benchmarks" / "maps" / "metro-city.json"


def whole(games: int, bots: str, seed: int, jobs: int = 1, env: dict | None = None) -> dict:
    """One ``mapkit simulate`` child: wall, CPU (user + sys), peak RSS, games/s."""
    cmd = [sys.executable, "-m", "mapkit", "simulate", str(METRO), "--games", str(games)]
    cmd += ["--ruleset", "voll-verplant"]  # the rules its figures were first measured under
    cmd += ["--bots", bots, "--seed", str(seed), "--jobs", str(jobs), "-f", "json"]
    with tempfile.TemporaryFile("w+") as out:
        t = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=out, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode:
            raise SystemExit(f"{' '.join(cmd)}: exit {child.returncode}")
        out.seek(0)
        mean = json.load(out)["seats"][0]["mean"]
    cpu = usage.ru_utime + usage.ru_stime  # the child and the workers it waited for
    return {
        "games": games, "bots": bots, "jobs": jobs, "wall": wall, "cpu": cpu,
        "rate": games / wall, "cpu_rate": games / cpu, "maxrss_mib": usage.ru_maxrss / 1024,
        "mean": mean,
    }  # fmt: skip


def show(label: str, r: dict) -> None:
    print(
        f"{label:<34} {r['games']:>9,} games  wall {r['wall']:6.2f} s  {r['rate']:>9,.0f}/s"
        f"  cpu {r['cpu']:6.2f} s  {r['cpu_rate']:>9,.0f}/s  peak {r['maxrss_mib']:5.0f} MiB"
        f"  mean {r['mean']}"
    )


def in_process(seed: int, random_games: int, greedy_games: int) -> None:
    """The kernel beside the checked engine on the same (fresh) games, in this process."""
    import numpy as np

    sys.path.insert(0, str(ROOT))
    from mapkit.bots import make_bot
    from mapkit.engine import Game
    from mapkit.mapfile import load_map
    from mapkit.rulesets import VOLL_VERPLANT
    from mapkit.simulate.runner import game_seed, kernel_for

    game = Game(load_map(METRO).with_ruleset(VOLL_VERPLANT))
    import random

    for bots, n, base_n in (("random", random_games, 2000), ("greedy", greedy_games, 300)):
        k = kernel_for(game, (bots,))
        seeds = np.array([game_seed(seed, i) for i in range(n)], np.int64)
        t = time.process_time()
        k.play_batch(seeds)
        kr = n / (time.process_time() - t)
        bot = make_bot(bots)
        t = time.process_time()
        for s in seeds[:base_n].tolist():
            state = game.new_initial_state(s)
            if bots == "random":
                state.seeded_playout([random.Random(s * 7)])
            else:
                bot.rng = random.Random(s * 7)
                while not state.is_terminal():
                    if state.is_chance_node():
                        state.deal()
                    else:
                        state.apply_action(bot.choose(state))
        cr = base_n / (time.process_time() - t)
        print(
            f"in-process {bots:<8} kernel {kr:>9,.0f} games/s (cpu)   checked engine, same games"
            f" {cr:>7,.0f} games/s   x{kr / cr:.0f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--million", action="store_true", help="peak memory at 1,000,000 games")
    ap.add_argument("--cold", action="store_true", help="first run after install, then a second")
    args = ap.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    seed = int(time.time())
    print(f"load: {os.getloadavg()}  seed base {seed}")
    if args.cold:
        for bots in ("random", "greedy", "lookahead"):  # each with an empty bytecode cache
            with tempfile.TemporaryDirectory() as cache:
                cold_env = {**env, "PYTHONPYCACHEPREFIX": cache}
                show(f"first run after install, {bots}", whole(1000, bots, seed, env=cold_env))
                show(f"second run, {bots}", whole(1000, bots, seed + 1, env=cold_env))
    show("random, 1 job", whole(200_000, "random", seed + 2, env=env))
    show("random, 2 jobs", whole(200_000, "random", seed + 3, jobs=2, env=env))
    show("greedy, 1 job", whole(20_000, "greedy", seed + 4, env=env))
    show("greedy, 2 jobs", whole(20_000, "greedy", seed + 5, jobs=2, env=env))
    show("lookahead, 1 job", whole(1_000, "lookahead", seed + 6, env=env))
    show("greedy 4000 (strength)", whole(4_000, "greedy", 1, env=env))
    show("lookahead 4000 (strength)", whole(4_000, "lookahead", 1, env=env))
    if args.million:
        show("random, 1,000,000 (memory)", whole(1_000_000, "random", seed + 7, env=env))
    in_process(seed + 8, 20_000, 4_000)
    print(f"load: {os.getloadavg()}")


if __name__ == "__main__":
    main()
