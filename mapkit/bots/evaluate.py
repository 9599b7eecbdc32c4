"""The greedy evaluation: an estimate of a sheet's final score, and cheap deltas of it.

``H(sheet) = Σ_lines LV(line) + 2·interchanges − pw·empty stations + AL`` where the
line value ``LV`` is the bonus already won, or ``bonus · P(complete)`` plus the
worth of the line's unused windows (future crosses), and ``AL`` the all-lines bonus still
open times the chance of meeting its condition (the product of every line's chance of a
cross, or of completing). ``P`` comes from how many more cards the line's empty stretches
need (each stretch between marked stations needs its own number card) against its windows
left. Weights are tuned by simulation (docs/simulate.md).

The evaluation itself is the game kernel's (``kernel.candidates``, ``kernel.line_value``):
the kernel's bots and these Python bots read the same code. This module turns the bots'
sheet model (:class:`View`, bitmasks) into the kernel's arrays and the kernel's candidates
into the bots' moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mapkit.bots.model import Compiled
from mapkit.engine import kernel
from mapkit.engine.scoring import paying_units


@dataclass(frozen=True)
class Weights:
    """Tuned by ``python benchmarks/bench_bots.py tune`` (see docs/simulate.md)."""

    beta: float = 0.8
    """Per-card chance that a needed card arrives and fits."""
    over: float = 0.3
    """Factor on P when the line needs more cards than it has windows."""
    card: float = 5.0
    """Stations one card covers on average."""
    cap: float = 0.2
    """Worth of one future cross a line's windows can still make."""


DEFAULT = Weights()


@dataclass(slots=True)
class View:
    """One player's sheet as the bots see it (public information only)."""

    marked: int
    windows: list[int]
    lost: int = 0
    """Bitmask of lines whose ``first`` bonus another player has already taken."""
    done: int = 0
    """Bitmask of lines this player has completed."""
    inter: int = 0
    """Sum of the interchange numbers written so far."""
    pw: float = 1.0
    """Weight of one empty station (``Ruleset.empty_weight``: 1 solo, 0.5 with several players
    in Voll verplant)."""
    all_lines: int = 0
    """The all-lines bonus points still open to the player (``State.all_lines_open``)."""


Scored = tuple[float, int, int, int, int]
"""A candidate move as the bots keep it: ``(gain, route index, crosses, station, marks)``
(route -1: a free ride; station: the boxed or free-ride station, or -1; marks: the stations
it marks, as a bitmask)."""


class Evaluator:
    """The kernel's evaluation of one map with one set of weights, for :class:`View` sheets."""

    def __init__(self, cc: Compiled, w: Weights = DEFAULT) -> None:
        self.cc = cc
        self.w = w
        self.km = cc.tables.kernel
        self.bp = kernel.bot_params(w, 0.0, 0.0, 0, 0.0)  # only the evaluation's tables
        self.scratch = kernel.Scratch(self.km)
        self.mk = kernel.station_marks(self.km)
        self.win = np.zeros(len(cc.line_ids), np.int64)
        self.lost = np.zeros(len(cc.line_ids), np.int64)
        self._nbytes = (cc.n + 7) // 8
        self._lines = np.arange(len(cc.line_ids), dtype=np.int64)

    def load(self, v: View) -> None:
        """Put ``v`` into the kernel's arrays (marked stations, windows left, lost lines)."""
        n = self.cc.n
        bits = np.frombuffer(v.marked.to_bytes(self._nbytes, "little"), np.uint8)
        self.mk[:] = np.unpackbits(bits, bitorder="little")[:n]
        self.win[:] = v.windows
        self.lost[:] = np.right_shift(v.lost, self._lines) & 1

    def candidates(self, v: View, card: int, extra: float = 0.0) -> list[Any]:
        """Greedy's candidates on ``v`` for engine card ``card`` (``kernel.Candidate``)."""
        self.load(v)
        return kernel.candidates(
            self.km, self.bp, self.mk, self.win, self.lost, v.pw, v.all_lines, card, extra,
            self.scratch,
        )  # fmt: skip

    def best_gain(self, v: View, card: int) -> float:
        """The best greedy gain on ``v`` for ``card`` (``kernel.best_gain``)."""
        self.load(v)
        return kernel.best_gain(
            self.km, self.bp, self.mk, self.win, self.lost, v.pw, v.all_lines, card, self.scratch
        )

    def value(self, v: View) -> float:
        """H of a whole sheet (the clairvoyant beam's start)."""
        cc = self.cc
        self.load(v)
        total = 2.0 * v.inter - v.pw * (cc.n - v.marked.bit_count())
        branching = [bool(ln.branches) for ln in cc.city.lines]
        for li, lm in enumerate(cc.line_mask):
            lost = v.lost >> li & 1
            if v.marked & lm == lm and not branching[li]:
                total += float(cc.others[li] if lost and not v.done >> li & 1 else cc.first[li])
            else:
                total += kernel.line_value(self.km, self.bp, self.mk, li, v.windows[li], lost)
        return total + kernel.all_lines_value(self.km, self.bp, self.mk, self.win, v.all_lines)


def best_moves(ev: Evaluator, v: View, card: int, extra: float = 0.0) -> list[Scored]:
    """Every candidate as ``(gain, route index, crosses, station, marks)``, in greedy's order.

    Greedy's candidates (``kernel.candidates``): full runs only (a shorter run never scored
    better in tuning), interchange on each open line, and for a free ride the first empty
    stop of each line and every isolated empty stop (a one-stop hole), then none. ``extra``
    is added per special station a move marks (the variant's bonus)."""
    index = ev.cc.route_index
    return [
        (c.gain, index[c.line][c.route] if c.line >= 0 else -1, c.crosses, c.station, c.marks)
        for c in ev.candidates(v, card, extra)
    ]


def final_score(cc: Compiled, v: View) -> float:
    """The score of a finished sheet as the view knows it (lost lines pay ``others``; a
    branching line its run branches, the best or each as the line says; the all-lines bonus
    still open when the sheet meets its condition, ``kernel.all_lines_met``)."""
    t = cc.tables
    run = [
        unit
        for unit in t.units
        if all(v.marked >> t.stops[unit.line][j] & 1 for j in unit.positions)
    ]
    completed = {u.label: u.others if v.lost >> u.line & 1 else u.first for u in run}
    pts = sum(paying_units(t.city, completed).values())
    if v.all_lines:
        done = crossed = 0
        for u in run:
            done |= 1 << u.line
        for li, lm in enumerate(cc.line_mask):
            crossed |= (1 if v.marked & lm else 0) << li
        if kernel.all_lines_met(t.all_lines[0], t.n_lines, done, crossed):
            pts += v.all_lines
    return pts + 2 * v.inter - v.pw * (cc.n - v.marked.bit_count())


__all__ = [
    "DEFAULT", "Evaluator", "Scored", "View", "Weights", "best_moves", "final_score",
]  # fmt: skip
