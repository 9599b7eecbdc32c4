"""A clean-room baseline of octi's approximate method, for benchmarks/bench_octi.py only.

This is a reimplementation, from the published description alone, of the approximation
algorithm of Bast, Brosi and Storandt, "Metro Maps on Octilinear Grid Graphs" (EuroVis 2020,
Computer Graphics Forum 39(3)) and of the settings the octi site (octi.cs.uni-freiburg.de)
gives for its examples. It is not octi: no code of LOOM/octi (GPL) was read or used. It lives
in benchmarks/ so that mapkit's layout can be compared with the published method on the same
networks, measured by the same function; the package never imports it.

The method as published, and what this file does for it:

1. **Input graph.** The line graph of the map: one node per station, one edge per pair of
   consecutive stops (carrying the lines that run along it). Stations of degree 2 are
   contracted (each chain of them becomes one edge between its end stations, "A-2+D") and
   re-inserted equidistantly along the drawn path at the end. *Choice:* a chain whose two
   ends are the same station (a loop hanging off one station, or a ring of degree-2
   stations) keeps its middle station, so no edge is a self-loop.
2. **Octilinear grid graph.** Grid nodes at a spacing of 75, 100 or 125 % of the average
   distance between adjacent stations (the site's three sizes) and, a *choice*, 50 %: with
   this file's spacing rule (step 3) the site's sizes leave most of the benchmark's dense
   maps without a drawing (:func:`best_of_grids` runs all four). Each node has eight ports;
   the grid covers the stations' bounding box padded by the candidate radius and two cells.
   Moving along a grid edge costs ``HOP`` (diagonal ones too, as in the paper's unweighted
   grid); passing through a node turning by one, two or three eighths costs octi's bend
   weights 135° = 1, 90° = 1.5, 45° = 2 (straight on free, doubling back impossible). A
   route is a shortest path in the grid's port graph, searched here as A* over (grid node,
   arriving direction, hops so far) states with the Chebyshev distance times ``HOP`` as the
   (consistent) estimate.
3. **Stations.** An unplaced station may go to any free grid node within ``RADIUS`` cells of
   its input position; the sink edge costs ``MOVE`` per cell of distance (the "distance
   penalties" of A-2+D). A placed station is left and entered only through free ports, and
   only through ports that keep the input's cyclic order of its edges with room left for its
   edges not yet routed (*choice*: the paper keeps the circular ordering; this is the check
   that does it greedily). Where a line passes through a station from one routed edge into
   the one being routed, the port pair is priced by the same bend weights (per line).
   *Choices:* a chain of k stretches takes at least k grid edges, so that its re-inserted
   stations fall on distinct points at least a cell apart; a station is placed only where
   no station is on a neighbouring node, and a path passing beside a placed station that
   still has edges to route costs ``GUARD`` (``TIGHT`` times more when the station has no
   free port to spare), so that its ports stay reachable.
4. **Greedy routing.** Edges are routed one by one in the LDEG order: start at the node of
   highest line degree (the sum over its edges of the lines on them), then repeatedly take
   the dangling node of highest line degree and append its edges to nodes not yet processed.
   After each route its grid edges are closed, a diagonal also closes the diagonal crossing
   it in the same cell, and its grid nodes are closed: a later route may not run through them
   nor bend there. *Choice:* the benchmark's maps have stretches that cross without a shared
   station (the game allows it), which a closed grid cannot draw, so a later route may cross
   a used node straight through, on another axis, for ``CROSS`` (the report counts the
   crossings). When an edge finds no route within the radius it is tried with twice the
   radius; when that fails too, the whole routing starts again with the edges shuffled
   (seeded; at most ``RESTARTS`` times), as the paper does. *Choice:* when every restart
   fails, the LDEG order is routed once more with, for an edge that finds no route, first
   the cyclic order and then the spacing rule dropped (``Drawing.relaxed`` counts them), so
   that a dense map still gets a drawing to compare (its topology violations say the cost).
5. **Local search** (optional in the paper): every station in turn is tried on each of its
   eight neighbouring grid nodes with its edges routed again; a move is kept when the total
   cost (hops, bends, station bends, displacement) falls. At most ``LOCAL_ROUNDS`` rounds.

The drawing is returned as a map document (the input's with stations moved and every line's
bends as its shape), so mapkit's own report measures it as it measures mapkit's layout.
"""

