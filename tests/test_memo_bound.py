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


def test_memos_stay_within_their_byte_budget_and_play_the_same_games(benchmark_maps, monkeypatch):
    """Past ``MEMO_BYTES`` (estimated) every memo of the map starts over; play is unchanged."""
    unbounded = _games(Game(load_map(benchmark_maps / "metro-city.json")))
    monkeypatch.setattr(tables, "MEMO_BYTES", 20_000)
    game = Game(load_map(benchmark_maps / "metro-city.json"))
    assert _games(game) == unbounded
    budget = game.tables.budget
    assert budget.resets > 0 and 0 < budget.used <= 20_000
    held = sum(tables.entry_bytes(v) for m in budget.memos for v in m.values())
    assert held == budget.used


def test_a_map_at_the_bounds_holds_no_more_than_the_budget(monkeypatch):
    """26 lines of 100 stops: one entry holds up to 100 outcomes (~30 KB each)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from bounds_map import bounds_map

    from mapkit.mapfile import load_source

    monkeypatch.setattr(tables, "MEMO_BYTES", 2 << 20)
    city = load_source(__import__("json").dumps(bounds_map())).map
    game = Game(city)
    bot = make_bot("random")
    state = game.new_initial_state(0)
    while not state.is_terminal():
        state.deal() if state.is_chance_node() else state.apply_action(bot.choose(state))
    budget = game.tables.budget
    assert budget.resets > 0 and budget.used <= 2 << 20
