"""Octilinear layout of a map: ``layout(city, LayoutConfig()) -> LayoutResult``.

Stations move so that every stretch between consecutive stops runs on one of the
eight directions, with even spacing, the map's topology kept and every station
clear of the lines it is not on; then every wagon is placed beside its line's first
station, clear of everything by 1.5 mm on A4 and on Letter. Lines, stops, windows
and points never change, so the game played on the map is the same. The method:
docs/rendering.md#octilinear-layout.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import lcm
from typing import Any

from mapkit.layout.engine import LayoutError
from mapkit.layout.report import LayoutReport
from mapkit.layout.wagons import WagonError, place_wagons
from mapkit.mapfile.model import CityMap, Depot, build_map

__all__ = [
    "LayoutConfig", "LayoutError", "LayoutReport", "LayoutResult", "WagonError", "layout",
    "place_wagons",
]  # fmt: skip

Point = tuple[float, float]
MAX_DENOMINATOR = 12


@dataclass(frozen=True)
class LayoutConfig:
    """``pinned``: station ids kept where they are (with those marked ``"pinned": true``);
    ``time_limit``: seconds, the best layout found by then is returned; ``allow_45``: let
    lines bend by 45° (a hairpin-like turn otherwise forbidden); ``seed``: kept for
    reproducible runs (the method is deterministic: the same map gives the same layout)."""

    paper: str = "a4"
    pinned: frozenset[str] = field(default_factory=frozenset)
    time_limit: float = 5.0
    allow_45: bool = False
    seed: int = 0


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
    if city.description is not None:
        doc["description"] = city.description
    if city.author is not None:
        doc["author"] = city.author
    sheet: dict[str, Any] = {"color": city.sheet_color}
    if city.subtitle is not None:
        sheet["subtitle"] = city.subtitle
    doc["sheet"] = sheet
    stations = []
    for s in city.stations:
        st: dict[str, Any] = {"id": s.id, "x": s.x, "y": s.y}
        if s.name is not None:
            st["name"] = s.name
        if s.special:
            st["special"] = True
        if s.pinned:
            st["pinned"] = True
        stations.append(st)
    doc["stations"] = stations
    lines = []
    for ln in city.lines:
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
        d["stops"] = list(ln.stops)
        if ln.loop:
            d["loop"] = True
        if ln.shape is not None:
            d["shape"] = [list(p) for p in ln.shape]
        lines.append(d)
    doc["lines"] = lines
    return doc


def _num(v: float) -> int | float:
    return int(v) if float(v).is_integer() else v


def layout(
    city: CityMap,
    config: LayoutConfig = LayoutConfig(),
    doc: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
) -> LayoutResult:
    """Lay ``city`` out on the eight directions (``doc``: its source document, whose other
    keys are kept). Raises LayoutError naming the station or wagon that cannot be placed."""
    from mapkit.layout.engine import run
    from mapkit.layout.network import build_network
    from mapkit.layout.report import measure
    from mapkit.mapfile import writer

    start = time.monotonic()
    unknown = sorted(set(config.pinned) - {s.id for s in city.stations})
    if unknown:
        raise LayoutError(f"--pin names no station: '{unknown[0]}'")
    pinned_ids = set(config.pinned) | {s.id for s in city.stations if s.pinned}
    net = build_network(city)
    pinned = {i for i, sid in enumerate(net.ids) if sid in pinned_ids}
    deadline = start + config.time_limit * 0.7
    drawn = run(net, pinned, config.allow_45, deadline, progress)
    notes = []
    off = drawn.placement.off_direction
    if off:
        worst = max(off, key=off.get)
        s = net.stretches[worst]
        notes.append(
            f"no octilinear layout found within {config.time_limit:g} s: {len(off)} "
            f"stretch(es) off the eight directions, the worst from station '{net.ids[s.u]}' "
            f"to '{net.ids[s.v]}' (pin fewer stations, allow 45° bends or give more time)"
        )
    xy = drawn.xy
    if pinned:
        k = drawn.scale_in
        out = [net.xy[i] if i in pinned else (x / k, y / k) for i, (x, y) in enumerate(xy)]
    else:
        out = _exact(xy) or [(round(x, 9), round(y, 9)) for x, y in xy]
    base = city_doc(city) if doc is None else writer.normalize(doc)
    new_doc = {**base, "stations": [dict(s) for s in base["stations"]]}
    for st, (x, y) in zip(new_doc["stations"], out, strict=True):
        st["x"], st["y"] = _num(x), _num(y)
    lines = []
    for ln in new_doc["lines"]:
        ln = dict(ln)
        ln.pop("shape", None)
        lines.append(ln)
    new_doc["lines"] = lines
    placed_city = build_map(new_doc)
    try:
        depots = place_wagons(placed_city)
    except WagonError as exc:
        raise LayoutError(str(exc)) from None
    for ln in new_doc["lines"]:
        x, y = depots[ln["id"]]
        ln["depot"] = {**ln["depot"], "x": _num(x), "y": _num(y)}
    new_doc = writer.normalize(new_doc)
    new_city = build_map(new_doc, source=city.source)
    report = measure(city, new_city, time.monotonic() - start, drawn.attempts, config.paper)
    report.notes = notes
    return LayoutResult(new_doc, new_city, report)


def relaid_wagons(city: CityMap, lines: Iterable[str] | None = None) -> CityMap:
    """``city`` with the wagons of ``lines`` (all by default) placed again."""
    depots = place_wagons(city, lines=lines)
    return replace(
        city,
        lines=tuple(
            replace(ln, depot=Depot(*depots[ln.id], ln.depot.max_width_mm))
            if ln.id in depots
            else ln
            for ln in city.lines
        ),
    )
