"""Default run sizes scaled to a map's size, so that ``report`` and ``tune`` on a big legal map
finish in bounded time.

The cost of one game grows with its rounds, about the map's windows, and the measurements that
play the rest of the game out from every turn (decisions, tension) grow with their square: a
map at the schema bounds (26 lines of 8 windows, 208 in all) costs about 80 times a shipped
city (22-23 windows) per decision game. The stations set the cost of a move's candidates and of
validating every map ``tune`` tries (a 231-station grid of 42 windows: about 9 s of CPU a tune
step against under 1 s). The **factor** of a map is the larger of its windows // 24 and its
stations // 72 (at least 1: every shipped city and benchmark sheet is 1, and nothing changes
for it). On a map of factor ``f`` the commands'
defaults become: games, tension, decision and mixed games divided by ``f`` (at least their
minimum), decisions valued at every ``f``-th turn and tension evaluated every ``2 f`` rounds
(as many evaluation points a game as on a shipped city), and no sensitivity table (104 edited
maps to validate on the bounds map). Options given on the command line are kept as given.
"""

from __future__ import annotations

from mapkit.mapfile.model import CityMap

WINDOWS_PER_FACTOR = 24
"""About a shipped city's windows (22 to 23): the unit of a map's size in rounds."""
STATIONS_PER_FACTOR = 72
"""About a shipped city's stations (65 to 73): the unit of a map's size in stations."""


def factor(city: CityMap) -> int:
    """How many shipped cities the map is worth: the larger of ``windows // 24`` and
    ``stations // 72``, at least 1."""
    return max(1, windows(city) // WINDOWS_PER_FACTOR, len(city.stations) // STATIONS_PER_FACTOR)


def scaled(default: int, f: int, least: int = 1) -> int:
    """A default count for a map of factor ``f``: ``default // f``, at least ``least``."""
    return max(least, default // f)


def windows(city: CityMap) -> int:
    """The map's windows, all lines together."""
    return sum(ln.windows for ln in city.lines)


def note(city: CityMap, changed: dict[str, object]) -> str:
    """One line for stderr naming the defaults scaled for ``city`` ('' when none were)."""
    if not changed:
        return ""
    what = ", ".join(k if v is True else f"{k} {v}" for k, v in changed.items())
    return (
        f"mapkit: a map of {windows(city)} windows and {len(city.stations)} stations "
        f"({factor(city)}x a shipped city): "
        f"defaults scaled to {what} (give an option to set it)"
    )
