"""Design layer of validate: can lines be completed, can colours be told apart, do bonuses fit.

Thresholds (documented in docs/rules.md, calibrated on the Metro X benchmark
sheets and on real network palettes):

- DES002 warns when the line's windows complete it in fewer than
  ``MIN_CHANCE`` of fresh draws, even with the best help.
- DES003 holds lines that meet on the sheet (share a station, which lines run
  side by side always do, or whose printed lines come within ``MEET_MM``) to
  CIEDE2000 ``MIN_DE_NORMAL`` (normal vision) and ``MIN_DE_CVD`` (simulated
  protanopia, deuteranopia and tritanopia): the figure the shipped cities keep.
  Lines that never meet are told apart by the letter at the wagon and in the
  panel too, so they need only ``MIN_DE_NORMAL_APART`` / ``MIN_DE_CVD_APART``.
- DES006 (info) reports a line whose stretches between stops run off the eight
  directions of transit-map practice (more than ``OCTILINEAR_TOL`` degrees from
  a multiple of 45) for more than ``MAX_OFF_OCTILINEAR`` of its length, or
  whose stop spacing varies more than ``MAX_SPACING_RATIO`` (longest / shortest).
- DES004 warns for a colour within ``MIN_SHEET_DE_NORMAL`` / ``MIN_SHEET_DE_CVD``
  of the sheet colour, or lighter than ``MAX_LIGHTNESS`` (L*).
- DES007 warns for a colour more than ``MAX_PRESS_EXCESS`` (CIEDE2000) outside the press
  hull of :mod:`mapkit.checks.colour`: a print shop would print it duller, and two lines
  DES003 tells apart on screen may no longer be apart on paper.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from mapkit.checks import colour
from mapkit.checks.completion import completion_chance, min_windows, structure
from mapkit.checks.context import CheckContext
from mapkit.mapfile.model import CityMap, Line
from mapkit.sheet import SheetLayout

MIN_CHANCE = 0.05
MEET_MM = 10.0
MIN_DE_NORMAL = 15.0
MIN_DE_CVD = 10.0
MIN_DE_NORMAL_APART = 5.0
MIN_DE_CVD_APART = 3.0
MIN_SHEET_DE_NORMAL = 20.0
MIN_SHEET_DE_CVD = 15.0
MAX_LIGHTNESS = 88.0
BONUS_MIN_CHANCE_GAP = 0.05
OCTILINEAR_TOL = 3.0
MAX_OFF_OCTILINEAR = 0.25
MAX_SPACING_RATIO = 3.0
MAX_PRESS_EXCESS = 8.0


def _key(ctx: CheckContext, ln: Line, stops: tuple[str, ...] | None = None):
    """The card reasoning's view of a line, or of one of a branching line's paths."""
    shared = [ctx.city.intersection_count(s) > 1 for s in stops or ln.stops]
    if ln.both_ends:
        # from either end inward is a loop's either way round from a first stop every card
        # passes: a shared stop in front of the line's first (checks/completion.py)
        return structure([True, *shared], True)
    return structure(shared, ln.loop)


def _pct(p: float) -> str:
    return f"{p * 100:.1f}%" if p >= 0.001 else f"{p * 100:.2f}%"


def completion(ctx: CheckContext) -> dict[str, float | None]:
    """DES001, DES002; returns each line's completion chance for DES005."""
    chances: dict[str, float | None] = {}
    missing = ctx.draft.missing_windows if ctx.draft else frozenset()
    for ln in ctx.city.lines:
        if ln.id in missing:
            continue
        # a branching line completes via any branch: the easiest path is its chance
        key = min((_key(ctx, ln, path) for path in ln.paths), key=min_windows)
        own = sum(key[0])
        need = min_windows(key)
        if need > ln.windows:
            chances[ln.id] = 0.0
            ctx.emit(
                "DES001",
                f"line '{ln.id}' needs at least {need} windows to cover its {own} stops that no "
                f"other line serves, even with the best cards; it has {ln.windows} "
                "(only a free ride could still complete it)",
                ctx.line_ptr(ln.id, "windows"),
            )
            continue
        p = completion_chance(key, ln.windows, ctx.city.ruleset)
        if ln.branches:
            ps = [completion_chance(_key(ctx, ln, path), ln.windows, ctx.city.ruleset)
                  for path in ln.paths]  # fmt: skip
            p = None if None in ps else max(ps)
        chances[ln.id] = p
        if p is not None and p < MIN_CHANCE:
            ctx.emit(
                "DES002",
                f"line '{ln.id}' completes with its {ln.windows} windows in only {_pct(p)} of "
                f"draws, even with every shared stop marked by other lines ({own} of its "
                f"{len(key[0]) - ln.both_ends} stops are its own); below {_pct(MIN_CHANCE)}",
                ctx.line_ptr(ln.id, "windows"),
            )
    return chances


