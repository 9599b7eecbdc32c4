"""Which of the eight directions each stretch takes: a small integer program.

Each stretch may take one of the three directions nearest its drawn angle (in
the manner of Nöllenburg and Wolff's metro-map program, which restricts each
edge to its nearest octilinear sectors). The program keeps the cyclic order of
the stretches around every station (so no station changes the side of a line it
is beside, locally) and prices each line's bends by angle: straight on is free,
135° costs ``BEND_COST[3]``, 90° ``BEND_COST[2]``, and 45° is forbidden unless
allowed. Coordinates come afterwards (``coords``): with the directions fixed they
are a linear program.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from mapkit.layout.network import Network
from mapkit.layout.program import Program

BEND_COST = {4: 0.0, 3: 1.0, 2: 1.5, 1: 2.0}
"""Cost of a bend by the number of eighths between the two directions leaving the
station (4: straight on, 3: a 135° bend, 2: 90°, 1: 45°), octi's weights."""


def deviation_cost(eighths: float, faithful: float = 1.0) -> float:
    """What turning a stretch ``eighths`` of 45° away from its drawn angle costs: rising
    faster than linearly, so that a far turn (which rarely closes a cycle) is rare; times
    ``faithful`` (see ``Pricing``)."""
    return faithful * (2.0 * eighths + 3.0 * eighths * eighths)


@dataclass(frozen=True)
class Pricing:
    """How the candidate directions are priced. ``faithful`` scales the price of turning a
    stretch off its drawn angle against the bends' (1: an eighth's turn costs five 135°
    bends, so the drawing follows the input; 0.1: half of one, so lines run straight and
    stations move farther, as in octi's grid routing). ``seed``: 0 for none, another number
    nudges every candidate's price (by up to a 90° bend's) so near-ties fall another way."""

    faithful: float = 1.0
    seed: int = 0


CANDIDATES = 3


@dataclass(frozen=True)
class Choice:
    """The direction of every stretch (k = 0..7, from its station u to v) and the bends."""

    direction: dict[int, int]
    cost: float
    sharp: bool = False
    """Whether 45° bends had to be allowed (no layout without them keeps the order)."""


def bend_eighths(out_a: int, out_b: int) -> int:
    """Eighths between two directions leaving one station (4: a straight line)."""
    d = (out_a - out_b) % 8
    return min(d, 8 - d)


def candidates(net: Network, e: int, count: int = CANDIDATES) -> list[int]:
    """The ``count`` directions a stretch may take, nearest its drawn angle first (unwrapped
    near it)."""
    s = net.stretches[e]
    theta = net.angle(e, s.u)
    near = sorted(range(math.floor(theta) - 2, math.floor(theta) + 4), key=lambda k: abs(k - theta))
    return near[:count]


Pick = dict[int, list[tuple[int, int]]]
"""Stretch -> [(unwrapped direction k, its binary's column)]."""
Term = list[tuple[float, int | None]]
"""A direction as (value, column) options: column None for a fixed direction's value."""


def add_choice(
    p: Program,
    net: Network,
    free: set[int],
    fixed: dict[int, float],
    allow_45: bool,
    count: int = CANDIDATES,
    pricing: Pricing = Pricing(),
) -> Pick:
    """Add to ``p`` the choice of direction of every stretch in ``free``: one binary per
    candidate, the cyclic order at every station a free stretch touches, and the bends.

    ``fixed``: the other stretches' directions (eighths, from u to v; an angle for one
    between pinned stations). Returns stretch -> [(unwrapped k, column)].
    """
    pick: Pick = {}
    for e in sorted(free):
        s = net.stretches[e]
        theta = net.angle(e, s.u)
        cands = candidates(net, e, count)
        cost = {k: deviation_cost(abs(k - theta), pricing.faithful) for k in cands}
        pick[e] = [(k, p.binary(cost[k] + _jitter(pricing.seed, e, k))) for k in cands]
        p.row({j: 1.0 for _, j in pick[e]}, 1.0, 1.0)
    _add_orders(p, net, pick, fixed)
    _add_bends(p, net, pick, fixed, allow_45)
    return pick


SEED_JITTER = 1.5
"""With a seed, each candidate direction's price moves by up to this (a 90° bend's
price): near-ties between directions fall another way, and the drawing differs."""


def _jitter(seed: int, e: int, k: int) -> float:
    """The seed's deterministic nudge to stretch ``e`` taking direction ``k`` (0 for seed 0)."""
    if not seed:
        return 0.0
    import random

    return random.Random(f"{seed}:{e}:{k % 8}").uniform(0.0, SEED_JITTER)


def _outward(net: Network, pick: Pick, fixed: dict[int, float], e: int, node: int,
             near: float) -> Term:  # fmt: skip
    """(value, column) of a stretch's direction leaving ``node``, unwrapped near ``near``."""
    s = net.stretches[e]
    opts = [(fixed[e], None)] if e not in pick else pick[e]
    out: Term = []
    for k, j in opts:
        k2 = k + (0 if node == s.u else 4)
        out.append((k2 + 8 * round((near - k2) / 8), j))
    return out


