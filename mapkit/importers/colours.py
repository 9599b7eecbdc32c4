"""Line colours for an imported map: the routes' own, unless players could confuse them.

Lines are taken in letter order. A line keeps its route's colour when validate's own
tests (``mapkit.checks.design.pair_likeness`` against every line already coloured, with
the stricter thresholds where the two meet on the sheet, and ``sheet_fault`` against the
sheet) pass; otherwise it takes the project palette's colour nearest to its own that
passes them (a route without a colour: the first that passes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mapkit.checks import colour
from mapkit.checks.design import pair_likeness, sheet_fault


@dataclass(frozen=True)
class Recolour:
    line: str
    old: str | None
    new: str


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
        if sheet_fault(c, sheet) is not None:
            return False
        return all(
            c != other and pair_likeness(c, other, meets(line, done)) is None
            for done, other in chosen.items()
        )

    palette = list(colour.PALETTE.values())
    for line, own in wanted:
        if own is not None and fits(line, own):
            chosen[line] = own
            continue
        options = sorted(palette, key=lambda c: colour.delta_e(own, c)) if own else palette
        pick = next((c for c in options if fits(line, c)), None)
        if pick is None:
            pick = max(options, key=lambda c: _worst_gap(c, chosen.values()))
        chosen[line] = pick
        changes.append(Recolour(line, own, pick))
    return chosen, changes


def _worst_gap(c: str, others) -> float:
    return min((colour.worst_vision(c, o)[1] for o in others), default=float("inf"))
