"""Octilinear layout of a map: ``layout(city, LayoutConfig()) -> LayoutResult``.

Stations move so that every stretch between consecutive stops runs on one of the
eight directions, with even spacing, the map's topology kept and every station
clear of the lines it is not on; then every wagon is placed beside its line's first
station, clear of everything by 1.5 mm on A4 and on Letter. Lines, stops, windows
and points never change, so the game played on the map is the same. The method:
docs/rendering.md#octilinear-layout.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import lcm
from typing import Any

from mapkit.layout.engine import LayoutError, doglegs
from mapkit.layout.report import LayoutReport
from mapkit.layout.wagons import CLEARANCE_MM, WagonError, place_wagons, wagon_clearance
from mapkit.mapfile.model import CityMap, Line, build_map
from mapkit.rulesets import DEFAULT_RULESET

__all__ = [
    "LayoutConfig", "LayoutError", "LayoutReport", "LayoutResult", "WagonError", "layout",
    "place_wagons", "with_wagons",
]  # fmt: skip

Point = tuple[float, float]
MAX_DENOMINATOR = 12
SEARCH_SHARE = 0.7
WAGON_SHARE = 0.85
"""The layout's search stops at this share of the time limit, the wagons' at that: the
rest is for measuring the report and writing the map, so the whole run keeps the limit."""


@dataclass(frozen=True)
class LayoutConfig:
    """``pinned``: station ids kept where they are (with those marked ``"pinned": true``);
    ``time_limit``: seconds, a safety net: the search counts its work (rounds, attempts,
    branch-and-bound nodes), so the same map and seed give the same layout on any machine
    unless the limit stops it first (the report then says so; the best layout found by then
    is returned); ``allow_45``: let lines bend by 45° (a hairpin-like turn otherwise
    forbidden); ``seed``: 0 for the plain drawing, any other number nudges the price of
    every candidate direction (by up to a 90° bend's) so that near-ties fall another way:
    another seed, another drawing to choose from."""

    paper: str = "a4"
    pinned: frozenset[str] = field(default_factory=frozenset)
    time_limit: float = 10.0
    allow_45: bool = False
    seed: int = 0
    polish: bool = True
    """After the faithful drawing, search again with directions priced for fewer bends
    (``engine.POLISH``) and keep the cleanest drawing with the lowest bend score; False:
    the faithful drawing only (the quick heuristic)."""
    started: float | None = None
    """``time.monotonic()`` the time limit counts from (default: the call's start; the CLI
    gives the command's start, since loading the map took some of the limit)."""


@dataclass
class LayoutResult:
    doc: dict[str, Any]
    city: CityMap
    report: LayoutReport


def _exact(xy: list[Point]) -> list[Point] | None:
    """The coordinates as integers when they are (near) small-denominator fractions of a
    common grid, so that diagonals are exactly diagonal; None when they are not."""
    fr = []
    for x, y in xy:
        fx, fy = (
            Fraction(x).limit_denominator(MAX_DENOMINATOR),
            Fraction(y).limit_denominator(MAX_DENOMINATOR),
        )
        if abs(fx - Fraction(x)) > 1e-6 or abs(fy - Fraction(y)) > 1e-6:
            return None
        fr.append((fx, fy))
    den = lcm(*(f.denominator for p in fr for f in p))
    lo_x = min(p[0] for p in fr)
    lo_y = min(p[1] for p in fr)
    return [(int((fx - lo_x) * den), int((fy - lo_y) * den)) for fx, fy in fr]


def city_doc(city: CityMap) -> dict[str, Any]:
    """A map document for a model (for a model built without one)."""
    doc: dict[str, Any] = {"format": "mapkit-map/1", "id": city.id, "name": city.name}
    if city.ruleset.id != DEFAULT_RULESET:
        doc["ruleset"] = city.ruleset.to_doc()
    if city.description is not None:
        doc["description"] = city.description
    if city.author is not None:
        doc["author"] = city.author
    sheet: dict[str, Any] = {"color": city.sheet_color}
    if city.subtitle is not None:
        sheet["subtitle"] = city.subtitle
    doc["sheet"] = sheet
    if city.all_lines is not None:
        doc["all_lines_bonus"] = city.all_lines.to_doc()
    stations = []
    for s in city.stations:
        st: dict[str, Any] = {"id": s.id, "x": s.x, "y": s.y}
        if s.name is not None:
            st["name"] = s.name
        if s.special:
            st["special"] = True
        if s.pinned:
            st["pinned"] = True
        if s.label_at is not None:
            st["label"] = s.label_at
        stations.append(st)
    doc["stations"] = stations
    doc["lines"] = [_line_doc(ln) for ln in city.lines]
    return doc


def _line_doc(ln: Line) -> dict[str, Any]:
    """A line of the model as its document."""
    d: dict[str, Any] = {"id": ln.id}
    if ln.name is not None:
        d["name"] = ln.name
    d["color"] = ln.color
    d["windows"] = ln.windows
    d["points"] = {"first": ln.first, "others": ln.others}
    depot: dict[str, Any] = {"x": ln.depot.x, "y": ln.depot.y}
    if ln.depot.max_width_mm is not None:
        depot["max_width_mm"] = ln.depot.max_width_mm
    d["depot"] = depot
    d["stops"] = list(ln.trunk)
    if ln.branches:
        d["branches"] = [
            {"stops": list(b.stops), "points": {"first": b.first, "others": b.others}}
            for b in ln.branches
        ]
        d["branch_scoring"] = ln.branch_scoring
    if ln.loop:
        d["loop"] = True
    if ln.both_ends:
        d["both_ends"] = True
    if ln.shape is not None:
        d["shape"] = [list(p) for p in ln.shape]
    return d


def _num(v: float) -> int | float:
    return int(v) if float(v).is_integer() else v


def _drawn_doc(
    city: CityMap, doc: dict[str, Any] | None, net, drawn, pinned: set[int]
) -> dict[str, Any]:
    """The map document with the stations (and bend points, as shapes) where ``drawn`` has
    them; the wagons still where they were."""
    from mapkit.mapfile import writer

    off = drawn.placement.off_direction
    keys = [key for key in sorted(drawn.bends) for _ in drawn.bends[key]]
    xy = drawn.xy + [p for key in sorted(drawn.bends) for p in drawn.bends[key]]
    if pinned:
        k = drawn.scale_in
        n = len(net.ids)
        out = [net.xy[i] if i in pinned else (x / k, y / k) for i, (x, y) in enumerate(xy)]
    else:
        out = _exact(xy) or [(round(x, 9), round(y, 9)) for x, y in xy]
    n = len(net.ids)
    out, legs = out[:n], out[n:]
    cut: dict[tuple[int, int], tuple[Point, ...]] = {}
    for key, p in zip(keys, legs, strict=True):
        cut[key] = (*cut.get(key, ()), p)
    bends = cut | doglegs(net, out, set(off))
    base = city_doc(city) if doc is None else writer.normalize(doc)
    new_doc = {**base, "stations": [dict(s) for s in base["stations"]]}
    for st, (x, y) in zip(new_doc["stations"], out, strict=True):
        st["x"], st["y"] = _num(x), _num(y)
    lines = []
    where = {sid: i for i, sid in enumerate(net.ids)}
    for ln in new_doc["lines"]:
        ln = dict(ln)
        ln.pop("shape", None)
        if "branches" in ln:  # never cut (``Network.straight``): drawn through its stops
            lines.append(ln)
            continue
        stops = [where[sid] for sid in ln["stops"]]
        if ln.get("loop"):
            stops.append(stops[0])
        if any((min(a, b), max(a, b)) in bends for a, b in itertools.pairwise(stops)):
            shape = [[ln["depot"]["x"], ln["depot"]["y"]]]
            for a, b in itertools.pairwise(stops):
                shape.append([_num(v) for v in out[a]])
                on = bends.get((min(a, b), max(a, b)), ())
                for p in on if a < b else on[::-1]:
                    shape.append([_num(v) for v in p])
            shape.append([_num(v) for v in out[stops[-1]]])
            ln["shape"] = shape
        lines.append(ln)
    new_doc["lines"] = lines
    return new_doc


def _refuse_bent_branches(city: CityMap, net, drawn) -> None:
    """LayoutError when a branching line keeps a stretch off the eight directions (it may not
    bend at shape points: the map format gives a branching line no shape)."""
    for e in sorted(set(drawn.placement.off_direction) & net.straight):
        s = net.stretches[e]
        line = min(set(s.lines) & {ln.id for ln in city.lines if ln.branches})
        raise LayoutError(
            f"line {line} branches and cannot bend at shape points: no octilinear direction "
            f"for its stretch from '{net.ids[s.u]}' to '{net.ids[s.v]}' keeps the order of "
            "the lines at its stations"
        )


def _refuse_unclean(city: CityMap, net, drawn, time_limit: float | None) -> None:
    """LayoutError naming the first of the best drawing's problems and how many others there
    are, when it breaks the topology (``report.topology``) or has stations and lines too
    close at print scale (``engine.printed_problems``): such a drawing is no layout.
    ``time_limit``: the limit that stopped the search (None: it did not)."""
    if not drawn.topology and not drawn.conflicts:
        return
    from mapkit.layout.coords import box_units, mm_per_unit
    from mapkit.layout.engine import MIN_SCALE, printed_problems
    from mapkit.layout.report import drawn_crossings, topology

    # validate's messages up to their details ("stations 'a' and 'b' nearly touch")
    printed = [
        m.split(": ")[0] + " at print scale" for m in printed_problems(city, drawn.xy, drawn.bends)
    ]
    live = [p for p, inc in zip(drawn.xy, net.incident, strict=False) if inc]
    shrunk = mm_per_unit(live) < MIN_SCALE - 1e-9
    moved = topology(net, net.xy, drawn.xy, drawn_crossings(net, city))
    problems = printed + moved if shrunk else moved + printed
    first, more = problems[0], len(problems) - 1
    found = f"{first}" + (f" (and {more} more)" if more else "")
    if shrunk:
        # the sheet shrinks a drawing too big for the paper below the game's sizes
        w, h = (max(c) - min(c) for c in zip(*live, strict=True))
        bw, bh = box_units(1.0)
        raise LayoutError(
            f"the map does not fit A4 and Letter at the game's sizes: its drawing needs "
            f"{w * MIN_SCALE:.0f} x {h * MIN_SCALE:.0f} mm where {bw:.0f} x {bh:.0f} mm print; "
            f"shrunk to fit, {found}"
            + (f"; the time limit ({time_limit:g} s) stopped the search" if time_limit else "")
        )
    raise LayoutError(f"{found}: {_no_clean_drawing(time_limit)}")


def _wagons_placed(
    city: CityMap, doc: dict[str, Any] | None, net, drawn, pinned: set[int], wagon_end: float
) -> tuple[dict[str, Any], CityMap, Any]:
    """The map document and model of the best drawing whose wagons all find a clear spot and
    leave the sheet clean, bringing no more lines too alike in colour together than the
    drawing did (their lead-ins are drawn lines too), and that drawing. The search's other
    drawings are tried, cleanest first, when the best one's wagons fail; if none leaves the
    sheet clean, the first whose wagons find spots; if none finds spots, the best one with
    its roomiest spots. Stops at ``wagon_end``."""
    from mapkit.layout.engine import colour_clashes, sheet_problems

    new_doc, new_city, chosen = None, None, drawn
    for cand in [drawn, *drawn.others]:
        cand_doc = _drawn_doc(city, doc, net, cand, pinned)
        try:
            depots = place_wagons(build_map(cand_doc), deadline=wagon_end)
        except WagonError:
            if time.monotonic() > wagon_end:
                break
            continue
        cand_doc, cand_city = _with_depots(cand_doc, depots, city)
        if new_doc is None:
            new_doc, new_city, chosen = cand_doc, cand_city, cand
        if not sheet_problems(cand_city) and colour_clashes(cand_city) <= cand.clashes:
            return cand_doc, cand_city, cand
        if time.monotonic() > wagon_end:
            break
    if new_doc is None:
        new_doc = _drawn_doc(city, doc, net, drawn, pinned)
        depots = place_wagons(build_map(new_doc), strict=False, deadline=wagon_end)
        new_doc, new_city = _with_depots(new_doc, depots, city)
    return new_doc, new_city, chosen


def _with_depots(
    doc: dict[str, Any], depots: dict[str, Point], city: CityMap
) -> tuple[dict[str, Any], CityMap]:
    """``doc`` with its wagons at ``depots``, normalised, and its model."""
    from mapkit.mapfile import writer

    for ln in doc["lines"]:
        x, y = (_num(round(v, 4)) for v in depots[ln["id"]])
        ln["depot"] = {**ln["depot"], "x": x, "y": y}
        if "shape" in ln:
            ln["shape"][0] = [x, y]
    doc = writer.normalize(doc)
    return doc, build_map(doc, source=city.source)


def _refuse_crowded_wagons(city: CityMap, time_limit: float | None) -> None:
    """LayoutError when the laid-out map, wagons placed, still has stations or lines too close
    at print scale (the wagons widen the drawing's extent, so the sheet prints it smaller):
    the first problem, how many more. ``time_limit``: the limit that stopped the search."""
    from mapkit.layout.engine import sheet_problems

    problems = sheet_problems(city)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise LayoutError(
            f"{problems[0].split(': ')[0]} at print scale{more} once the wagons are placed: "
            + _no_clean_drawing(time_limit)
        )


QUICK_REFUSED = (
    "; --quick keeps the faithful search's drawing: without it the layout searches "
    "straighter ones too"
)


@contextmanager
def _refusing(config: LayoutConfig) -> Iterator[None]:
    """A quick layout's refusal of its drawing says that the default one searches further
    (a city too tall for the paper as drawn may fit once its lines run straighter)."""
    try:
        yield
    except LayoutError as exc:
        if config.polish:
            raise
        raise LayoutError(f"{exc}{QUICK_REFUSED}") from None


def _no_clean_drawing(time_limit: float | None) -> str:
    """Why a refused drawing was the best: the time limit that stopped the search, or none."""
    if time_limit is not None:
        return f"no clean drawing within the time limit ({time_limit:g} s)"
    return "no clean drawing at the game's print sizes on A4 and Letter"


def layout(
    city: CityMap,
    config: LayoutConfig = LayoutConfig(),
    doc: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
) -> LayoutResult:
    """Lay ``city`` out on the eight directions (``doc``: its source document, whose other
    keys are kept). Raises LayoutError naming the station or wagon that cannot be placed.
    Without the polish, the faithful search's first clean drawing is taken, and where that
    leaves a wagon no clear spot or is refused, the faithful search runs in full."""
    config = replace(config, started=time.monotonic() if config.started is None else config.started)
    unknown = sorted(set(config.pinned) - {s.id for s in city.stations})
    if unknown:
        raise LayoutError(f"--pin names no station: '{unknown[0]}'")
    if not config.polish:
        try:
            result = _laid_out(city, config, doc, progress, quick=True)
            if not result.report.wagons_unclear:
                return result
        except LayoutError:
            pass
        if progress:
            progress("the first clean drawing is no layout: the faithful search in full")
    return _laid_out(city, config, doc, progress, quick=False)


def _laid_out(
    city: CityMap,
    config: LayoutConfig,
    doc: dict[str, Any] | None,
    progress: Callable[[str], None] | None,
    quick: bool,
) -> LayoutResult:
    """``layout`` with the quick search (``engine._Search.quick``) or without."""
    from mapkit.layout.engine import run
    from mapkit.layout.network import build_network
    from mapkit.layout.report import measure

    start = config.started
    pinned_ids = set(config.pinned) | {s.id for s in city.stations if s.pinned}
    net = build_network(city)
    pinned = {i for i, sid in enumerate(net.ids) if sid in pinned_ids}
    search_end = start + config.time_limit * SEARCH_SHARE
    drawn = run(
        net, pinned, config.allow_45, search_end, city, progress, config.seed, config.polish,
        quick,
    )  # fmt: skip
    _refuse_bent_branches(city, net, drawn)
    late = time.monotonic() > search_end
    with _refusing(config):
        _refuse_unclean(city, net, drawn, config.time_limit if late else None)
    notes = []
    if drawn.sharp:
        notes.append(
            "45° bends allowed: a line doubles back so sharply that no layout without them "
            "keeps the order of the lines at its station"
        )
    off = drawn.placement.off_direction
    if off:
        notes.append(
            f"{len(off)} stretch(es) could not take one direction within "
            f"{config.time_limit:g} s and bend once on the way (135°)"
        )
    wagon_end = start + config.time_limit * WAGON_SHARE
    if progress:
        progress(f"placing the wagons of {len(city.lines)} lines")
    new_doc, new_city, drawn = _wagons_placed(city, doc, net, drawn, pinned, wagon_end)
    wagons_late = time.monotonic() > wagon_end
    late = late or wagons_late
    if progress:
        progress("measuring the layout report")
    report = measure(city, new_city, time.monotonic() - start, drawn.attempts, config.paper)
    tight = {k: v for k, v in wagon_clearance(new_city).items() if v < CLEARANCE_MM - 1e-9}
    if tight:
        first, *more = sorted(tight)
        notes.append(
            (
                f"the time limit ({config.time_limit:g} s) stopped the wagons' search: "
                if wagons_late
                else ""
            )
            + f"no clear spot for the wagon of line '{first}' ({tight[first]:.1f} mm)"
            + (f" and {len(more)} other line(s)" if more else "")
            + f" beside its first station: {CLEARANCE_MM} mm of paper needed on A4 and Letter"
        )
    if late:
        notes.append(
            f"the time limit ({config.time_limit:g} s) stopped the search before its work "
            "was done: on a faster or less busy machine the layout may differ (raise "
            "--time-limit for the full search)"
        )
    if not tight:
        with _refusing(config):
            _refuse_crowded_wagons(new_city, config.time_limit if late else None)
    report.wagons_unclear = sorted(tight)
    report.notes = notes
    return LayoutResult(new_doc, new_city, report)


def with_wagons(
    doc: dict[str, Any], city: CityMap, lines: Iterable[str] | None = None
) -> dict[str, Any]:
    """``doc`` (the document of ``city``) with the wagons of ``lines`` (all by default)
    placed again by :func:`place_wagons`; stations stay where they are. Raises WagonError
    when a wagon has no clear spot."""
    depots = place_wagons(city, lines=lines)
    out = writer_normalize(doc)
    new_lines = []
    for ln in out["lines"]:
        ln = dict(ln)
        if ln["id"] in depots:
            x, y = depots[ln["id"]]
            ln["depot"] = {**ln["depot"], "x": _num(round(x, 4)), "y": _num(round(y, 4))}
            if "shape" in ln:
                ln["shape"] = [[ln["depot"]["x"], ln["depot"]["y"]], *ln["shape"][1:]]
        new_lines.append(ln)
    out["lines"] = new_lines
    return out


def writer_normalize(doc: dict[str, Any]) -> dict[str, Any]:
    from mapkit.mapfile import writer

    return writer.normalize(doc)
