"""Memo tables are bounded (issue 10, point 4): a full memo starts over, and play is unchanged."""

from __future__ import annotations

import random

from mapkit.bots import make_bot
from mapkit.engine import Game, tables
from mapkit.mapfile import load_map


def _games(game: Game) -> list[list[int]]:
    """The histories of six greedy games."""
    out = []
    for seed in range(6):
        bot = make_bot("greedy")
        bot.rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.deal()
            else:
                state.apply_action(bot.choose(state))
        out.append(state.history())
    return out


def test_memos_stay_within_their_bound_and_play_the_same_games(benchmark_maps, monkeypatch):
    city = load_map(benchmark_maps / "metro-city.json")
    unbounded = _games(Game(city))
    fresh = load_map(benchmark_maps / "metro-city.json")  # a new map object: empty memos
    monkeypatch.setattr(tables, "MEMO_ENTRIES", 8)
    game = Game(fresh)
    assert _games(game) == unbounded
    t = game.tables
    sizes = [len(m) for m in (*t.memo, *t.choice_memo)]
    assert max(sizes) <= 8
    assert sum(sizes) > 8  # the games did fill them
