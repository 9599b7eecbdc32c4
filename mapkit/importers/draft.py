"""Any imported network to a playable map: the one step both importers share.

merge nearby stations -> merge each route's patterns into lines -> keep the lines and
stations a sheet has room for -> letters, names, windows and points -> project to the
sheet -> wagons -> lay out (``mapkit.layout``) -> colours told apart where lines meet ->
validate. The projection and layout are tried with the centre evened out by a few
amounts, and the first map that validates clean is kept. Every choice the data forced
(a line left out, a colour changed) is a note.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mapkit.importers.network import ImportFailure, Network
from mapkit.importers.patterns import join_apart, merge_patterns
from mapkit.importers.reduce import DraftLine, keep_lines, thin
from mapkit.importers.stations import merge_nearby, short_names, slug, station_ids

if TYPE_CHECKING:
    from mapkit.layout import LayoutReport
    from mapkit.notices import Diagnostic

Progress = Callable[[str], None]
FORMAT = "mapkit-map/1"
BLENDS = (0.5, 0.75, 1.0, 0.25)
"""How far each try evens the projected density out towards the rank order (see
``project.even_out``): the first try whose map validates clean (laid out, unless
``--no-layout``) is kept, else the one with the fewest problems."""
WAGON_ROOM = 12.0
"""mm kept free round the stations' box for the wagons at the termini (without layout)."""


@dataclass(frozen=True)
class ImportConfig:
    """What to import and how big the sheet may be; the defaults are the published sheets'."""

    max_stations: int = 70
    max_lines: int = 10
    paper: str = "a4"
    layout: bool = True
    name: str | None = None
    map_id: str | None = None
    merge_m: float = 150.0
    separate: bool = False
    """Keep networks that share no station with the largest one (TOP002 warns of them)."""
    time_limit: float = 2.5
    """Seconds each layout try may take (at most ``len(BLENDS)`` tries: the import stays
    within 10 s)."""

    def __post_init__(self) -> None:
        from mapkit.sheet import PAPERS

        if self.paper not in PAPERS:
            raise ImportFailure(f"unknown paper {self.paper!r}; known: {', '.join(PAPERS)}", 2)
        if not 2 <= self.max_stations <= 400:
            raise ImportFailure("--max-stations must be 2 to 400", 2)
        if not 1 <= self.max_lines <= 26:
            raise ImportFailure("--max-lines must be 1 to 26", 2)
        if not 0 <= self.merge_m <= 5000:
            raise ImportFailure("--merge-distance must be 0 to 5000 metres", 2)
        if not 0 < self.time_limit <= 600:
            raise ImportFailure("--time-limit must be above 0 and at most 600 seconds", 2)


@dataclass
class ImportResult:
    """The draft map, what the data forced (``notes``), the layout's report (None without
    layout) and what validate says of the draft."""

    doc: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    layout_report: LayoutReport | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def problems(self) -> tuple[int, int]:
        """(errors, warnings) validate finds in the map."""
        from mapkit.notices import Severity

        sev = [d.severity for d in self.diagnostics]
        return (sev.count(Severity.ERROR), sev.count(Severity.WARNING))

    @property
    def stations(self) -> int:
        return len(self.doc["stations"])

    @property
    def lines(self) -> int:
        return len(self.doc["lines"])


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _letters(n: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(n)]


def draft_lines(network: Network, notes: list[str]) -> list[DraftLine]:
    """Every route's lines (trunk first, then branches and separate pieces)."""
    lines: list[DraftLine] = []

    def metres(a: str, b: str) -> float:
        pa, pb = network.places[a], network.places[b]
        k = math.cos(math.radians((pa.lat + pb.lat) / 2))
        return 111_195.0 * math.hypot(pa.lat - pb.lat, (pa.lon - pb.lon) * k)

    for route in network.routes:
        merged = join_apart(merge_patterns(list(route.patterns)), metres)
        if merged.left_out:
            names = ", ".join(sorted(network.places[s].name for s in merged.left_out))
            notes.append(f"route {route.name}: left out {names} (on a one-way variant)")
        if not merged.pieces:
            notes.append(f"route {route.name}: left out, it has fewer than two stations")
            continue
        for i, piece in enumerate(merged.pieces):
            lines.append(DraftLine(route, i, list(piece.stops), piece.loop))
    if not lines:
        raise ImportFailure("no chosen route has two stations or more: nothing to draw")
    return lines


def network_to_map(
    network: Network, config: ImportConfig | None = None, progress: Progress | None = None
) -> ImportResult:
    """The playable draft map of a network (see the module docstring); ``progress`` hears
    how a long layout goes."""
    cfg = config or ImportConfig()
    notes: list[str] = []
    network = merge_nearby(network, cfg.merge_m)
    every = draft_lines(network, notes)
    kept = keep_lines(every, cfg.max_lines, cfg.separate)
    reached = {s for ln in kept for s in ln.stops}
    for ln in every:
        if ln not in kept:
            why = (
                f"--max-lines {cfg.max_lines} reached"
                if reached & set(ln.stops)
                else "it meets no line kept"
            )
            notes.append(
                f"line {ln.route.name} ({len(ln.stops)} stations from "
                f"{network.places[ln.stops[0]].name}) left out: {why}"
            )
    total = len({s for ln in kept for s in ln.stops})
    dropped = thin(network, kept, cfg.max_stations)
    if dropped:
        notes.append(
            f"{len(dropped)} of {total} stations left out to fit --max-stations "
            f"{cfg.max_stations} (termini and interchanges kept)"
        )
    tries: list[ImportResult] = []
    for blend in BLENDS:
        result = ImportResult(_document(network, kept, cfg, total, blend), list(notes))
        if cfg.layout:
            _lay_out(result, cfg, progress)
        _colour(result, kept, cfg)
        _check(result, cfg)
        tries.append(result)
        if result.problems == (0, 0) and (result.layout_report is not None or not cfg.layout):
            break
    return min(tries, key=lambda r: (r.problems, cfg.layout and r.layout_report is None))


