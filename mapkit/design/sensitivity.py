"""Sensitivity: what one more or one fewer window, or point of ``first``, does to the map.

For every line and each of the four edits (windows +-1, ``first`` +-1 with ``others`` following
the map's ratio, as ``tune`` makes them), the edited map is profiled on the **same decks** as
the original (common random numbers): the change of the greedy solo mean (a paired difference
deck by deck, with its interval) and of the edited line's completion. An edit that does not
validate (a wagon no longer fits) is listed as such and not measured.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mapkit.design.edits import Edit, LineEdit, others_ratio, units_of
from mapkit.design.intervals import Estimate, paired_difference_ci
from mapkit.design.profile import Profile, profile


@dataclass
class Sensitivity:
    line: str
    edit: str
    valid: bool
    mean: Estimate | None
    """Change of the greedy solo mean (paired), None when the edit does not validate."""
    completion: float | None
    """Change of the line's completion share."""

    def to_dict(self) -> dict[str, object]:
        return {
            "line": self.line,
            "edit": self.edit,
            "valid": self.valid,
            "mean_change": self.mean.to_dict() if self.mean else None,
            "completion_change": None if self.completion is None else round(self.completion, 4),
        }


def edits_of(doc: dict[str, Any]) -> list[Edit]:
    """The four one-step edits of every line that stay within the format's ranges."""
    ratio = others_ratio(doc)
    out = []
    for ln in units_of(doc):  # a branch's windows are its line's
        w, f = ln.windows, ln.points["first"]
        for d in (1, -1):
            if w + d >= 1:
                sign = "+" if d > 0 else "-"
                out.append(Edit((LineEdit(ln.id, windows=w + d),), f"windows {sign}1"))
        for d in (1, -1):
            if f + d >= 1:
                others = max(1, min(f + d, round((f + d) * ratio)))
                sign = "+" if d > 0 else "-"
                edit = LineEdit(ln.id, points=(f + d, others))
                out.append(Edit((edit,), f"first {sign}1"))
    return out


def measure_sensitivity(
    doc: dict[str, Any], base: Profile, games: int, seed: int, paper: str = "a4",
    special: bool = False,
) -> list[Sensitivity]:  # fmt: skip
    from mapkit.design.tune import city_of

    out = []
    for e in edits_of(doc):
        (change,) = e.changes
        city = city_of(e.apply(doc), paper)
        if city is None:
            out.append(Sensitivity(change.line, e.description, False, None, None))
            continue
        p = profile(city, games, seed, 1, special)
        comp = p.lines[change.line].completion.value - base.lines[change.line].completion.value
        mean = paired_difference_ci(base.greedy, p.greedy)
        out.append(Sensitivity(change.line, e.description, True, mean, comp))
    return out
