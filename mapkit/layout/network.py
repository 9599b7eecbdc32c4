"""The network a layout moves: stations, and the stretches that join consecutive stops.

A stretch is one pair of stations joined by one or more lines (lines that run
together share it, and are drawn as one bundle). Directions are counted in
eighths of a turn, ``k * 45°`` measured as ``atan2(dy, dx)`` with y growing
downward, as in the map format: 0 east, 2 south, 4 west, 6 north.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from mapkit.mapfile.model import CityMap

Point = tuple[float, float]

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1),
)  # fmt: skip
"""The unit steps of the eight directions, k = 0..7."""


@dataclass(frozen=True)
class Stretch:
    """Stations ``u`` and ``v`` (indices, u < v) joined by ``lines``."""

    u: int
    v: int
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Turn:
    """Where a line passes through station ``at`` from stretch ``a`` into stretch ``b``."""

    line: str
    at: int
    a: int
    b: int


@dataclass
class Network:
    ids: list[str]
    xy: list[Point]
    stretches: list[Stretch]
    incident: list[list[int]]
    turns: list[Turn]
    lines_at: list[tuple[str, ...]]
    bends: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Bend points (not stations) added by :func:`subdivide`: node -> the stretch's
    stations (u, v) in the network it was split from."""
    least: dict[int, int] = field(default_factory=dict)
    """Stretches allowed shorter than a unit (the short leg of a bend): stretch -> units."""
    straight: set[int] = field(default_factory=set)
    """Stretches that may not be cut at bend points: a branching line's (the map format
    gives a branching line no shape)."""

    def other(self, e: int, node: int) -> int:
        s = self.stretches[e]
        return s.v if s.u == node else s.u

    def angle(self, e: int, node: int, xy: list[Point] | None = None) -> float:
        """The stretch's direction leaving ``node``, in eighths of a turn in [-4, 4)."""
        pts = xy or self.xy
        a, b = pts[node], pts[self.other(e, node)]
        return _eighths(b[0] - a[0], b[1] - a[1])

    def rotation(self, node: int, xy: list[Point] | None = None) -> list[int]:
        """The stretches at ``node`` in increasing angle: the cyclic order a layout keeps."""
        return sorted(self.incident[node], key=lambda e: (self.angle(e, node, xy), e))


def _eighths(dx: float, dy: float) -> float:
    if dx == 0 and dy == 0:
        return 0.0
    a = math.atan2(dy, dx) / (math.pi / 4)
    return a - 8.0 if a >= 4.0 else a


def build_network(city: CityMap) -> Network:
    ids = [s.id for s in city.stations]
    where = {sid: i for i, sid in enumerate(ids)}
    pair_of: dict[tuple[int, int], int] = {}
    stretches: list[list] = []
    turns: list[Turn] = []
    seen: set[Turn] = set()
    for ln in city.lines:
        for path_stops in ln.paths:  # a branching line: trunk and each branch, turns once
            stops = [where[s] for s in path_stops]
            hops = list(itertools.pairwise(stops))
            if ln.loop:
                hops.append((stops[-1], stops[0]))
            path = []
            for a, b in hops:
                key = (min(a, b), max(a, b))
                if key not in pair_of:
                    pair_of[key] = len(stretches)
                    stretches.append([key[0], key[1], []])
                e = pair_of[key]
                if ln.id not in stretches[e][2]:
                    stretches[e][2].append(ln.id)
                path.append(e)
            for (a, _b), e, f in zip(hops[1:], path, path[1:], strict=False):
                if e != f and Turn(ln.id, a, e, f) not in seen:
                    seen.add(Turn(ln.id, a, e, f))
                    turns.append(Turn(ln.id, a, e, f))
            if ln.loop and len(path) > 2 and path[-1] != path[0]:
                turns.append(Turn(ln.id, stops[0], path[-1], path[0]))
    out = [Stretch(u, v, tuple(ls)) for u, v, ls in stretches]
    incident: list[list[int]] = [[] for _ in ids]
    for e, s in enumerate(out):
        incident[s.u].append(e)
        incident[s.v].append(e)
    branching = {ln.id for ln in city.lines if ln.branches}
    return Network(
        ids=ids,
        xy=[s.xy for s in city.stations],
        stretches=out,
        incident=incident,
        turns=turns,
        lines_at=[city.lines_at(i) for i in ids],
        straight={e for e, s in enumerate(out) if set(s.lines) & branching},
    )


