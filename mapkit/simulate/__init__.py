"""Play many games of a map with bots and report what they say about the map.

``run(city, RunConfig(...), jobs)`` plays the games and keeps their counts (a ``Tally``: any
number of games, what ``mapkit simulate`` does); ``simulate`` keeps every game's
:class:`GameOutcome` instead (what the design figures read). ``summarize`` turns either into
a :class:`Report`; ``report.to_text`` / ``report.to_json`` print it. Both play through a
:class:`GameRunner`, by the engine ``RunConfig.engine`` chooses (the kernel or the checked
engine; the same games either way). See docs/simulate.md for every figure.
"""

from mapkit.simulate.outcome import GameOutcome, SeatOutcome
from mapkit.simulate.runner import GameRunner, RunConfig, game_seed, run, simulate
from mapkit.simulate.stats import Report, summarize

__all__ = [
    "GameOutcome", "GameRunner", "Report", "RunConfig", "SeatOutcome", "game_seed", "run",
    "simulate", "summarize",
]  # fmt: skip
