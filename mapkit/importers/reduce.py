"""From a real network to a playable size: which lines stay, which stations stay.

The published sheets have 9-10 lines and 65-78 stations. Lines are kept longest
first up to ``max_lines``, then only the largest connected network (a separate one
would be a game of its own). Stations are then thinned to ``max_stations``: termini
and interchanges always stay; of the rest, the station whose removal leaves the
shortest stretch between its neighbours goes first, so dense stretches thin out
and the stops that stay are evenly spread.
"""

from __future__ import annotations

from dataclasses import dataclass

from mapkit.importers.network import ImportFailure, Network, Route
from mapkit.importers.stations import distance_m

MAX_STOPS = 100
"""The most stops a line may have (the schema's bound)."""


@dataclass
class DraftLine:
    """One line of the map being made: a route's piece (its trunk, a branch, ...)."""

    route: Route
    piece: int
    stops: list[str]
    loop: bool = False

    @property
    def order(self) -> tuple:
        return (self.route.order, self.piece)


def keep_lines(lines: list[DraftLine], max_lines: int, separate: bool) -> list[DraftLine]:
    """The lines to keep: the longest ``max_lines``, then the largest connected network
    unless ``separate``; in letter order."""
    ranked = sorted(lines, key=lambda ln: (-len(ln.stops), ln.order))[:max_lines]
    if not separate and ranked:
        ranked = _largest_network(ranked)
    return sorted(ranked, key=lambda ln: ln.order)


def _largest_network(lines: list[DraftLine]) -> list[DraftLine]:
    parent = list(range(len(lines)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[str, int] = {}
    for i, ln in enumerate(lines):
        for s in ln.stops:
            parent[find(i)] = find(first.setdefault(s, i))
    parts: dict[int, list[DraftLine]] = {}
    for i, ln in enumerate(lines):
        parts.setdefault(find(i), []).append(ln)

    def rank(part: list[DraftLine]) -> tuple:
        return (-len({s for ln in part for s in ln.stops}), min(ln.order for ln in part))

    return min(parts.values(), key=rank)


def anchors(lines: list[DraftLine]) -> set[str]:
    """Stations that must stay: termini, and stations on two lines or more."""
    count: dict[str, int] = {}
    for ln in lines:
        for s in ln.stops:
            count[s] = count.get(s, 0) + 1
    keep = {s for s, n in count.items() if n > 1}
    for ln in lines:
        if not ln.loop:
            keep.update((ln.stops[0], ln.stops[-1]))
    return keep


def thin(network: Network, lines: list[DraftLine], max_stations: int) -> list[str]:
    """Drop stations (in place, from ``lines``) until at most ``max_stations`` remain and
    no line has more than ``MAX_STOPS``; returns the dropped place ids in the order they went."""
    stations = {s for ln in lines for s in ln.stops}
    fixed = anchors(lines)
    if len(fixed) > max_stations:
        raise ImportFailure(
            f"the network has {len(fixed)} termini and interchanges, more than "
            f"--max-stations {max_stations}: raise it, or keep fewer lines (--max-lines)"
        )
    line_of = {s: ln for ln in lines for s in ln.stops if s not in fixed}
    places = network.places

    def gap(s: str) -> float:
        ln = line_of[s]
        i = ln.stops.index(s)
        n = len(ln.stops)
        if ln.loop:
            before, after = ln.stops[i - 1], ln.stops[(i + 1) % n]
        else:
            before, after = ln.stops[i - 1], ln.stops[i + 1]
        return distance_m(places[before], places[after])

    def droppable(s: str, within: DraftLine | None) -> bool:
        ln = line_of[s]
        return (within is None or ln is within) and len(ln.stops) > (3 if ln.loop else 2)

    dropped: list[str] = []
    while True:
        long = next((ln for ln in lines if len(ln.stops) > MAX_STOPS), None)
        if len(stations) <= max_stations and long is None:
            break
        candidates = [s for s in line_of if droppable(s, long)]
        if not candidates:
            if long is not None:
                raise ImportFailure(
                    f"line {long.route.name} has more than {MAX_STOPS} termini and "
                    f"interchanges; a map's line has at most {MAX_STOPS} stops"
                )
            break
        victim = min(candidates, key=lambda s: (gap(s), s))
        line_of.pop(victim).stops.remove(victim)
        stations.discard(victim)
        dropped.append(victim)
    return dropped