Cut = tuple[tuple[int, ...], int]
"""How a stretch is cut: the directions (0..7) of its legs in order from ``u`` to ``v``
(two legs, one bend point; three, two), and which leg may be short."""


def subdivide(
    net: Network, splits: dict[int, Cut]
) -> tuple[Network, dict[int, int], dict[int, int]]:
    """``net`` with each stretch ``e`` of ``splits`` cut in legs at new bend points:
    ``splits[e] = (directions, short_leg)`` gives the direction of each leg, travelled from
    ``u`` to ``v``, and which leg may be short. Returns the new network (the old stations
    keep their indices, the bend points follow in order of the stretches and from ``u``),
    the directions of every stretch its legs take (an unsplit stretch keeps its index and
    so does a cut one's first leg, the others are appended; a leg runs from the point
    nearer ``u`` to the one nearer ``v``, but for the last, which runs from ``v``), and
    each leg's stretch in ``net``."""
    ids, xy = list(net.ids), list(net.xy)
    stretches = list(net.stretches)
    lines_at = list(net.lines_at)
    legs: dict[int, list[int]] = {}
    points: dict[int, list[int]] = {}
    bends: dict[int, tuple[int, int]] = {}
    least: dict[int, int] = {}
    direction: dict[int, int] = {}
    for e in sorted(splits):
        s = net.stretches[e]
        dirs, short = splits[e]
        (ux, uy), (vx, vy) = net.xy[s.u], net.xy[s.v]
        pts = []
        for j in range(1, len(dirs)):
            p = len(ids)
            tag = "" if len(dirs) == 2 else f"-{j}"
            ids.append(f"~bend-{net.ids[s.u]}-{net.ids[s.v]}{tag}")
            t = j / len(dirs)
            xy.append((ux + (vx - ux) * t, uy + (vy - uy) * t))
            lines_at.append(s.lines)
            bends[p] = (s.u, s.v)
            pts.append(p)
        stretches[e] = Stretch(s.u, pts[0], s.lines)
        direction[e] = dirs[0]
        chain = [e]
        for j in range(1, len(dirs) - 1):
            direction[len(stretches)] = dirs[j]
            chain.append(len(stretches))
            stretches.append(Stretch(pts[j - 1], pts[j], s.lines))
        direction[len(stretches)] = (dirs[-1] + 4) % 8
        chain.append(len(stretches))
        stretches.append(Stretch(s.v, pts[-1], s.lines))
        legs[e], points[e] = chain, pts
        least[chain[short]] = 1
    incident: list[list[int]] = [[] for _ in ids]
    for e, s in enumerate(stretches):
        incident[s.u].append(e)
        incident[s.v].append(e)
    turns = []
    for t in net.turns:
        a = legs[t.a][0 if t.at == net.stretches[t.a].u else -1] if t.a in legs else t.a
        b = legs[t.b][0 if t.at == net.stretches[t.b].u else -1] if t.b in legs else t.b
        turns.append(Turn(t.line, t.at, a, b))
    for e, chain in legs.items():
        for line in net.stretches[e].lines:
            for p, f, g in zip(points[e], chain, chain[1:], strict=False):
                turns.append(Turn(line, p, f, g))
    out = Network(ids, xy, stretches, incident, turns, lines_at, bends, least)
    return out, direction, {f: e for e, chain in legs.items() for f in chain}
