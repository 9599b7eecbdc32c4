"""From a real network to a playable size: which lines stay, which stations stay.

The published sheets have 9-10 lines and 65-78 stations. Lines are kept from the
largest connected network (a separate one would be a game of its own), grown from its
longest line by the longest line that meets it, up to ``max_lines``. Stations are then
thinned to ``max_stations``: termini and interchanges always stay; of the rest, the
station whose removal leaves the shortest stretch between its neighbours goes first, so
dense stretches thin out and the stops that stay are evenly spread.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
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
    """At most ``max_lines`` lines, in letter order: the largest connected network grown
    from its longest line, always by the longest line that meets those kept; with
    ``separate``, then the other networks likewise."""
    kept: list[DraftLine] = []
    for part in _networks(lines)[: None if separate else 1]:
        rest = sorted(part, key=lambda ln: (-len(ln.stops), ln.order))
        reached: set[str] = set()
        while rest and len(kept) < max_lines:
            pick = next((ln for ln in rest if reached & set(ln.stops)), rest[0])
            rest.remove(pick)
            kept.append(pick)
            reached.update(pick.stops)
    return sorted(kept, key=lambda ln: ln.order)


def _networks(lines: list[DraftLine]) -> list[list[DraftLine]]:
    """The lines in connected networks, the most stations first."""
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

    return sorted(parts.values(), key=rank)


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
    """Drop stations (in place, from ``lines``) until no line has more than ``MAX_STOPS`` and
    at most ``max_stations`` remain; returns the dropped place ids in the order they went.

    Each line is a chain of neighbours and the candidates sit in a heap by the stretch
    their removal would leave, so a feed of thousands of stops thins in a blink."""
    fixed = anchors(lines)
    if len(fixed) > max_stations:
        raise ImportFailure(
            f"the network has {len(fixed)} termini and interchanges, more than "
            f"--max-stations {max_stations}: raise it, or keep fewer lines (--max-lines)"
        )
    run = _Thinning(network, lines, fixed)
    for k, ln in enumerate(lines):
        if run.size[k] > MAX_STOPS:
            own = run.heap_of(s for s in ln.stops if s in run.line_of)
            if not run.drop_from(own, lambda k=k: run.size[k] <= MAX_STOPS):
                raise ImportFailure(
                    f"line {ln.route.name} has more than {MAX_STOPS} termini and "
                    f"interchanges; a map's line has at most {MAX_STOPS} stops"
                )
    total = len({s for ln in lines for s in ln.stops})
    everyone = run.heap_of(s for s in run.line_of if s not in run.gone)
    run.drop_from(everyone, lambda: total - len(run.gone) <= max_stations)
    for ln in lines:
        ln.stops = [s for s in ln.stops if s not in run.gone]
    return run.dropped


class _Thinning:
    """The lines as chains of neighbours (``before``, ``after``) while stations are dropped;
    ``line_of``: the line of each station that may go (no terminus or interchange)."""

    def __init__(self, network: Network, lines: list[DraftLine], fixed: set[str]) -> None:
        self.lines, self.places = lines, network.places
        self.line_of = {s: k for k, ln in enumerate(lines) for s in ln.stops if s not in fixed}
        self.before: dict[tuple[int, str], str] = {}
        self.after: dict[tuple[int, str], str] = {}
        for k, ln in enumerate(lines):
            n = len(ln.stops)
            for i, s in enumerate(ln.stops):
                if ln.loop or i > 0:
                    self.before[k, s] = ln.stops[i - 1]
                if ln.loop or i < n - 1:
                    self.after[k, s] = ln.stops[(i + 1) % n]
        self.size = [len(ln.stops) for ln in lines]
        self.gaps: dict[str, float] = {}
        self.dropped: list[str] = []
        self.gone: set[str] = set()

    def gap(self, s: str) -> float:
        """The stretch dropping ``s`` would leave between its neighbours (m)."""
        k = self.line_of[s]
        return distance_m(self.places[self.before[k, s]], self.places[self.after[k, s]])

    def heap_of(self, stations: Iterable[str]) -> list[tuple[float, str]]:
        heap = []
        for s in stations:
            self.gaps[s] = self.gap(s)
            heap.append((self.gaps[s], s))
        heapq.heapify(heap)
        return heap

    def drop_from(self, heap: list[tuple[float, str]], enough: Callable[[], bool]) -> bool:
        """Drop the station leaving the shortest stretch until ``enough``; False when the
        heap runs out first. A line keeps two stops (a loop three)."""
        while not enough():
            if not heap:
                return False
            g, s = heapq.heappop(heap)
            if s in self.gone or g != self.gaps[s]:
                continue
            k = self.line_of[s]
            if self.size[k] <= (3 if self.lines[k].loop else 2):
                continue
            p, q = self.before.pop((k, s)), self.after.pop((k, s))
            self.after[k, p], self.before[k, q] = q, p
            self.size[k] -= 1
            self.gone.add(s)
            self.dropped.append(s)
            for t in (p, q):
                if t in self.line_of and t not in self.gone:
                    self.gaps[t] = self.gap(t)
                    heapq.heappush(heap, (self.gaps[t], t))
        return True
