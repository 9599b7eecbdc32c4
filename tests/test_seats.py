"""Seats: the player-count bounds, the bots' seat names and seeds, named once."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mapkit.engine import Game
from mapkit.engine.seats import (
    BOT_SEAT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_RANGE,
    play_bot_seed,
    seat_names,
    seat_seed,
    valid_player_count,
)
from mapkit.mapfile import load_map

ROOT = Path(__file__).resolve().parent.parent


def test_the_record_schema_has_the_engine_bounds() -> None:
    schema = json.loads((ROOT / "schemas" / "game.schema.json").read_text(encoding="utf-8"))
    players = schema["properties"]["players"]
    assert (players["minItems"], players["maxItems"]) == (MIN_PLAYERS, MAX_PLAYERS)
    assert players["description"].startswith(PLAYER_RANGE)


def test_game_takes_exactly_the_player_range() -> None:
    city = load_map(ROOT / "maps" / "berlin.json")
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        assert valid_player_count(n) and Game(city, players=n).num_players() == n
    for n in (MIN_PLAYERS - 1, MAX_PLAYERS + 1):
        assert not valid_player_count(n)
        with pytest.raises(ValueError, match=f"players must be {PLAYER_RANGE}, not {n}"):
            Game(city, players=n)


def test_seat_names_parse_back_to_their_bot_and_place() -> None:
    names = seat_names(["greedy", "random", "greedy"])
    assert names == ["greedy-1", "random-2", "greedy-3"]
    parsed = [(m["bot"], int(m["number"])) for m in map(BOT_SEAT.fullmatch, names) if m]
    assert parsed == [("greedy", 1), ("random", 2), ("greedy", 3)]
    assert BOT_SEAT.fullmatch(f"greedy-{MAX_PLAYERS + 1}") is None


def test_the_published_seed_conventions_hold() -> None:
    """Reports and records published with mapkit depend on these streams: changing either
    changes every game."""
    assert random.Random(seat_seed(41, 2)).random() == random.Random(41 * 7 + 2).random()
    assert play_bot_seed(7, 1) == 7001
