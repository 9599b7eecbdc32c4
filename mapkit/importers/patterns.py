"""One route's stop patterns merged into the lines it comes in as.

A route runs several patterns: both directions, short turns, express runs, branches,
split operations. The longest pattern is the trunk; every other pattern then adds its
stretches of stations not yet covered, each with the covered station it leaves from
(and the one it rejoins). A stretch that leaves from a line's terminus extends that
line; any other stretch is a line of its own (a branch, or a separate piece of the
route), so the route comes in whole. Stretches of a single station that rejoin the
line they left (one-way loops, diversions) are left out and reported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mapkit.importers.network import Pattern


@dataclass(frozen=True)
class Piece:
    """A simple path (or a cycle, ``loop``) of stations: one line of the map."""

    stops: Pattern
    loop: bool = False


@dataclass(frozen=True)
class Merged:
    pieces: tuple[Piece, ...]
    left_out: frozenset[str]
    """Stations on one-station variants that rejoin their line."""


@dataclass(frozen=True)
class _Stretch:
    run: Pattern
    before: str | None
    after: str | None

    @property
    def stops(self) -> Pattern:
        head = (self.before,) if self.before is not None else ()
        tail = (self.after,) if self.after is not None else ()
        return head + self.run + tail


def simple_runs(pattern: Pattern) -> list[Pattern]:
    """A pattern cut into paths with no repeated station (each cut goes on from the last
    station before the repeat, so the paths still join)."""
    out: list[Pattern] = []
    current: list[str] = []
    for stop in pattern:
        if current and stop == current[-1]:
            continue
        if stop in current:
            out.append(tuple(current))
            current = [current[-1]]
        current.append(stop)
    out.append(tuple(current))
    return [p for p in out if len(p) >= 2]


def _cycle(pattern: Pattern) -> Pattern | None:
    """The stations of a pattern that returns to its first station without other repeats."""
    body = tuple(s for i, s in enumerate(pattern) if i == 0 or s != pattern[i - 1])
    if len(body) >= 4 and body[0] == body[-1] and len(set(body[:-1])) == len(body) - 1:
        return body[:-1]
    return None


def _stretches(pattern: Pattern, covered: set[str]) -> list[_Stretch]:
    out = []
    i = 0
    while i < len(pattern):
        if pattern[i] in covered:
            i += 1
            continue
        j = i
        while j < len(pattern) and pattern[j] not in covered:
            j += 1
        before = pattern[i - 1] if i > 0 else None
        after = pattern[j] if j < len(pattern) else None
        out.append(_Stretch(pattern[i:j], before, after))
        i = j
    return out


def merge_patterns(patterns: list[Pattern]) -> Merged:
    """The lines a route's patterns make, trunk first; deterministic for a set of patterns."""
    distinct = sorted(set(patterns), key=lambda p: (-len(set(p)), p))
    lines: list[Piece | list[str]] = []
    covered: set[str] = set()
    ring = _cycle(distinct[0]) if distinct else None
    if ring is not None:
        lines.append(Piece(ring, loop=True))
        covered.update(ring)
    paths = [run for p in distinct for run in simple_runs(p)]
    left_out: set[str] = set()
    while True:
        candidates = [s for p in paths for s in _stretches(p, covered | left_out)]
        if not candidates:
            break
        best = min(candidates, key=lambda s: (-len(s.run), -len(s.stops), s.stops))
        ends = [e for e in (best.before, best.after) if e is not None]
        if len(ends) == 2 and len(best.run) < 2:
            left_out.update(best.run)
            continue
        covered.update(best.run)
        if len(ends) == 1 and _extend(lines, best):
            continue
        lines.append(list(best.stops))
    pieces = tuple(ln if isinstance(ln, Piece) else Piece(tuple(ln)) for ln in lines)
    on_lines = {s for pc in pieces for s in pc.stops}
    return Merged(pieces, frozenset(left_out - on_lines))


def _extend(lines: list[Piece | list[str]], stretch: _Stretch) -> bool:
    """Append a one-ended stretch to the line whose terminus it leaves from, if any."""
    for stops in lines:
        if isinstance(stops, Piece):
            continue
        if stretch.before is not None and stops[-1] == stretch.before:
            stops.extend(stretch.run)
            return True
        if stretch.before is not None and stops[0] == stretch.before:
            stops[:0] = reversed(stretch.run)
            return True
        if stretch.after is not None and stops[0] == stretch.after:
            stops[:0] = stretch.run
            return True
        if stretch.after is not None and stops[-1] == stretch.after:
            stops.extend(reversed(stretch.run))
            return True
    return False


def join_apart(merged: Merged, distance: Callable[[str, str], float]) -> Merged:
    """``merged`` with every piece that shares no station with the trunk's network joined
    to it: at the nearest pair of (piece terminus, station of that network), nearest
    first. Where the network's station is a terminus of a line, the piece extends that
    line; otherwise it becomes a branch leaving from that station."""
    lines = [list(pc.stops) for pc in merged.pieces]
    loops = [pc.loop for pc in merged.pieces]
    if not lines:
        return merged
    reached = set(lines[0])
    joined = {0}
    while True:
        apart = [i for i in range(len(lines)) if i not in joined]
        for i in apart:
            if reached & set(lines[i]):
                joined.add(i)
                reached.update(lines[i])
        apart = [i for i in range(len(lines)) if i not in joined and not loops[i]]
        if not apart:
            break
        i, end, at = min(
            (
                (i, end, at)
                for i in apart
                for end in (lines[i][0], lines[i][-1])
                for at in sorted(reached)
            ),
            key=lambda t: (distance(t[1], t[2]), t),
        )
        piece = lines[i] if end == lines[i][-1] else lines[i][::-1]
        host = next(
            (j for j in sorted(joined) if not loops[j] and at in (lines[j][0], lines[j][-1])),
            None,
        )
        if host is None:
            lines[i] = [at, *reversed(piece)]
        else:
            lines[host] = (
                [*piece, *lines[host]] if lines[host][0] == at else [*lines[host], *reversed(piece)]
            )
            del lines[i], loops[i]
            joined = {j - (j > i) for j in joined}
        reached = set()
        for j in joined:
            reached.update(lines[j])
    pieces = tuple(Piece(tuple(ln), lp) for ln, lp in zip(lines, loops, strict=True))
    return Merged(pieces, merged.left_out)
