"""Lines that run together, drawn side by side at one fixed offset (as LOOM/octi do).

Where several lines share a track between two points, they form a bundle. Each
*corridor* (a chain of shared segments carrying the same set of lines straight
through) gets one order of its lines, kept along its whole length, and every
line sits at ``(rank - (k - 1) / 2) * step`` mm from the track, ``step`` being
the stroke width plus a small gap: neighbours never overlap and never taper.

The order of a corridor is chosen to avoid crossings where its lines leave
it: a line that leaves (or arrives from) the left sits on the left, and a line
that continues into a corridor already placed keeps its side there. Corridors
are placed widest first, so the big bundles set the order the small ones follow.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from dataclasses import dataclass

Point = tuple[float, float]
Key = tuple[float, float]
Edge = tuple[Key, Key]


def _key(p: Point) -> Key:
    return (round(p[0], 2), round(p[1], 2))


def _unit(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    return (dx / n, dy / n)


def _edge(a: Key, b: Key) -> Edge:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Bundle:
    """A station's widest bundle: how many lines pass side by side, and their normal."""

    lines: int
    normal: Point


@dataclass(frozen=True)
class Bundling:
    """Drawn routes (offset side by side) and, per route point, the bundle passing there."""

    drawn: dict[str, tuple[Point, ...]]
    at_point: dict[Key, Bundle]


def bundle_routes(routes: dict[str, tuple[Point, ...]], step: float) -> Bundling:
    """Offset every shared segment so its lines run ``step`` mm apart, centred on the track."""
    shared, nbrs = _shared_edges(routes)
    offset, normal_of, at_point = _place(_corridors(shared, nbrs), shared, nbrs, step)
    drawn = {lid: _offset_polyline(lid, pts, offset, normal_of) for lid, pts in routes.items()}
    return Bundling(drawn, at_point)


Neighbours = dict[str, dict[Key, list[Key]]]
"""Per line, per route point key: its neighbours along the line's route."""


def _shared_edges(
    routes: dict[str, tuple[Point, ...]],
) -> tuple[dict[Edge, frozenset[str]], Neighbours]:
    """The segments two or more lines use (with those lines), and each line's neighbours."""
    users: dict[Edge, list[str]] = defaultdict(list)
    nbrs: Neighbours = {}
    for lid, pts in routes.items():
        keys = [_key(p) for p in pts]
        nb: dict[Key, list[Key]] = defaultdict(list)
        for a, b in itertools.pairwise(keys):
            if a == b:
                continue
            e = _edge(a, b)
            if lid not in users[e]:
                users[e].append(lid)
            nb[a].append(b)
            nb[b].append(a)
        nbrs[lid] = nb
    return {e: frozenset(ls) for e, ls in users.items() if len(ls) > 1}, nbrs


def _corridors(shared: dict[Edge, frozenset[str]], nbrs: Neighbours) -> list[list[Key]]:
    """Chains of shared edges with the same lines, every line running straight on: each
    as its nodes from one end to the other, the widest found first."""
    at_node: dict[Key, list[Edge]] = defaultdict(list)
    for e in shared:
        at_node[e[0]].append(e)
        at_node[e[1]].append(e)

    def continues(e: Edge, v: Key) -> Edge | None:
        same = [f for f in at_node[v] if f != e and shared[f] == shared[e]]
        if len(same) != 1:
            return None
        f = same[0]
        a, b = (x for x in (*e, *f) if x != v)
        if all(sorted(nbrs[lid][v]) == sorted((a, b)) for lid in shared[e]):
            return f
        return None

    seen: set[Edge] = set()
    corridors: list[list[Key]] = []
    for e in sorted(shared, key=lambda e: (-len(shared[e]), e)):
        if e in seen:
            continue
        # walk back to one end, then forward collecting nodes
        start, cur = e[0], e
        visited = {e}
        while (f := continues(cur, start)) is not None and f not in visited:
            visited.add(f)
            start = f[0] if f[1] == start else f[1]
            cur = f
        nodes = [start]
        v = cur[0] if cur[1] == start else cur[1]
        seen.add(cur)
        nodes.append(v)
        while (f := continues(cur, v)) is not None and f not in seen:
            seen.add(f)
            v = f[0] if f[1] == v else f[1]
            nodes.append(v)
            cur = f
        corridors.append(nodes)
    return corridors