def _document(
    network: Network, lines: list[DraftLine], cfg: ImportConfig, total: int, blend: float
) -> dict:
    from mapkit.importers.project import even_out, project, spread
    from mapkit.importers.scoring import bonus
    from mapkit.importers.wagons import WagonLine, place_wagons
    from mapkit.sheet import Rect, map_area

    order = list(dict.fromkeys(s for ln in lines for s in ln.stops))
    ids = station_ids([network.places[p] for p in order])
    area = map_area(cfg.paper)
    box = Rect(
        area.x + WAGON_ROOM, area.y + WAGON_ROOM, area.w - 2 * WAGON_ROOM, area.h - 2 * WAGON_ROOM
    )
    geo = project({p: network.places[p] for p in order})
    drawn = [ln.stops + ln.stops[:1] if ln.loop else ln.stops for ln in lines]
    xy = spread(even_out(geo, box, blend), drawn, box)
    serving: dict[str, int] = {}
    for ln in lines:
        for s in ln.stops:
            serving[s] = serving.get(s, 0) + 1
    bonuses = [bonus([serving[s] > 1 for s in ln.stops], ln.loop) for ln in lines]
    wagon_lines = [
        WagonLine(tuple(ln.stops), b.windows, ln.loop) for ln, b in zip(lines, bonuses, strict=True)
    ]
    wagons = place_wagons(xy, wagon_lines, area)
    name = _clip(cfg.name or network.name or "Imported network", 80)
    doc_lines = []
    for letter, ln, b, w in zip(_letters(len(lines)), lines, bonuses, wagons, strict=True):
        entry: dict[str, Any] = {
            "id": letter,
            "name": _clip(ln.route.name, 40),
            "color": ln.route.color or "#888888",
            "windows": b.windows,
            "points": {"first": b.first, "others": b.others},
            "depot": {"x": round(w.depot[0], 2), "y": round(w.depot[1], 2)},
            "stops": [ids[s] for s in w.stops],
        }
        if ln.loop:
            entry["loop"] = True
        doc_lines.append(entry)
    names = short_names([network.places[p].name for p in order])
    stations = [
        {"id": ids[p], "x": round(xy[p][0], 2), "y": round(xy[p][1], 2), "name": _clip(name, 60)}
        for p, name in zip(order, names, strict=True)
    ]
    return {
        "format": FORMAT,
        "id": cfg.map_id or slug(name, 64) or "imported",
        "name": name,
        "description": (
            f"Imported by mapkit import from {network.source}: {len(order)} of {total} "
            f"stations on {len(lines)} lines. Windows and points follow the lines' lengths; "
            "refine them with mapkit tune."
        ),
        "stations": stations,
        "lines": doc_lines,
    }


def _lay_out(result: ImportResult, cfg: ImportConfig, progress: Progress | None) -> None:
    """The octilinear layout of the draft; when there is none, the draft stays as projected."""
    from mapkit.layout import LayoutConfig, LayoutError, layout
    from mapkit.mapfile import build_map

    config = LayoutConfig(paper=cfg.paper, time_limit=cfg.time_limit)
    try:
        laid = layout(build_map(result.doc), config, result.doc, progress)
    except LayoutError as exc:
        result.notes.append(f"no layout ({exc}): the stations stay where projected")
        return
    result.doc = laid.doc
    result.layout_report = laid.report
    result.notes.extend(laid.report.notes)


def _colour(result: ImportResult, lines: list[DraftLine], cfg: ImportConfig) -> None:
    from mapkit.checks.design import press_fault
    from mapkit.importers.colours import told_apart

    own = dict(zip(_letters(len(lines)), (ln.route.color for ln in lines), strict=True))
    wanted = [(d["id"], own[d["id"]]) for d in result.doc["lines"]]
    result.doc, changes = told_apart(result.doc, wanted, (cfg.paper,))
    for ch in changes:
        if ch.old is None:
            why = "it had none"
        elif press_fault(ch.old) is not None:
            why = f"{ch.old} is outside what a press prints"
        else:
            why = f"{ch.old} is too close to a line it meets"
        result.notes.append(f"line {ch.line}: colour {ch.new} ({why})")


def _check(result: ImportResult, cfg: ImportConfig) -> None:
    from mapkit.checks import validate_source
    from mapkit.mapfile import writer

    report = validate_source(writer.dumps(result.doc), "<import>", paper=cfg.paper)
    result.diagnostics = report.diagnostics
