"""A checkout that is not built runs ``kernel.py`` as Python: it must play the very games of
the compiled module, through every caller (the checked engine's rules, the Python bots'
evaluation, the kernel's own bots).

Two processes play the same seeds, one importing the compiled module and one the source (as
an unbuilt checkout does: a finder hands out ``kernel.py`` for ``mapkit.engine.kernel``); their
games, every card, move and score, must be identical.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from mapkit.engine import kernel

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """
import importlib.abc, importlib.util, json, random, sys

if sys.argv[1] == "source":
    class SourceKernel(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == "mapkit.engine.kernel":
                return importlib.util.spec_from_file_location(name, sys.argv[2])
            return None

    sys.meta_path.insert(0, SourceKernel())

from mapkit.bots import make_bot
from mapkit.bots.greedy import EXTRA_ACTION
from mapkit.engine import Game, kernel
from mapkit.engine.seats import seat_seed
from mapkit.mapfile import load_map

def checked(game, bots, seed):
    players = [make_bot(name) for name in bots]
    for p, bot in enumerate(players):
        bot.rng = random.Random(seat_seed(seed, p))
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal()
        else:
            state.apply_action(players[state.current_player()].choose(state))
    return {"history": state.history(), "returns": state.returns()}

city = load_map(sys.argv[3])
out = {"compiled": kernel.COMPILED, "games": []}
for bots, special, seeds in [
    (("greedy", "lookahead"), False, (1,)),
    (("clairvoyant",), True, (3,)),
    (("random", "greedy", "random"), True, (4,)),
]:
    game = Game(city, players=len(bots), special_stations=special)
    for seed in seeds:
        out["games"].append(checked(game, bots, seed))
game = Game(city, players=2)
la = make_bot("lookahead")
params = kernel.bot_params(la.weights, la.noise, EXTRA_ACTION, la.width, la.discount)
k = kernel.Kernel(game.tables.kernel, ("greedy", "lookahead"), False, params, game.ruleset)
out["kernel"] = [k.play_history(seed) for seed in (5,)]
print(json.dumps(out, default=int))
"""


def _start(which: str) -> subprocess.Popen[str]:
    kernel_py = ROOT / "mapkit" / "engine" / "kernel.py"
    city = ROOT / "maps" / "madrid.json"
    return subprocess.Popen(
        [sys.executable, "-c", PROGRAM, which, str(kernel_py), str(city)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def _result(process: subprocess.Popen[str]) -> dict:
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err[-2000:]
    return json.loads(out)


def test_the_source_plays_the_games_of_the_compiled_kernel() -> None:
    assert kernel.COMPILED, "this checkout's kernel is not built: python -m mapkit.kernel_build"
    running = _start("compiled"), _start("source")  # side by side: the source is the slow one
    compiled, source = (_result(p) for p in running)
    assert (compiled["compiled"], source["compiled"]) == (True, False)
    assert len(source["games"]) == 3 and all(g["history"] for g in source["games"])
    assert source["games"] == compiled["games"]
    assert source["kernel"] == compiled["kernel"]