def _side_score(
    lid: str, nodes: list[Key], nbrs: Neighbours, placed_side: dict[tuple[str, Key], Point]
) -> float:
    """How far to the left ``lid`` belongs in the corridor ``nodes``: where it leaves or
    arrives at either end, and (ten times stronger) the side it already has there."""
    total = 0.0
    ends = (
        (nodes[0], nodes[1], _unit(nodes[0], nodes[1])),
        (nodes[-1], nodes[-2], _unit(nodes[-2], nodes[-1])),
    )
    for end, inner, d in ends:  # d: the corridor's direction of travel there
        n = (-d[1], d[0])
        for q in nbrs[lid][end]:
            if q == inner:
                continue
            u = _unit(end, q)
            total += n[0] * u[0] + n[1] * u[1]
        side = placed_side.get((lid, end))
        if side is not None:
            total += 10.0 * (n[0] * side[0] + n[1] * side[1])
    return total


def _place(
    corridors: list[list[Key]],
    shared: dict[Edge, frozenset[str]],
    nbrs: Neighbours,
    step: float,
) -> tuple[dict[tuple[str, Edge], float], dict[Edge, Point], dict[Key, Bundle]]:
    """Each corridor's order, widest corridor first: every line's offset on each shared
    edge, each edge's normal, and the widest bundle at each point."""
    offset: dict[tuple[str, Edge], float] = {}
    normal_of: dict[Edge, Point] = {}
    at_point: dict[Key, Bundle] = {}
    placed_side: dict[tuple[str, Key], Point] = {}  # line's drawn offset vector at a node
    for nodes in sorted(corridors, key=lambda ns: -len(shared[_edge(ns[0], ns[1])])):
        lines = shared[_edge(nodes[0], nodes[1])]
        k = len(lines)
        order = sorted(lines, key=lambda lid: (_side_score(lid, nodes, nbrs, placed_side), lid))
        for a, b in itertools.pairwise(nodes):
            e = _edge(a, b)
            d = _unit(a, b)
            n = (-d[1], d[0])
            normal_of[e] = n
            for rank, lid in enumerate(order):
                o = (rank - (k - 1) / 2) * step
                offset[(lid, e)] = o
                placed_side[(lid, a)] = (n[0] * o, n[1] * o)
                placed_side[(lid, b)] = (n[0] * o, n[1] * o)
            for v in (a, b):
                if v not in at_point or at_point[v].lines < k:
                    at_point[v] = Bundle(k, n)
    return offset, normal_of, at_point


def _offset_polyline(
    lid: str,
    pts: tuple[Point, ...],
    offset: dict[tuple[str, Edge], float],
    normal_of: dict[Edge, Point],
) -> tuple[Point, ...]:
    """The line's route with each shared segment moved to its offset.

    A line joining or leaving a bundle heads straight for its place in it.
    Where a bundle bends, the two offset segments meet where they cross; where a
    line moves from one bundle to another, a short jog across the track joins
    them, hidden under the station's pill.
    """
    segs: list[tuple[Point, Point, Point, bool]] = []  # (a, b, offset vector, shared)
    for a, b in itertools.pairwise(pts):
        ka, kb = _key(a), _key(b)
        if ka == kb:
            continue
        e = _edge(ka, kb)
        o = offset.get((lid, e))
        n = normal_of.get(e, (0.0, 0.0))
        segs.append((a, b, (n[0] * (o or 0.0), n[1] * (o or 0.0)), o is not None))
    if not segs:
        return tuple(pts)
    first, _, o, _ = segs[0]
    out: list[Point] = [(first[0] + o[0], first[1] + o[1])]
    for (a0, b0, o0, in_bundle), (a1, b1, o1, out_bundle) in itertools.pairwise(segs):
        p = b0
        p_in = (p[0] + o0[0], p[1] + o0[1])
        p_out = (p[0] + o1[0], p[1] + o1[1])
        if math.dist(p_in, p_out) < 1e-3 or not out_bundle:
            out.append(p_in)
            continue
        if not in_bundle:  # a line joining a bundle heads straight for its place in it
            out.append(p_out)
            continue
        if abs(math.hypot(*o0) - math.hypot(*o1)) < 1e-6:
            # one bundle bending: its offset segments meet where they cross
            d0, d1 = _unit(a0, b0), _unit(a1, b1)
            cross = d0[0] * d1[1] - d0[1] * d1[0]
            if abs(cross) > math.sin(math.radians(20)):
                rx, ry = p_out[0] - p_in[0], p_out[1] - p_in[1]
                t = (rx * d1[1] - ry * d1[0]) / cross
                x = (p_in[0] + t * d0[0], p_in[1] + t * d0[1])
                if math.dist(x, p) <= 2.0 * math.hypot(*o0) + 1e-9:
                    out.append(x)
                    continue
        out.extend((p_in, p_out))
    a, b, o, _ = segs[-1]
    out.append((b[0] + o[0], b[1] + o[1]))
    return tuple(out)