from __future__ import annotations

import collections
import heapq
import itertools
import json
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from mapkit.mapfile.model import CityMap, build_map

DIRS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
"""Grid steps of the eight directions, k = 0..7 (k * 45° as atan2(dy, dx))."""
BEND = (0.0, 1.0, 1.5, 2.0)
"""octi's bend weights by eighths turned: straight, 135°, 90°, 45° (4 eighths: impossible)."""
HOP = 1.0
MOVE = 0.5
CROSS = 4.0
GUARD = 2.0
TIGHT = 4.0
RADIUS = 2.5
RESTARTS = 8
LOCAL_ROUNDS = 2
GRID_SIZES = (0.5, 0.75, 1.0, 1.25)


class RoutingError(Exception):
    """No octilinear drawing found (every restart left an edge without a route)."""


@dataclass
class Chain:
    """An edge of the contracted graph: stations ``stations[0]`` to ``stations[-1]`` through
    contracted degree-2 stations, carrying ``lines`` (the union along the chain)."""

    stations: list[str]
    lines: frozenset[str]


@dataclass
class Graph:
    xy: dict[str, tuple[float, float]]
    chains: list[Chain]
    anchors: list[str]
    incident: dict[str, list[int]]
    turns: dict[str, list[tuple[int, int, int]]]
    """Anchor -> (chain a, chain b, lines passing from one into the other)."""
    order: dict[str, list[int]] = field(default_factory=dict)
    """Anchor -> its chains in the input's cyclic order (by angle of the first stretch)."""

    def ldeg(self, s: str) -> int:
        return sum(len(self.chains[e].lines) for e in self.incident[s])


