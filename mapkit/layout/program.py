"""A small sparse linear (or mixed-integer) program, solved with HiGHS through highspy.

The layout builds its programs row by row (a direction choice, a separation found
too small) and re-solves after adding rows, so this keeps the rows as plain lists
and hands them to HiGHS in one batch per solve. A program solved again after more
columns and rows were added hands HiGHS only the new ones: the simplex starts from
the last optimal basis (a warm start) instead of from nothing.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

INF = float("inf")
MIP_GAP = 0.03
"""Integer programs stop within 3 % of the best bound: the layout's costs are soft
preferences, and proving the last percent costs seconds."""


@dataclass
class Solution:
    ok: bool
    values: list[float]
    objective: float
    status: str


@dataclass
class Program:
    cost: list[float] = field(default_factory=list)
    lower: list[float] = field(default_factory=list)
    upper: list[float] = field(default_factory=list)
    integer: list[int] = field(default_factory=list)
    rows: list[tuple[float, float, dict[int, float]]] = field(default_factory=list)
    _highs: object = field(default=None, repr=False)
    _passed: tuple[int, int] = (0, 0)
    """Columns and rows already handed to ``_highs`` (only their costs change after)."""
    _recost: dict[int, float] = field(default_factory=dict, repr=False)

    def var(self, cost: float = 0.0, lower: float = 0.0, upper: float = INF) -> int:
        self.cost.append(cost)
        self.lower.append(lower)
        self.upper.append(upper)
        return len(self.cost) - 1

    def binary(self, cost: float = 0.0) -> int:
        j = self.var(cost, 0.0, 1.0)
        self.integer.append(j)
        return j

    def set_cost(self, j: int, cost: float) -> None:
        """A new price for column ``j``: a program solved again starts from its last basis."""
        self.cost[j] = cost
        if j < self._passed[0]:
            self._recost[j] = cost

    def row(self, terms: dict[int, float], lower: float = -INF, upper: float = INF) -> None:
        self.rows.append((lower, upper, terms))

    def solve(self, time_limit: float = INF, nodes: int | None = None) -> Solution:
        """Solve within ``time_limit`` seconds and (for determinism: the same work on any
        machine, however loaded) ``nodes`` branch-and-bound nodes. Solved again, a program
        of continuous columns only starts from its last basis: add columns and rows in
        between, never change those already there."""
        import highspy
        import numpy as np

        if self._highs is None or self.integer:
            self._highs, self._passed = _highs(), (0, 0)
            self._recost.clear()
        h = self._highs
        if self._recost:
            cols = sorted(self._recost)
            h.changeColsCost(
                len(cols),
                np.array(cols, dtype=np.int32),
                np.array([self._recost[j] for j in cols], dtype=float),
            )
            self._recost.clear()
        inf = highspy.kHighsInf
        c0, r0 = self._passed
        n = len(self.cost) - c0
        if n:
            h.addCols(
                n,
                np.array(self.cost[c0:], dtype=float),
                np.array(self.lower[c0:], dtype=float),
                np.array([min(u, inf) for u in self.upper[c0:]], dtype=float),
                0,
                np.zeros(n, dtype=np.int32),
                np.array([], dtype=np.int32),
                np.array([], dtype=float),
            )
        rows = self.rows[r0:]
        if rows:
            starts, index, value = [], [], []
            for _lo, _hi, terms in rows:
                starts.append(len(index))
                index.extend(terms)
                value.extend(terms.values())
            h.addRows(
                len(rows),
                np.array([max(r[0], -inf) for r in rows], dtype=float),
                np.array([min(r[1], inf) for r in rows], dtype=float),
                len(index),
                np.array(starts, dtype=np.int32),
                np.array(index, dtype=np.int32),
                np.array(value, dtype=float),
            )
        self._passed = (len(self.cost), len(self.rows))
        n = len(self.cost)
        if self.integer:
            h.changeColsIntegrality(
                len(self.integer),
                np.array(self.integer, dtype=np.int32),
                np.array([highspy.HighsVarType.kInteger] * len(self.integer)),
            )
        if time_limit < INF:
            # HiGHS counts the limit from the instance's first run, not this one's
            h.setOptionValue("time_limit", h.getRunTime() + max(float(time_limit), 0.01))
        if nodes is not None:
            h.setOptionValue("mip_max_nodes", int(nodes))
        h.setOptionValue("random_seed", 0)
        h.setOptionValue("mip_rel_gap", MIP_GAP)
        h.setOptionValue("threads", 1)
        # RINS' sub-MIPs spent 1-1.2 s of each 2 s repair of a jittered Metro City (a node
        # limited repair stops at the root, where they polish the incumbent): off, the
        # repairs take half the time, and every shipped map draws the same
        h.setOptionValue("mip_heuristic_run_rins", False)
        h.run()
        status = h.getModelStatus()
        values = list(h.getSolution().col_value)
        stopped = (
            highspy.HighsModelStatus.kTimeLimit,
            highspy.HighsModelStatus.kIterationLimit,
            highspy.HighsModelStatus.kSolutionLimit,
        )
        ok = status == highspy.HighsModelStatus.kOptimal or (
            status in stopped and len(values) == n and h.getInfo().primal_solution_status == 2
        )
        return Solution(
            ok, values, h.getInfo().objective_function_value, h.modelStatusToString(status)
        )


_QUIET = False


def _highs():
    """A silent HiGHS instance. HiGHS prints its banner on stdout when the first instance
    is made, before any option can be set, and stdout may carry a report or a map: the
    first construction runs with file descriptor 1 pointed at /dev/null."""
    global _QUIET
    import highspy

    if _QUIET:
        h = highspy.Highs()
    else:
        sys.stdout.flush()
        saved = os.dup(1)
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 1)
            h = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
            os.close(null)
        _QUIET = True
    h.silent()
    return h
