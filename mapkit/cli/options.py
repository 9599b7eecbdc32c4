"""Bounds on numeric and address options: an absurd value is one line and exit 2, found
before any work (a run of 10^26 games, a thousand processes, a target of 1e308 points)."""

from __future__ import annotations

import math
import re

import typer

from mapkit.cli.common import fail

MAX_GAMES = 10**9
"""The most games (or decks) one command plays: about 6 hours of random games on a core."""

MAX_TIME_LIMIT = 7 * 24 * 3600.0
"""A week: ``--time-limit`` beyond it is a typo."""

MAX_STEPS = 1000
"""``tune --steps``: edits accepted one at a time; a map has far fewer worth making."""

MAX_SCORE = 10_000
"""``tune --mean``: above what any map at the schema bounds can score."""


def games(value: int, option: str = "--games", minimum: int = 1) -> int:
    """``value`` when it is a sane number of games, else exit 2."""
    if not minimum <= value <= MAX_GAMES:
        fail(f"{option} must be from {minimum} to {MAX_GAMES:,}, not {_short(value)}", 2)
    return value


def seats(city, players: int, option: str | None = "--players") -> None:  # type: ignore[no-untyped-def]
    """Exit 2 (one line) unless ``city``'s ruleset is played by ``players`` and solo, as every
    design measure needs (the library's check, ``mapkit.design.profile.check_seats``)."""
    from mapkit.design.profile import check_seats

    try:
        check_seats(city, players)
    except ValueError as exc:
        fail(f"{option} {players}: {exc}" if option else str(exc), 2)


def jobs(value: int, option: str = "--jobs") -> int:
    """The processes to run: 0 means one per core; more than the cores is capped at the
    cores (with a note on stderr), since CPU-bound workers beyond them only add memory."""
    from mapkit.workers import cores

    if value < 0:
        fail(f"{option} must be 0 (one per core) or more", 2)
    n = cores()
    if value == 0:
        return n
    if value > n:
        typer.echo(f"mapkit: {option} {_short(value)} capped at {n}, the cores here", err=True)
        return n
    return value


def number(value: float | None, option: str, low: float, high: float) -> float | None:
    """A finite ``value`` from ``low`` to ``high`` (None stays None), else exit 2."""
    if value is None:
        return None
    if not math.isfinite(value) or not low <= value <= high:
        fail(f"{option} must be a number from {low:g} to {high:g}, not {value:g}", 2)
    return value


def time_limit(value: float | None) -> float | None:
    """``--time-limit`` in seconds: above 0 and at most a week."""
    if value is not None and not (math.isfinite(value) and 0 < value <= MAX_TIME_LIMIT):
        fail(f"--time-limit must be seconds above 0 and at most {MAX_TIME_LIMIT:g}", 2)
    return value


_ADDRESS = re.compile(
    r"(?:(?P<scheme>[a-z][a-z0-9+.-]*)://)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})"
)
SCHEMES = ("tcp", "tls")


def cluster_address(value: str) -> str:
    """A Dask scheduler address ``[tcp://|tls://]HOST:PORT`` (IPv6 in brackets), else exit 2."""
    m = _ADDRESS.fullmatch(value.strip())
    scheme = m["scheme"] if m else None
    if m is None or scheme not in (None, *SCHEMES) or not 0 < int(m["port"]) < 65536:
        fail(
            f"--cluster {value!r} is not a scheduler address: give tcp://HOST:PORT"
            " (or tls://; an IPv6 host in brackets, tcp://[::1]:8786)",
            2,
        )
    return value.strip()


def _short(value: int) -> str:
    text = str(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"
