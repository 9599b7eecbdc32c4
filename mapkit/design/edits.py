"""The edits ``tune`` tries: a line's windows and points, alone or together, and combinations.

An :class:`Edit` sets some lines' windows and/or ``(first, others)`` bonuses; it is plain data,
so the best edits of several lines can be merged into one candidate. ``others`` follows the
map's printed others/first ratio (at least 1, at most ``first``). Besides the single steps
(windows +-1, ``first`` +-1) each line gets **directed** edits that close its payoff gap at
once: ``first`` set to what would pay the target bonus per window at the line's measured
completion, with its windows unchanged, one more or one fewer. Window counts stay within
1..``MAX_WINDOWS``; the validator decides whether the wagon still fits.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

MAX_WINDOWS = 8


@dataclass(frozen=True)
class LineEdit:
    line: str
    """A line's id, or a branch's (``C1``: its points; its windows are the line's)."""
    windows: int | None = None
    points: tuple[int, int] | None = None


@dataclass(frozen=True)
class UnitDoc:
    """A scoring unit of a map document (``CityMap.units``): a line, or a branch of one."""

    id: str
    line: dict[str, Any]
    """The line's document: the windows are its."""
    scored: dict[str, Any]
    """Where the unit's ``points`` are: the line's document, or the branch's."""

    @property
    def windows(self) -> int:
        return self.line["windows"]

    @property
    def points(self) -> dict[str, int]:
        return self.scored.get("points", self.line["points"])


def lines_named(doc: dict[str, Any], ids: Iterable[str]) -> tuple[str, ...]:
    """The line ids of ``ids``, which name lines or branches (``C1``), once each, in order."""
    of = {u.id: u.line["id"] for u in units_of(doc)}
    return tuple(dict.fromkeys(of.get(i, i) for i in ids))


def units_of(doc: dict[str, Any]) -> list[UnitDoc]:
    """The scoring units of ``doc`` in map order, labelled as ``CityMap.units`` labels them."""
    out = []
    for ln in doc["lines"]:
        branches = ln.get("branches") or ()
        if not branches:
            out.append(UnitDoc(ln["id"], ln, ln))
        for b, br in enumerate(branches):
            out.append(UnitDoc(f"{ln['id']}{b + 1}", ln, br))
    return out


@dataclass(frozen=True)
class Edit:
    changes: tuple[LineEdit, ...]
    description: str

    @property
    def lines(self) -> frozenset[str]:
        return frozenset(c.line for c in self.changes)

    def apply(self, doc: dict[str, Any]) -> dict[str, Any]:
        """A new document with the edit made (``doc`` is left as it is)."""
        new = copy.deepcopy(doc)
        by_id = {u.id: u for u in units_of(new)}
        lines = {ln["id"]: ln for ln in new["lines"]}
        for c in self.changes:
            unit = by_id.get(c.line)
            if c.windows is not None:
                (unit.line if unit else lines[c.line])["windows"] = c.windows
            if c.points is not None:
                assert unit is not None, c.line
                unit.scored["points"] = {"first": c.points[0], "others": c.points[1]}
        return new


def merge(edits: list[Edit]) -> Edit:
    """One edit making all of ``edits`` (they must touch different lines)."""
    return Edit(
        tuple(c for e in edits for c in e.changes), " + ".join(e.description for e in edits)
    )


def others_ratio(doc: dict[str, Any]) -> float:
    units = units_of(doc)
    return sum(u.points["others"] for u in units) / (sum(u.points["first"] for u in units) or 1)


def _points(first: int, ratio: float) -> tuple[int, int]:
    return first, max(1, min(first, round(first * ratio)))


def _describe(u: UnitDoc, windows: int | None, points: tuple[int, int] | None) -> str:
    parts = []
    if windows is not None:
        parts.append(f"windows {u.windows} -> {windows}")
    if points is not None:
        p = u.points
        said = "" if u.scored is u.line else f"branch {u.id} "  # a branch's windows: its line's
        parts.append(f"{said}points {p['first']}/{p['others']} -> {points[0]}/{points[1]}")
    return f"line {u.line['id']} " + ", ".join(parts)


def line_edits(
    doc: dict[str, Any],
    completion: dict[str, float],
    rate: float | None,
    windows: bool = True,
    points: bool = True,
) -> Iterator[Edit]:
    """Every single-line edit of ``doc``, in map order. ``completion``: each line's measured
    completion share; ``rate``: the target bonus per window (None: no directed edits)."""
    ratio = others_ratio(doc)
    for ln in units_of(doc):
        w, f = ln.windows, ln.points["first"]
        current = (f, ln.points["others"])
        options: list[tuple[int | None, tuple[int, int] | None]] = []
        if windows:
            options += [(w + d, None) for d in (1, -1) if 1 <= w + d <= MAX_WINDOWS]
        if points:
            options += [(None, _points(f + d, ratio)) for d in (1, -1) if f + d >= 1]
        if points and rate is not None and completion[ln.id] > 0:
            for dw in (0, 1, -1) if windows else (0,):
                if not 1 <= w + dw <= MAX_WINDOWS:
                    continue
                aim = _points(max(1, round(rate * (w + dw) / completion[ln.id])), ratio)
                if abs(aim[0] - f) > 1 or (dw and aim != current):
                    options.append((w + dw if dw else None, aim if aim != current else None))
        seen = set()
        for nw, np_ in options:
            if (nw, np_) in seen or (nw is None and np_ is None):
                continue
            seen.add((nw, np_))
            yield Edit((LineEdit(ln.id, nw, np_),), _describe(ln, nw, np_))


def window_transfers(doc: dict[str, Any]) -> Iterator[Edit]:
    """A window moved from one line to another (the game keeps its length): the pair moves
    tried when no single edit helps."""
    lines = doc["lines"]
    for a in lines:
        for b in lines:
            if a is b or a["windows"] <= 1 or b["windows"] >= MAX_WINDOWS:
                continue
            yield Edit(
                (
                    LineEdit(a["id"], a["windows"] - 1),
                    LineEdit(b["id"], b["windows"] + 1),
                ),
                f"a window from line {a['id']} to line {b['id']}",
            )
