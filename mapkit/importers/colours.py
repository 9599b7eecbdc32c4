"""Line colours for an imported map: the routes' own, unless players could confuse them.

Lines are taken in letter order. A line keeps its route's colour when validate's own
tests (``mapkit.checks.design.pair_likeness`` against every line already coloured, with
the stricter thresholds where the two meet on the sheet, ``sheet_fault`` against the
sheet and ``press_fault``, what a print shop can print) pass; otherwise it takes the
project palette's colour nearest to its own that passes them (a route without a colour: the
first that passes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mapkit.checks import colour
from mapkit.checks.design import pair_likeness, press_fault, sheet_fault


@dataclass(frozen=True)
class Recolour:
    """A line given another colour than its route's, and why (for the import's notes)."""

    line: str
    old: str | None
    new: str
    why: str


def choose_colours(
    wanted: Sequence[tuple[str, str | None]],
    meets: Callable[[str, str], bool],
    sheet: str,
) -> tuple[dict[str, str], list[Recolour]]:
    """(colour per line id, the lines whose colour changed) for ``wanted`` (line id, route
    colour or None) in letter order; ``meets(a, b)``: whether lines a and b meet."""
    chosen: dict[str, str] = {}
    changes: list[Recolour] = []

    def fits(line: str, c: str) -> bool:
        if sheet_fault(c, sheet) is not None or press_fault(c) is not None:
            return False
        return all(
            c != other and pair_likeness(c, other, meets(line, done)) is None
            for done, other in chosen.items()
        )

    def why(c: str | None) -> str:
        if c is None:
            return "it had none"
        if sheet_fault(c, sheet) is not None:
            return f"{c} would not stand out on the sheet"
        if press_fault(c) is not None:
            return f"{c} is outside what a press prints"
        return f"{c} is too close to a line it meets"

    palette = list(colour.PALETTE.values())
    for line, own in wanted:
        if own is not None and fits(line, own):
            chosen[line] = own
            continue
        options = sorted(palette, key=lambda c: colour.delta_e(own, c)) if own else palette
        pick = next((c for c in options if fits(line, c)), None)
        if pick is None:
            pick = max(options, key=lambda c: _worst_gap(c, chosen.values()))
        changes.append(Recolour(line, own, pick, why(own)))
        chosen[line] = pick
    return chosen, changes


def _worst_gap(c: str, others) -> float:
    return min((colour.worst_vision(c, o)[1] for o in others), default=float("inf"))