def drawn_line(sheet: SheetLayout, ln: Line):
    """Line ``ln`` as printed on ``sheet`` (every branch, the wagon's lead-in included), as
    one shapely geometry; None when its points are not all finite and in range."""
    from shapely import MultiLineString

    paths = sheet.line_paths(ln)
    ok = all(len(pts) >= 2 and all(abs(v) < 1e12 for p in pts for v in p) for pts in paths)
    return MultiLineString(paths) if ok else None


def line_gap(a, b) -> float:
    """The paper between two ``drawn_line`` geometries, in mm (inf when either is None)."""
    return a.distance(b) if a is not None and b is not None else math.inf


def meeting_pairs(ctx: CheckContext) -> list[tuple[Line, Line, str | None]]:
    """Every pair of lines, with where they meet (None for a pair that never meets)."""
    city = ctx.city
    geoms = {ln.id: drawn_line(ctx.sheet, ln) for ln in city.lines}
    stops = {ln.id: set(ln.stops) for ln in city.lines}
    out: list[tuple[Line, Line, str | None]] = []
    for a, b in itertools.combinations(city.lines, 2):
        common = stops[a.id] & stops[b.id]
        if common:
            first = next(s for s in a.stops if s in common)
            out.append((a, b, f"they meet at station '{first}'"))
            continue
        d = line_gap(geoms[a.id], geoms[b.id])
        where = f"their lines come within {d:.1f} mm of each other" if d < MEET_MM else None
        out.append((a, b, where))
    return out


def alike_when_near(city: CityMap) -> list[tuple[Line, Line]]:
    """The pairs of lines whose DES003 warning depends on the drawing alone: no station in
    common, colours told apart while the lines stay apart but not once they come within
    ``MEET_MM`` (what the layout and the wagons' lead-ins must keep apart)."""
    out = []
    for a, b in itertools.combinations(city.lines, 2):
        if a.color == b.color or set(a.stops) & set(b.stops):
            continue
        if pair_likeness(a.color, b.color, True) and not pair_likeness(a.color, b.color, False):
            out.append((a, b))
    return out


@dataclass(frozen=True)
class Likeness:
    """Why two colours (or a colour and the sheet) are too alike: under which vision, by
    how much, and the difference needed."""

    vision: str
    delta_e: float
    need: float


def pair_likeness(a: str, b: str, meet: bool) -> Likeness | None:
    """DES003's test of two line colours (None: they are told apart); ``meet``: the lines
    meet on the sheet, and are held to the stricter thresholds."""
    need_normal, need_cvd = (
        (MIN_DE_NORMAL, MIN_DE_CVD) if meet else (MIN_DE_NORMAL_APART, MIN_DE_CVD_APART)
    )
    normal = colour.delta_e(a, b)
    if normal < need_normal:
        return Likeness("normal", normal, need_normal)
    vision, worst = min(
        ((v, colour.delta_e(a, b, v)) for v in colour.VISIONS[1:]), key=lambda t: t[1]
    )
    return Likeness(vision, worst, need_cvd) if worst < need_cvd else None


def sheet_fault(color: str, sheet: str) -> str | None:
    """DES004's test of a line colour on the sheet colour: why it will not stand out, or None."""
    light = colour.lab(color)[0]
    normal = colour.delta_e(color, sheet)
    vision, worst = min(
        ((v, colour.delta_e(color, sheet, v)) for v in colour.VISIONS[1:]),
        key=lambda t: t[1],
    )
    if normal < MIN_SHEET_DE_NORMAL:
        return f"ΔE2000 {normal:.1f} from the sheet colour {sheet}, below {MIN_SHEET_DE_NORMAL:.0f}"
    if worst < MIN_SHEET_DE_CVD:
        return (
            f"ΔE2000 {worst:.1f} from the sheet colour {sheet} with {vision}, "
            f"below {MIN_SHEET_DE_CVD:.0f}"
        )
    if light > MAX_LIGHTNESS:
        return f"lightness L* {light:.0f}, above {MAX_LIGHTNESS:.0f}: too pale for a thin line"
    return None


def colours(ctx: CheckContext) -> None:
    """DES003 (pairs that meet, and more leniently pairs that never do), DES004 (sheet)."""
    for a, b, where in meeting_pairs(ctx):
        meet = where is not None
        where = where or "they never meet, but the same colour still misleads"
        if a.color == b.color:
            ctx.emit(
                "DES003",
                f"lines '{a.id}' and '{b.id}' have the same colour {a.color}; {where}",
                ctx.line_ptr(b.id, "color"),
            )
            continue
        alike = pair_likeness(a.color, b.color, meet)
        if alike is None:
            continue
        if alike.vision == "normal":
            ctx.emit(
                "DES003",
                f"lines '{a.id}' ({a.color}) and '{b.id}' ({b.color}) look alike: colour "
                f"difference ΔE2000 {alike.delta_e:.1f}, below {alike.need:.0f}; {where}",
                ctx.line_ptr(b.id, "color"),
            )
        else:
            ctx.emit(
                "DES003",
                f"lines '{a.id}' ({a.color}) and '{b.id}' ({b.color}) look alike with "
                f"{alike.vision}: ΔE2000 {alike.delta_e:.1f}, below {alike.need:.0f}; {where}",
                ctx.line_ptr(b.id, "color"),
            )
    for ln in ctx.city.lines:
        why = sheet_fault(ln.color, ctx.city.sheet_color)
        if why is not None:
            ctx.emit(
                "DES004",
                f"line '{ln.id}' colour {ln.color} will not stand out when printed: {why}",
                ctx.line_ptr(ln.id, "color"),
            )


