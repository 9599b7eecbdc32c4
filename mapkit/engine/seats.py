"""Seats at the table: how many players a game has, what the bots' seats are called and
which random stream each seat's bot draws from.

The seeds are part of every published result (a report's figures, a record's bots), so they
are computed here only: ``mapkit simulate``, the design measures and the kernel seed a seat
with :func:`seat_seed`; ``mapkit play`` seeds its bots with :func:`play_bot_seed`, the older
convention its records were made with (kept so that a resumed game plays on the same).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

MIN_PLAYERS = 1
MAX_PLAYERS = 6
PLAYER_RANGE = f"{MIN_PLAYERS} to {MAX_PLAYERS}"
"""The rulebook's table, in words for messages: one player is the solo game."""

SEAT_SEED_STRIDE = 7
"""Seat ``p`` of game seed ``s`` draws from ``random.Random(s * 7 + p)`` (the kernel reproduces
that stream in C: ``kernel._mt_seed``)."""

PLAY_SEED_STRIDE = 1000

BOT_SEAT = re.compile(rf"(?P<bot>[a-z]+)-(?P<number>[1-{MAX_PLAYERS}])")
"""A bot's seat name: the bot and its 1-based place among the bots (``greedy-1``)."""


def valid_player_count(n: int) -> bool:
    return MIN_PLAYERS <= n <= MAX_PLAYERS


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of seat ``seat``'s bot in the game of seed ``game_seed``."""
    return game_seed * SEAT_SEED_STRIDE + seat


def play_bot_seed(session_seed: int, bot: int) -> int:
    """The seed of ``mapkit play``'s ``bot``-th bot (0-based among the bots) for ``--seed``."""
    return session_seed * PLAY_SEED_STRIDE + bot


def seat_names(bots: Sequence[str]) -> list[str]:
    """The bots' seat names, in seat order: ``greedy-1``, ``random-2``, ..."""
    return [f"{name}-{i + 1}" for i, name in enumerate(bots)]
