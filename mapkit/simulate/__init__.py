"""Simulate many games of a map with bots and report what they say about the map.

``simulate(city, RunConfig(...), jobs)`` plays the games (same results for any
``jobs``); ``summarize`` turns outcomes into a :class:`Report`; ``report.to_text`` /
``report.to_json`` print it. See docs/simulate.md for every figure.
"""

from mapkit.simulate.outcome import GameOutcome, SeatOutcome
from mapkit.simulate.runner import RunConfig, game_seed, play_games, simulate
from mapkit.simulate.stats import Report, summarize

__all__ = [
    "GameOutcome", "Report", "RunConfig", "SeatOutcome", "game_seed", "play_games", "simulate",
    "summarize",
]  # fmt: skip