def press_fault(color: str) -> float | None:
    """DES007's test: how far outside what a press prints a colour lies (``colour.
    press_excess``), or None within the bound."""
    excess = colour.press_excess(color)
    return excess if excess > MAX_PRESS_EXCESS else None


def press(ctx: CheckContext) -> None:
    """DES007: a line colour a press cannot print."""
    for ln in ctx.city.lines:
        excess = press_fault(ln.color)
        if excess is not None:
            ctx.emit(
                "DES007",
                f"line '{ln.id}' colour {ln.color} lies outside what a CMYK press "
                f"prints: ΔE2000 {excess:.1f} from the nearest printable colour of its hue "
                f"(at most {MAX_PRESS_EXCESS:.0f})",
                ctx.line_ptr(ln.id, "color"),
            )


def bonuses(ctx: CheckContext, chances: dict[str, float | None]) -> None:
    """DES005: a longer and harder line should not pay less (first-finisher bonus)."""
    lines = [
        ln
        for ln in ctx.city.lines
        if chances.get(ln.id) is not None and (ctx.draft is None or ctx.draft.complete(ln.id))
    ]
    for a in lines:
        pa = chances[a.id]
        worse = [
            b
            for b in lines
            if len(a.stops) > len(b.stops)
            and pa <= chances[b.id] - BONUS_MIN_CHANCE_GAP  # type: ignore[operator]
            and a.first < b.first
        ]
        if not worse:
            continue
        b = max(worse, key=lambda b: (b.first - a.first, -b.index))
        ctx.emit(
            "DES005",
            f"line '{a.id}' ({len(a.stops)} stops, completes in {_pct(pa)} of draws) pays "
            f"{a.first}/{a.others}, less than the shorter and easier line '{b.id}' "
            f"({len(b.stops)} stops, {_pct(chances[b.id])}) with {b.first}/{b.others}",
            ctx.line_ptr(a.id, "points"),
        )


def layout_figures(city: CityMap, ln: Line) -> tuple[float, float, float]:
    """(share of length off the eight directions, shortest and longest stop spacing).

    Measured on the line's route between its first and last stop (the wagon's
    lead-in is the designer's free choice), in map units.
    """
    off = total = 0.0
    gaps = []
    for b, route in enumerate(city.drawn_paths(ln)):
        skip = 1 if b == 0 else len(ln.trunk)  # a further branch: from the fork on
        for (x0, y0), (x1, y1) in itertools.pairwise(route[skip:]):
            length = math.hypot(x1 - x0, y1 - y0)
            angle = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 45.0
            total += length
            if min(angle, 45.0 - angle) > OCTILINEAR_TOL:
                off += length
    for b, path in enumerate(ln.paths):
        stops = [city.station(s).xy for s in path[0 if b == 0 else len(ln.trunk) - 1 :]]
        if ln.loop:
            stops.append(stops[0])
        gaps += [math.dist(a, c) for a, c in itertools.pairwise(stops)]
    return (off / total if total else 0.0, min(gaps, default=0.0), max(gaps, default=0.0))


def layout(ctx: CheckContext) -> None:
    """DES006: lines drawn off the eight directions or with very uneven stop spacing."""
    scale = ctx.sheet.scale
    for ln in ctx.city.lines:
        share, short, long = layout_figures(ctx.city, ln)
        ratio = long / short if short > 0 else math.inf
        if share <= MAX_OFF_OCTILINEAR and ratio <= MAX_SPACING_RATIO:
            continue
        ctx.emit(
            "DES006",
            f"line '{ln.id}': {share:.0%} of its length runs off the eight directions "
            f"(more than {OCTILINEAR_TOL:.0f}° from a multiple of 45°, at most "
            f"{MAX_OFF_OCTILINEAR:.0%} reads as a transit map); its stops are "
            f"{short * scale:.0f} to {long * scale:.0f} mm apart at print scale "
            f"(ratio {ratio:.1f}, at most {MAX_SPACING_RATIO:.1f} looks even)",
            ctx.line_ptr(ln.id, "stops"),
        )


def check(ctx: CheckContext) -> None:
    """DES001-DES006."""
    chances = completion(ctx)
    colours(ctx)
    press(ctx)
    bonuses(ctx, chances)
    layout(ctx)
