"""Line colours for an imported map: the routes' own, unless players could confuse them.

Lines are taken in letter order. A line keeps its route's colour when validate's own
tests (``mapkit.checks.design.pair_likeness`` against every line already coloured, with
the stricter thresholds where the two meet on the sheet, ``sheet_fault`` against the
sheet and ``press_fault``, what a press prints) pass; otherwise it takes the project
palette's colour nearest to its own that passes them (a route without a colour: the first
that passes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

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
    colour or None) in letter order; ``meets(a, b)``: whether lines a and b meet.

    As few lines as it takes change colour: of the lines whose own colours clash, the one
    clashing with the most others (the later letter on a tie) changes, until none clash;
    those then take, in letter order, the nearest colour (of the palette and a spread of
    shades; a line with no colour: the palette's first) that prints (DES007) and passes
    against every line coloured so far."""
    from mapkit.checks.design import press_fault

    def clash(a: tuple[str, str], b: tuple[str, str]) -> bool:
        return a[1] == b[1] or pair_likeness(a[1], b[1], meets(a[0], b[0])) is not None

    keep = [
        (ln, c)
        for ln, c in wanted
        if c is not None and sheet_fault(c, sheet) is None and press_fault(c) is None
    ]
    order = [ln for ln, _ in wanted]
    while keep:
        count = {k: sum(clash(k, o) for o in keep if o != k) for k in keep}
        worst = max(keep, key=lambda k: (count[k], order.index(k[0])))
        if count[worst] == 0:
            break
        keep.remove(worst)
    chosen: dict[str, str] = dict(keep)
    changes: list[Recolour] = []

    def fits(line: str, c: str) -> bool:
        if sheet_fault(c, sheet) is not None or press_fault(c) is not None:
            return False
        return all(
            c != other and pair_likeness(c, other, meets(line, done)) is None
            for done, other in chosen.items()
        )

    palette = list(colour.PALETTE.values())
    for line, own in wanted:
        if line in chosen:
            continue
        if own:
            options = sorted(_SHADES, key=lambda c: colour.delta_e(own, c))
        else:
            options = palette + _SHADES
        pick = next((c for c in options if fits(line, c)), None)
        if pick is None:
            pick = max(options, key=lambda c: _worst_gap(c, chosen.values()))
        chosen[line] = pick
        changes.append(Recolour(line, own, pick))
    return {ln: chosen[ln] for ln, _ in wanted}, changes


def _shades() -> list[str]:
    """Colours to choose from beyond the palette: 24 hues at three lightnesses and two
    saturations (a route colour too close to another moves to the nearest that passes)."""
    import colorsys

    out = list(colour.PALETTE.values())
    for h in range(24):
        for light in (0.3, 0.45, 0.6):
            for sat in (0.6, 1.0):
                r, g, b = colorsys.hls_to_rgb(h / 24, light, sat)
                out.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return out


_SHADES = _shades()


def _worst_gap(c: str, others) -> float:
    return min(
        (colour.delta_e(c, o, v) for o in others for v in colour.VISIONS), default=float("inf")
    )


def told_apart(
    doc: dict[str, Any],
    wanted: Iterable[tuple[str, str | None]] | None = None,
    papers: Iterable[str] = ("a4", "letter"),
) -> tuple[dict[str, Any], list[Recolour]]:
    """``doc`` with its line colours chosen by :func:`choose_colours` (``wanted``: line id
    and the colour it would have, by default its own), two lines counting as meeting when
    validate's DES003 says so on any of ``papers``; and the lines whose colour changed."""
    from mapkit.checks.context import CheckContext
    from mapkit.checks.design import meeting_pairs
    from mapkit.mapfile import LoadResult, build_map

    city = build_map(doc)
    met = {
        frozenset((a.id, b.id))
        for paper in papers
        for a, b, where in meeting_pairs(CheckContext(LoadResult("<colours>", doc), city, paper))
        if where is not None
    }
    if wanted is None:
        wanted = [(d["id"], d.get("color")) for d in doc["lines"]]
    colours, changes = choose_colours(
        list(wanted), lambda a, b: frozenset((a, b)) in met, city.sheet_color
    )
    lines = [{**d, "color": colours[d["id"]]} for d in doc["lines"]]
    return {**doc, "lines": lines}, changes
