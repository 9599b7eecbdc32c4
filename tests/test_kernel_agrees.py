"""Differential harness (OpenSpiel's consistency tests): the kernel plays the checked games.

The same seeds are played twice: seat by seat through the checked ``State`` (``deal()``,
the Python bots' ``choose``, ``apply_action`` with every rule checked) and whole in the kernel
(``mapkit.engine.kernel``). The two must give identical games: every card, every move, every
final sheet and score, and the same game record (the kernel's written from its own
``play_turns``, the checked engine's by replaying its history); on every shipped city,
example map and benchmark map, for 1 to 6 players, both variants, random, greedy and
lookahead seats.

``MAPKIT_HARNESS_SCALE=20 python -m pytest tests/test_kernel_agrees.py`` plays 20 times as
many games (the longer run of docs/engine.md).
"""

from __future__ import annotations

import os
import random
from itertools import cycle, islice
from pathlib import Path

import pytest

from mapkit.bots import make_bot
from mapkit.bots.greedy import EXTRA_ACTION
from mapkit.engine import Game, GameOptions
from mapkit.engine.kernel import Kernel, bot_params
from mapkit.engine.record import record_from_history, record_from_turns
from mapkit.engine.seats import seat_seed
from mapkit.mapfile import load_map
from mapkit.simulate.runner import game_seed, kernel_for

ROOT = Path(__file__).resolve().parent.parent
MAPS = sorted(
    [
        *ROOT.glob("maps/*.json"),
        *ROOT.glob("examples/*.json"),
        *ROOT.glob("examples/games/maps/*.json"),
        *ROOT.glob("benchmarks/maps/*.json"),
    ]
)
SCALE = int(os.environ.get("MAPKIT_HARNESS_SCALE", "1"))


def _params(build=bot_params):
    """The bots' default parameters, as ``build`` (a kernel module's ``bot_params``) takes them."""
    la = make_bot("lookahead")
    return build(la.weights, la.noise, EXTRA_ACTION, la.width, la.discount)


def _checked_game(game: Game, bots: tuple[str, ...], seed: int):
    """The game of ``seed`` through the checked engine: seat ``p`` is ``bots[p]`` seeded with
    ``seat_seed(seed, p)`` (as ``mapkit simulate`` seeds them)."""
    players = [make_bot(name) for name in bots]
    for p, bot in enumerate(players):
        bot.rng = random.Random(seat_seed(seed, p))
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal()
        else:
            state.apply_action(players[state.current_player()].choose(state))
    return state


def _agree(game: Game, kernel: Kernel, bots: tuple[str, ...], seed: int) -> None:
    state = _checked_game(game, bots, seed)
    history, turns = kernel.play_turns(seed)
    assert history == state.history(), (bots, seed)
    names = [f"p{p}" for p in range(len(bots))]
    assert record_from_turns(game, history, turns, names, seed) == record_from_history(
        game, state.history(), names, seed
    ), (bots, seed)  # the kernel writes the checked engine's record
    for p in range(len(bots)):
        assert kernel.sheet(p) == (state.marked(p), state.boxed(p), state.line_points(p))
    batch = kernel.play_batch([seed])
    assert batch.scores[0].tolist() == state.scores()
    assert int(batch.rounds[0]) == state.round()


def _seatings(players: int) -> list[tuple[str, ...]]:
    mixed = tuple(islice(cycle(("greedy", "random")), players))
    return [("random",) * players, ("greedy",) * players, mixed]


def agree_in_every_seating(game: Game, seeds: range) -> None:
    """The kernel plays ``seeds``' checked games of ``game`` for random, greedy and mixed seats
    (the harness other test files run on their own maps, rulesets and mechanics)."""
    for bots in _seatings(game.num_players()):
        kernel = kernel_for(game, bots)
        for seed in seeds:
            _agree(game, kernel, bots, seed)


@pytest.mark.parametrize("path", MAPS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_kernel_plays_the_checked_games(path: Path) -> None:
    city = load_map(path)
    games = 0
    for players in range(1, 7):
        for special in (False, True):
            game = Game(city, GameOptions(players, special))
            for bots in _seatings(players):
                kernel = kernel_for(game, bots)
                n = (4 if players == 1 else 2) * SCALE
                for i in range(n):
                    _agree(game, kernel, bots, game_seed(players * 2 + special, i))
                    games += 1
    assert games == 84 * SCALE


@pytest.mark.parametrize("path", ["maps/berlin.json", "maps/madrid.json"])
def test_kernel_lookahead_plays_the_checked_games(path: str) -> None:
    city = load_map(ROOT / path)
    for players, special in ((1, False), (1, True), (3, True)):
        game = Game(city, GameOptions(players, special))
        bots = tuple(islice(cycle(("lookahead", "greedy", "random")), players))
        kernel = kernel_for(game, bots)
        for i in range(2 * SCALE):
            _agree(game, kernel, bots, game_seed(99, i))


def test_many_random_games_agree() -> None:
    """Random seats are cheap to check: 500 games more, solo and 4 players, Berlin."""
    city = load_map(ROOT / "maps/berlin.json")
    for players, n in ((1, 400), (4, 100)):
        game = Game(city, GameOptions(players))
        bots = ("random",) * players
        kernel = kernel_for(game, bots)
        for i in range(n * SCALE):
            _agree(game, kernel, bots, game_seed(7, i))
