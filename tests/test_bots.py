"""Bots: known best moves on tiny maps, legality and model agreement, reproducibility."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mapkit.bots import BOTS, make_bot
from mapkit.bots.base import view_of
from mapkit.engine import Game, card_kind
from mapkit.mapfile import build_map, load_map
from mapkit.resources import shipped_maps

SEARCHING = ["greedy", "lookahead"]


def _station(sid: str, x: float, y: float = 0, special: bool = False) -> dict:
    return {"id": sid, "x": x, "y": y, **({"special": True} if special else {})}


def _line(lid: str, stops: list[str], windows: int, first: int, others: int, y: float) -> dict:
    return {
        "id": lid,
        "color": "#d11e29",
        "windows": windows,
        "points": {"first": first, "others": others},
        "depot": {"x": -2, "y": y},
        "stops": stops,
    }


def _city(stations: list[dict], lines: list[dict]):
    return build_map(
        {"format": "mapkit-map/1", "id": "t", "name": "T", "stations": stations, "lines": lines}
    )


def _state(city, card: str, players: int = 1):
    state = Game(city, players=players).new_initial_state(0)
    state.apply_action(card_kind(card))
    return state


def _move(state, bot: str) -> dict:
    return state.action_to_move(make_bot(bot, 1).choose(state))


@pytest.fixture
def complete_now():
    """A 3 completes line A (5 points); line B is long and pays little."""
    stations = [_station(s, i) for i, s in enumerate("abcdefgh")]
    lines = [
        _line("A", ["a", "b", "c"], 1, 5, 3, 0),
        _line("B", ["d", "e", "f", "g", "h"], 2, 1, 1, 1),
    ]
    return _city(stations, lines)


@pytest.mark.parametrize("bot", SEARCHING)
def test_completes_the_line_that_a_card_fits(complete_now, bot):
    assert _move(_state(complete_now, "3"), bot) == {"line": "A", "crosses": 3}


@pytest.mark.parametrize("bot", SEARCHING)
def test_interchange_goes_where_most_lines_meet(bot):
    stations = [_station("hub", 0), _station("p", 1), _station("q", 2), _station("r", 3)]
    lines = [
        _line("A", ["hub", "p"], 1, 2, 1, 0),
        _line("B", ["q", "hub"], 1, 2, 1, 1),
        _line("C", ["r", "hub"], 1, 2, 1, 2),
    ]
    assert _move(_state(_city(stations, lines), "+"), bot) == {"line": "A"}


@pytest.mark.parametrize("bot", SEARCHING)
def test_free_ride_completes_a_line(bot):
    stations = [_station(s, i) for i, s in enumerate("abcd")]
    lines = [_line("A", ["a"], 1, 4, 2, 0), _line("B", ["b", "c", "d"], 2, 2, 1, 1)]
    assert _move(_state(_city(stations, lines), "free"), bot) == {"station": "a"}


@pytest.mark.parametrize("bot", SEARCHING)
def test_express_skips_to_finish_a_line(bot):
    """Last window, x3 on A: a is marked by B's move; the express passes it to b and c."""
    stations = [_station(s, i) for i, s in enumerate("abcdef")]
    lines = [
        _line("A", ["a", "b", "c"], 1, 6, 3, 0),
        _line("B", ["a", "d", "e", "f"], 1, 1, 1, 1),
    ]
    state = Game(_city(stations, lines), players=1).new_initial_state(0)
    state.apply_action(card_kind("3"))
    state.apply_action(state.move_to_action({"line": "B", "crosses": 1}))
    state.apply_action(card_kind("x3"))
    assert _move(state, bot) == {"line": "A", "crosses": 2}


def test_registry_and_unknown_name():
    assert set(BOTS) == {"random", "greedy", "lookahead", "clairvoyant"}
    with pytest.raises(KeyError, match="unknown bot 'nope'"):
        make_bot("nope")


def _play(game, bots, seed):
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal()
        else:
            a = bots[state.current_player()].choose(state)
            assert a in state.legal_actions()
            state.apply_action(a)
    return state


@pytest.mark.parametrize("name", list(BOTS))
def test_same_seed_same_game(name, benchmark_maps):
    city = load_map(benchmark_maps / "metro-city.json")
    game = Game(city, players=2)
    one = _play(game, [make_bot(name, 3), make_bot(name, 4)], 11)
    two = _play(game, [make_bot(name, 3), make_bot(name, 4)], 11)
    assert one.history() == two.history()
    assert one.returns() == two.returns()


def test_random_bot_differs_by_seed(benchmark_maps):
    city = load_map(benchmark_maps / "metro-city.json")
    game = Game(city, players=1)
    assert (
        _play(game, [make_bot("random", 1)], 5).history()
        != _play(game, [make_bot("random", 2)], 5).history()
    )


def test_stronger_bots_score_more_on_the_same_decks(benchmark_maps):
    """Deterministic: 12 fixed decks of Metro City, solo."""
    city = load_map(benchmark_maps / "metro-city.json")
    game = Game(city, players=1)
    mean = {
        name: sum(_play(game, [make_bot(name, 0)], s).score(0) for s in range(12)) / 12
        for name in ("random", "greedy", "lookahead", "clairvoyant")
    }
    assert mean["random"] < mean["greedy"] < mean["lookahead"] < mean["clairvoyant"]


def _maps():
    return [load_map(p) for p in shipped_maps()]


@settings(max_examples=25, deadline=None)
@given(
    pick=st.integers(0, 10**6),
    steps=st.integers(0, 60),
    players=st.integers(1, 3),
    special=st.booleans(),
)
def test_predicted_marks_match_the_engine(pick, steps, players, special):
    """Every greedy candidate is legal, and the engine marks exactly what the bot predicted."""
    cities = _maps()
    if not cities:
        pytest.skip("no shipped maps")
    city = cities[pick % len(cities)]
    game = Game(city, players=players, special_stations=special)
    rng = random.Random(pick)
    state = game.new_initial_state(pick)
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.deal()
        else:
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.random() * len(acts))])
    while state.is_chance_node():
        state.deal()
    if state.is_terminal():
        return
    bot = make_bot("greedy")
    p = state.current_player()
    v = view_of(state, bot.compiled(state))
    legal = set(state.legal_actions())
    for move in bot.scored(state, v):
        a = bot.action(state, move)
        assert a in legal
        after = state.clone()
        after.apply_action(a)
        assert after.marked(p) == v.marked | move[4]


def test_random_bot_plays_uniformly_on_a_small_state():
    """The random bot's choice has the distribution of ``rng.choice(legal_actions())``."""
    stations = [_station(s, i) for i, s in enumerate("abcdef")]
    lines = [_line("A", ["a", "b", "c", "d"], 2, 5, 3, 0), _line("B", ["e", "c", "f"], 2, 3, 1, 1)]
    state = _state(_city(stations, lines), "4")
    legal = state.legal_actions()
    bot = make_bot("random", 5)
    counts = dict.fromkeys(legal, 0)
    draws = 400 * len(legal)
    for _ in range(draws):
        counts[bot.choose(state)] += 1
    exp = draws / len(legal)
    assert sum((c - exp) ** 2 / exp for c in counts.values()) < 3 * len(legal) + 20