def _add_orders(p: Program, net: Network, pick: Pick, fixed: dict[int, float]) -> None:
    """At every station a chosen stretch touches: each stretch's direction, in the drawn
    cyclic order, exceeds the one before it (plus a full turn at the wrap)."""
    for node, inc in enumerate(net.incident):
        if len(inc) < 2 or not any(e in pick for e in inc):
            continue
        order = net.rotation(node)
        base = net.angle(order[0], node)
        phis = []
        for e in order:
            phi = net.angle(e, node)
            while phi < base:
                phi += 8.0
            phis.append(phi)
        terms = [
            _outward(net, pick, fixed, e, node, phi) for e, phi in zip(order, phis, strict=True)
        ]
        n = len(order)
        for i in range(n):
            _add_order_row(p, terms[i], terms[(i + 1) % n], 8.0 if i == n - 1 else 0.0)


def _add_order_row(p: Program, a: Term, b: Term, wrap: float) -> None:
    """``b`` (plus ``wrap``) at least a step above ``a``: a whole eighth between directions,
    a twentieth where an angle is kept as drawn."""
    whole = all(float(v).is_integer() for v, _ in a + b)
    gap = 1.0 if whole else 0.05
    row: dict[int, float] = {}
    const = wrap
    for sign, term in ((1.0, b), (-1.0, a)):
        for val, j in term:
            if j is None:
                const += sign * val
            else:
                row[j] = row.get(j, 0.0) + sign * val
    if row:
        p.row(row, gap - const)


def _add_bends(
    p: Program, net: Network, pick: Pick, fixed: dict[int, float], allow_45: bool
) -> None:
    """Each line's bends: doubling back (and 45° unless allowed) forbidden, the others
    priced by ``BEND_COST`` (a column of its own where two choices make the bend)."""
    pairs: dict[tuple[int, int], float] = {}
    for t in net.turns:
        if t.a not in pick and t.b not in pick:
            continue
        for va, ja in _outward(net, pick, fixed, t.a, t.at, 0.0):
            for vb, jb in _outward(net, pick, fixed, t.b, t.at, 0.0):
                if not (float(va).is_integer() and float(vb).is_integer()):
                    continue
                eighths = bend_eighths(int(va), int(vb))
                cols = [j for j in (ja, jb) if j is not None]
                if eighths == 0 or (eighths == 1 and not allow_45):
                    p.row({j: 1.0 for j in cols}, upper=len(cols) - 1.0)
                    continue
                cost = BEND_COST[eighths]
                if cost:
                    key = (ja if ja is not None else -1, jb if jb is not None else -1)
                    pairs[key] = pairs.get(key, 0.0) + cost
    for (ja, jb), cost in pairs.items():
        cols = [j for j in (ja, jb) if j >= 0]
        if len(cols) == 1:
            p.cost[cols[0]] += cost
            continue
        z = p.var(cost, 0.0, 1.0)
        p.row({z: 1.0, ja: -1.0, jb: -1.0}, -1.0)


def choose(
    net: Network,
    frozen: dict[int, float],
    allow_45: bool,
    time_limit: float,
    pricing: Pricing = Pricing(),
    nodes: int | None = None,
) -> Choice | None:
    """The cheapest directions keeping every station's cyclic order (the best found within
    ``nodes`` branch-and-bound nodes, when given); None if there is none within the
    candidates (or the time limit).

    ``frozen``: stretches between two pinned stations, with the angle they keep.
    """
    free = set(range(len(net.stretches))) - set(frozen)
    # the three nearest directions first; five where stretches crowd a station
    import time

    deadline = time.monotonic() + time_limit
    for count in (CANDIDATES, CANDIDATES + 2):
        p = Program()
        pick = add_choice(p, net, free, frozen, allow_45, count, pricing)
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        sol = p.solve(left, nodes)
        if sol.ok:
            return Choice(picked(pick, sol.values), sol.objective)
    if not allow_45:
        # a line doubling back more sharply than 90° in the input: a 45° bend is the least
        # change that keeps the order of the lines at its station
        left = deadline - time.monotonic()
        got = choose(net, frozen, True, left, pricing, nodes) if left > 0 else None
        if got is not None:
            return Choice(got.direction, got.cost, sharp=True)
    return None


def crowded(net: Network) -> int | None:
    """The station whose stretches leave within the narrowest fan for their number (the one
    to name when no directions keep every station's order)."""
    worst, where = math.inf, None
    for node, inc in enumerate(net.incident):
        if len(inc) < 2:
            continue
        if len(inc) > 8:
            return node
        angles = sorted(net.angle(e, node) for e in inc)
        gaps = [b - a for a, b in itertools.pairwise(angles)]
        gaps.append(angles[0] + 8 - angles[-1])
        room = 8 - max(gaps)
        slack = room - (len(inc) - 1)
        if slack < worst:
            worst, where = slack, node
    return where


def picked(pick: dict[int, list[tuple[int, int]]], values: list[float]) -> dict[int, int]:
    """The direction (0..7) each stretch took in a solution."""
    return {e: max(opts, key=lambda kj: values[kj[1]])[0] % 8 for e, opts in pick.items()}