def line_graph(city: CityMap) -> Graph:
    """The contracted line graph of ``city`` (step 1)."""
    if any(ln.branches for ln in city.lines):
        raise RoutingError("the baseline draws lines without branches only")
    xy = {s.id: s.xy for s in city.stations}
    lines_on: dict[frozenset[str], set[str]] = {}
    for ln in city.lines:
        for a, b in ln.hops:
            lines_on.setdefault(frozenset((a, b)), set()).add(ln.id)
    nbrs: dict[str, set[str]] = {}
    for pair in lines_on:
        a, b = sorted(pair)
        nbrs.setdefault(a, set()).add(b)
        nbrs.setdefault(b, set()).add(a)
    anchors = {s for s, n in nbrs.items() if len(n) != 2}
    while True:
        chains, seen = _chains(nbrs, anchors, lines_on)
        loose = [s for s in nbrs if s not in seen]
        if loose:  # a ring of degree-2 stations: one of them anchors it
            anchors.add(min(loose))
            continue
        bad = [c for c in chains if c.stations[0] == c.stations[-1]]
        if not bad:
            break
        for c in bad:
            anchors.add(c.stations[len(c.stations) // 2])
    order = sorted(anchors)
    incident: dict[str, list[int]] = {s: [] for s in order}
    for e, c in enumerate(chains):
        incident[c.stations[0]].append(e)
        incident[c.stations[-1]].append(e)
    g = Graph(xy, chains, order, incident, _turns(city, chains, anchors))
    for s in order:
        g.order[s] = sorted(incident[s], key=lambda e, s=s: _first_angle(g, e, s))
    return g


def _chains(nbrs, anchors, lines_on) -> tuple[list[Chain], set[str]]:
    chains, done, seen = [], set(), set(anchors)
    for a in sorted(anchors):
        for b in sorted(nbrs[a]):
            if frozenset((a, b)) in done:
                continue
            path, prev, cur = [a], a, b
            while cur not in anchors:
                path.append(cur)
                seen.add(cur)
                prev, cur = cur, next(x for x in nbrs[cur] if x != prev)
            path.append(cur)
            for p, q in itertools.pairwise(path):
                done.add(frozenset((p, q)))
            lines = frozenset().union(*(lines_on[frozenset(pq)] for pq in itertools.pairwise(path)))
            chains.append(Chain(path, lines))
    return chains, seen


def _turns(city: CityMap, chains: list[Chain], anchors: set[str]):
    """Where each line passes through an anchor: from which chain into which."""
    end_chain: dict[tuple[str, str], int] = {}
    for e, c in enumerate(chains):
        end_chain[(c.stations[0], c.stations[1])] = e
        end_chain[(c.stations[-1], c.stations[-2])] = e
    count: dict[tuple[str, int, int], int] = {}
    for ln in city.lines:
        stops = list(ln.trunk) + ([ln.trunk[0], ln.trunk[1]] if ln.loop else [])
        for p, at, q in zip(stops, stops[1:], stops[2:], strict=False):
            if at in anchors:
                a, b = sorted((end_chain[(at, p)], end_chain[(at, q)]))
                count[(at, a, b)] = count.get((at, a, b), 0) + 1
    out: dict[str, list[tuple[int, int, int]]] = {s: [] for s in anchors}
    for (at, a, b), n in sorted(count.items()):
        out[at].append((a, b, n))
    return out


def _first_angle(g: Graph, e: int, s: str) -> float:
    c = g.chains[e].stations
    nxt = c[1] if c[0] == s else c[-2]
    (x0, y0), (x1, y1) = g.xy[s], g.xy[nxt]
    return math.atan2(y1 - y0, x1 - x0) % (2 * math.pi)


def ldeg_order(g: Graph) -> list[int]:
    """The paper's LDEG ordering of the edges (step 4)."""
    order, in_order, processed = [], set(), set()
    while len(processed) < len(g.anchors):
        start = max((s for s in g.anchors if s not in processed), key=lambda s: (g.ldeg(s), s))
        dangling = [(-g.ldeg(start), start)]
        queued = {start}
        while dangling:
            _, s = heapq.heappop(dangling)
            processed.add(s)
            for e in g.incident[s]:
                c = g.chains[e].stations
                other = c[-1] if c[0] == s else c[0]
                if e in in_order or other in processed:
                    continue
                order.append(e)
                in_order.add(e)
                if other not in queued:
                    queued.add(other)
                    heapq.heappush(dangling, (-g.ldeg(other), other))
    return order


def _eighths(a: int, b: int) -> int:
    d = abs(a - b) % 8
    return min(d, 8 - d)


class Grid:
    """The octilinear grid graph with what the routed paths have closed."""

    def __init__(self, g: Graph, cell: float) -> None:
        self.g, self.cell = g, cell
        xs = [p[0] for p in g.xy.values()]
        ys = [p[1] for p in g.xy.values()]
        pad = math.ceil(2 * RADIUS) + 2
        self.x0 = min(xs) - pad * cell
        self.y0 = min(ys) - pad * cell
        self.w = math.ceil((max(xs) - min(xs)) / cell) + 2 * pad + 1
        self.h = math.ceil((max(ys) - min(ys)) / cell) + 2 * pad + 1
        self.n = self.w * self.h
        nb = []
        for node in range(self.n):
            i, j = node % self.w, node // self.w
            for di, dj in DIRS:
                ii, jj = i + di, j + dj
                nb.append(jj * self.w + ii if 0 <= ii < self.w and 0 <= jj < self.h else -1)
        self.nb = nb
        self.keep_order = True
        self.spaced = True
        """Relaxed by :func:`route_all` for an edge that finds no route otherwise."""
        self.relaxed = 0
        """Edges routed with the cyclic order (and maybe the spacing) relaxed."""
        self.pos: dict[str, int] = {}
        self.paths: dict[int, list[int]] = {}
        self.rebuild()

    def gxy(self, s: str) -> tuple[float, float]:
        """A station's input position in grid units."""
        x, y = self.g.xy[s]
        return (x - self.x0) / self.cell, (y - self.y0) / self.cell

    def rebuild(self) -> None:
        """The closures (station nodes, used nodes and edges, ports) from pos and paths."""
        self.kind = bytearray(self.n)  # 0 free, 1 station, 2 used by a path
        self.axes = bytearray(self.n)  # axes (k % 4) a path uses through a used node
        self.closed = bytearray(self.n * 8)
        self.ports: dict[str, dict[int, int]] = {s: {} for s in self.pos}
        for node in self.pos.values():
            self.kind[node] = 1
        for e, path in self.paths.items():
            self._close(e, path)

    def _close(self, e: int, path: list[int]) -> None:
        c = self.g.chains[e].stations
        ks = [self.step(a, b) for a, b in itertools.pairwise(path)]
        self.ports[c[0]][e] = ks[0]
        self.ports[c[-1]][e] = (ks[-1] + 4) % 8
        for node, k_in, k_out in zip(path[1:-1], ks, ks[1:], strict=False):
            self.kind[node] = 2
            self.axes[node] |= (1 << (k_in % 4)) | (1 << (k_out % 4))
        for a, k in zip(path, ks, strict=False):
            self._close_edge(a, k)
            if k % 2:  # the other diagonal of the same cell
                i, j = a % self.w, a // self.w
                di, dj = DIRS[k]
                corner = j * self.w + i + di  # (i + di, j)
                self._close_edge(corner, DIRS.index((-di, dj)))

    def _close_edge(self, a: int, k: int) -> None:
        b = self.nb[a * 8 + k]
        self.closed[a * 8 + k] = 1
        if b >= 0:
            self.closed[b * 8 + (k + 4) % 8] = 1

    def step(self, a: int, b: int) -> int:
        return DIRS.index(((b % self.w) - (a % self.w), (b // self.w) - (a // self.w)))

    def port_ok(self, s: str, e: int, k: int) -> bool:
        """Whether chain ``e`` may use port ``k`` of placed station ``s``: free, and keeping
        the input's cyclic order with room for the chains not routed yet (step 3)."""
        ports = self.ports[s]
        if k in ports.values():
            return False
        if not ports or not self.keep_order:
            return True
        given = {**ports, e: k}
        seq = [x for x in self.g.order[s] if x in given]
        by_port = sorted(given, key=given.__getitem__)
        i = by_port.index(seq[0])
        if by_port[i:] + by_port[:i] != seq:
            return False
        full = self.g.order[s]
        for a, b in zip(seq, seq[1:] + seq[:1], strict=True):
            ia, ib = full.index(a), full.index(b)
            between = (ib - ia) % len(full) - 1 if len(seq) > 1 else len(full) - 1
            gap = (given[b] - given[a]) % 8 - 1 if len(seq) > 1 else 7
            if between > gap:
                return False
        return True

    def station_bends(self, s: str, e: int, k: int) -> float:
        """Bend weights of the lines passing through ``s`` between routed chains and ``e``
        leaving at port ``k``."""
        cost = 0.0
        ports = self.ports[s]
        for a, b, n in self.g.turns[s]:
            other = b if a == e else a if b == e else None
            if other is None or other not in ports:
                continue
            t = 4 - _eighths(ports[other], k)
            cost += n * BEND[t] if t < 4 else math.inf
        return cost

    def candidates(self, s: str, radius: float) -> dict[int, float]:
        """Free grid nodes within ``radius`` of an unplaced station, with their sink cost."""
        if s in self.pos:
            return {self.pos[s]: 0.0}
        x, y = self.gxy(s)
        out = {}
        r = math.ceil(radius)
        for j in range(max(0, math.floor(y) - r), min(self.h, math.ceil(y) + r + 1)):
            for i in range(max(0, math.floor(x) - r), min(self.w, math.ceil(x) + r + 1)):
                d = math.hypot(i - x, j - y)
                node = j * self.w + i
                if d <= radius and self.kind[node] == 0 and self._room(node):
                    out[node] = MOVE * d
        return out

    def _guard(self, u: str, v: str) -> dict[int, float]:
        """Grid nodes beside placed stations (other than ``u`` and ``v``) with chains still to
        route: passing there costs ``GUARD`` a station, ``TIGHT`` times more where the
        station has no free port to spare."""
        out: dict[int, float] = {}
        for s, node in self.pos.items():
            left = len(self.g.incident[s]) - len(self.ports[s])
            if s in (u, v) or not left:
                continue
            free = [
                x
                for k, x in enumerate(self.nb[node * 8 : node * 8 + 8])
                if x >= 0 and not self.closed[node * 8 + k] and self.kind[x] == 0
            ]
            for x in free:
                out[x] = out.get(x, 0.0) + GUARD * (TIGHT if len(free) <= left else 1.0)
        return out

    def _room(self, node: int) -> bool:
        """Whether no station is on a neighbouring grid node (its ports stay reachable)."""
        return all(x < 0 or self.kind[x] != 1 for x in self.nb[node * 8 : node * 8 + 8])

    def route(self, e: int, radius: float) -> tuple[list[int], float] | None:
        """The cheapest path for chain ``e`` (grid nodes from its first station's node to
        its last's, at least one grid edge per stretch of the chain) and its cost; None
        when there is none."""
        c = self.g.chains[e].stations
        src, dst = self.candidates(c[0], radius), self.candidates(c[-1], radius)
        if not src or not dst:
            return None
        need = len(c) - 1 if self.spaced else 1
        return _Search(self, e, need, dst).run(src)

    def _unwind(self, parent: dict[int, int], state: int, end: int, span: int) -> list[int]:
        path = [end]
        while state >= 0:
            path.append(state // span // 8)
            state = parent[state]
        path.append(-1 - state)
        return path[::-1]

    def commit(self, e: int, path: list[int]) -> None:
        c = self.g.chains[e].stations
        for s, node in ((c[0], path[0]), (c[-1], path[-1])):
            if s not in self.pos:
                self.pos[s] = node
                self.kind[node] = 1
                self.ports[s] = {}
        self.paths[e] = path
        self._close(e, path)

    def crossings(self) -> int:
        """Grid nodes that two paths pass through (one of them straight across)."""
        used = collections.Counter(n for p in self.paths.values() for n in p[1:-1])
        return sum(c - 1 for c in used.values())

    def total(self) -> float:
        """The drawing's cost: hops, bends in paths, at stations, and displacement."""
        cost = 0.0
        for s, node in self.pos.items():
            x, y = self.gxy(s)
            cost += MOVE * math.hypot(node % self.w - x, node // self.w - y)
        for path in self.paths.values():
            ks = [self.step(a, b) for a, b in itertools.pairwise(path)]
            cost += HOP * len(ks) + sum(BEND[_eighths(a, b)] for a, b in itertools.pairwise(ks))
        cost += CROSS * self.crossings()
        for s, turns in self.g.turns.items():
            p = self.ports.get(s, {})
            for a, b, n in turns:
                if a in p and b in p:
                    cost += n * BEND[4 - _eighths(p[a], p[b])]
        return cost


class _Search:
    """A* over (grid node, arriving direction, hops so far up to ``need``) states; a heap
    entry is (estimate, cost, 1 for a terminal, state, predecessor), a source -1 - node."""

    def __init__(self, grid: Grid, e: int, need: int, dst: dict[int, float]) -> None:
        self.grid, self.e, self.need, self.dst = grid, e, need, dst
        c = grid.g.chains[e].stations
        self.u, self.v = c[0], c[-1]
        self.span = need + 1
        self.targets = [(t % grid.w, t // grid.w) for t in dst]
        self.guard = grid._guard(self.u, self.v)
        self.best: dict[int, float] = {}
        self.parent: dict[int, int] = {}
        self.heap: list[tuple[float, float, int, int, int]] = []

    def h(self, node: int, hops: int) -> float:
        i, j = node % self.grid.w, node // self.grid.w
        near = min(max(abs(i - a), abs(j - b)) for a, b in self.targets)
        return HOP * max(self.need - hops, near)

    def arrive(self, g0: float, prev: int, x: int, k: int, hops: int) -> None:
        """Push the terminal reached by entering ``x`` in direction ``k``."""
        grid = self.grid
        if hops < self.need:
            return
        if self.v in grid.pos:
            port = (k + 4) % 8
            if not grid.port_ok(self.v, self.e, port):
                return
            g1 = g0 + grid.station_bends(self.v, self.e, port)
        else:
            g1 = g0 + self.dst[x]
        if g1 < math.inf:
            heapq.heappush(self.heap, (g1, g1, 1, x, prev))

    def enter(self, g0: float, prev: int, x: int, k: int, hops: int) -> None:
        """Step into grid node ``x`` moving in direction ``k``."""
        if x in self.dst:
            self.arrive(g0, prev, x, k, hops)
        kx = self.grid.kind[x]
        if kx == 1 or (kx == 2 and self.grid.axes[x] >> (k % 4) & 1):
            return
        g0 += (CROSS if kx == 2 else 0.0) + self.guard.get(x, 0.0)
        s2 = (x * 8 + k) * self.span + min(hops, self.need)
        if s2 not in self.best:
            heapq.heappush(self.heap, (g0 + self.h(x, hops), g0, 0, s2, prev))

    def seed(self, src: dict[int, float]) -> None:
        """The first steps out of every source node."""
        grid, placed = self.grid, self.u in self.grid.pos
        for s0, sink in src.items():
            for k in range(8):
                x = grid.nb[s0 * 8 + k]
                if x < 0 or grid.closed[s0 * 8 + k]:
                    continue
                if placed and not grid.port_ok(self.u, self.e, k):
                    continue
                g0 = sink + HOP + (grid.station_bends(self.u, self.e, k) if placed else 0.0)
                if g0 < math.inf:
                    self.enter(g0, -1 - s0, x, k, 1)

    def run(self, src: dict[int, float]) -> tuple[list[int], float] | None:
        grid = self.grid
        self.seed(src)
        while self.heap:
            _, g0, terminal, state, prev = heapq.heappop(self.heap)
            if terminal:
                return grid._unwind(self.parent, prev, state, self.span), g0
            if state in self.best:
                continue
            self.best[state] = g0
            self.parent[state] = prev
            nk, hops = divmod(state, self.span)
            node, k = divmod(nk, 8)
            crossing = grid.kind[node] == 2
            for k2 in range(8):
                t = _eighths(k, k2)
                if t == 4 or (crossing and k2 != k):
                    continue
                x = grid.nb[node * 8 + k2]
                if x >= 0 and not grid.closed[node * 8 + k2]:
                    self.enter(g0 + HOP + BEND[t], state, x, k2, hops + 1)
        return None


def route_all(grid: Grid, order: list[int], deadline: float, relax: bool) -> None:
    for e in order:
        if time.monotonic() > deadline:
            raise RoutingError("time limit")
        got = grid.route(e, RADIUS) or grid.route(e, 2 * RADIUS)
        if got is None and relax:  # the last resort (step 4): the cyclic order, the spacing
            grid.keep_order = False
            got = grid.route(e, 2 * RADIUS)
            if got is None:
                grid.spaced = False
                got = grid.route(e, 2 * RADIUS)
            grid.keep_order = grid.spaced = True
            grid.relaxed += 1
        if got is None:
            c = grid.g.chains[e].stations
            raise RoutingError(f"no route for {c[0]}-{c[-1]}")
        grid.commit(e, got[0])


def local_search(grid: Grid, order: list[int], deadline: float) -> int:
    """Step 5; returns the moves kept."""
    rank = {e: i for i, e in enumerate(order)}
    kept = 0
    for _ in range(LOCAL_ROUNDS):
        improved = False
        for s in grid.g.anchors:
            if time.monotonic() > deadline:
                return kept
            before = grid.total()
            old_pos, old_paths = dict(grid.pos), dict(grid.paths)
            edges = sorted(grid.g.incident[s], key=rank.__getitem__)
            home = grid.pos[s]
            taken = set(old_pos.values())
            best = None
            for k in range(8):
                to = grid.nb[home * 8 + k]
                if to < 0 or to in taken:
                    continue
                grid.pos = {**old_pos, s: to}
                grid.paths = {e: p for e, p in old_paths.items() if e not in edges}
                grid.rebuild()
                if grid.kind[to] != 1:  # another path runs through the node
                    continue
                ok = True
                for e in edges:
                    got = grid.route(e, RADIUS)
                    if got is None:
                        ok = False
                        break
                    grid.commit(e, got[0])
                if ok and grid.total() < before - 1e-9 and (best is None or grid.total() < best[0]):
                    best = (grid.total(), dict(grid.pos), dict(grid.paths))
            if best is None:
                grid.pos, grid.paths = old_pos, old_paths
            else:
                _, grid.pos, grid.paths = best
                kept += 1
                improved = True
            grid.rebuild()
        if not improved:
            break
    return kept


@dataclass
class Drawing:
    doc: dict[str, Any]
    city: CityMap
    cell_share: float
    cost: float
    restarts: int
    relaxed: int
    moves: int
    seconds: float


def octilinearize(
    city: CityMap, doc: dict[str, Any], cell_share: float = 1.0, time_limit: float = 60.0,
    local: bool = True,
) -> Drawing:  # fmt: skip
    """The baseline's drawing of ``city`` (``doc``: its document) on a grid of
    ``cell_share`` times the average stretch length. Raises RoutingError."""
    t0 = time.monotonic()
    deadline = t0 + time_limit
    g = line_graph(city)
    gaps = [
        math.dist(g.xy[a], g.xy[b]) for c in g.chains for a, b in itertools.pairwise(c.stations)
    ]
    cell = cell_share * sum(gaps) / len(gaps)
    order = ldeg_order(g)
    ldeg = order
    for attempt in range(RESTARTS + 2):
        grid = Grid(g, cell)
        try:
            route_all(grid, order, deadline, relax=attempt > RESTARTS)
            break
        except RoutingError:
            if time.monotonic() > deadline or attempt > RESTARTS:
                raise
            order = ldeg[:] if attempt == RESTARTS else order[:]
            if attempt < RESTARTS:
                random.Random(attempt).shuffle(order)
    moves = local_search(grid, order, deadline) if local else 0
    out = drawn_doc(grid, city, doc)
    return Drawing(out, build_map(out), cell_share, grid.total(), attempt, grid.relaxed,
                   moves, time.monotonic() - t0)  # fmt: skip


def _along(pts: list[tuple[float, float]], t: float) -> tuple[float, float]:
    for a, b in itertools.pairwise(pts):
        seg = math.dist(a, b)
        if t <= seg + 1e-12:
            f = t / seg
            return (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]))
        t -= seg
    return pts[-1]


def _stretch_polylines(grid: Grid) -> tuple[dict[str, tuple[float, float]], dict]:
    """Station positions (map units) and each stretch's polyline, keyed (a, b) from a to b:
    anchors at their grid nodes, contracted stations equidistant along their chain's path."""

    def at(node: int) -> tuple[float, float]:
        return (grid.x0 + (node % grid.w) * grid.cell, grid.y0 + (node // grid.w) * grid.cell)

    xy = {s: at(n) for s, n in grid.pos.items()}
    polys = {}
    for e, path in grid.paths.items():
        c = grid.g.chains[e].stations
        pts = [at(n) for n in path]
        cum = [0.0, *itertools.accumulate(math.dist(a, b) for a, b in itertools.pairwise(pts))]
        total = cum[-1]
        ts = [total * i / (len(c) - 1) for i in range(len(c))]
        for i, s in enumerate(c[1:-1], start=1):
            xy[s] = _along(pts, ts[i])
        for i in range(len(c) - 1):
            a, b = c[i], c[i + 1]
            inner = [
                p for p, d in zip(pts, cum, strict=True) if ts[i] + 1e-9 < d < ts[i + 1] - 1e-9
            ]
            poly = [xy[a], *inner, xy[b]]
            polys[(a, b)] = poly
            polys[(b, a)] = poly[::-1]
    return xy, polys


def drawn_doc(grid: Grid, city: CityMap, doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with the stations where the grid drawing has them and each line's bends
    as its shape (the wagon one cell before the first stop)."""
    xy, polys = _stretch_polylines(grid)
    out = json.loads(json.dumps(doc))
    for st in out["stations"]:
        if st["id"] in xy:
            st["x"], st["y"] = xy[st["id"]]
    for ln in out["lines"]:
        stops = list(ln["stops"]) + ([ln["stops"][0]] if ln.get("loop") else [])
        shape = [list(xy[stops[0]])]
        for a, b in itertools.pairwise(stops):
            shape += [list(p) for p in polys[(a, b)][1:]]
        (x0, y0), (x1, y1) = shape[0], shape[1]
        d = math.hypot(x1 - x0, y1 - y0)
        depot = [x0 - (x1 - x0) / d * grid.cell, y0 - (y1 - y0) / d * grid.cell]
        ln["depot"] = {**ln["depot"], "x": depot[0], "y": depot[1]}
        ln["shape"] = [depot, *shape]
    return out


def best_of_grids(
    city: CityMap, doc: dict[str, Any], score, time_limit: float = 60.0
) -> tuple[Drawing, list[Drawing]]:
    """The drawings on every grid size of ``GRID_SIZES`` and the best of them by ``score``
    (lower is better; the benchmark gives topology violations, then the report's bend
    score: the choice most favourable to the baseline among its most faithful drawings)."""
    done = []
    for share in GRID_SIZES:
        try:
            done.append(octilinearize(city, doc, share, time_limit))
        except RoutingError:
            continue
    if not done:
        raise RoutingError("no grid size gave a drawing")
    return min(done, key=score), done
