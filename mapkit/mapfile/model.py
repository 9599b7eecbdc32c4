"""The immutable map model: stations, lines, depots, loops and the derived facts.

A :class:`CityMap` is only ever built from a document that passed the syntax,
schema and identity layers, so its invariants (ids unique, stops resolve,
``first >= others``) hold and downstream code need not re-check them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from mapkit.rulesets import VOLL_VERPLANT, Ruleset, ruleset_from_doc

Point = tuple[float, float]
DEFAULT_SHEET_COLOR = "#ffffff"


@dataclass(frozen=True, slots=True)
class Station:
    id: str
    x: float
    y: float
    index: int
    name: str | None = None
    special: bool = False
    pinned: bool = False
    label_at: str | None = None
    """Where the designer wants the name: a compass direction (``"ne"``), None for anywhere."""

    @property
    def xy(self) -> Point:
        return (self.x, self.y)

    @property
    def label(self) -> str:
        return self.name or self.id


@dataclass(frozen=True, slots=True)
class Depot:
    x: float
    y: float
    max_width_mm: float | None = None

    @property
    def xy(self) -> Point:
        return (self.x, self.y)


MAX_UNITS = 63
"""The most scoring units a map has (a line, or each branch of a branching line, REF013): the
kernel holds a player's completed units as the bits of a signed 64-bit integer."""

BRANCH_SCORING = ("best", "each")
"""How a branching line with several branches run pays (``"branch_scoring"``, rules-notes 23):
its best branch only, or each branch run."""


@dataclass(frozen=True, slots=True)
class Branch:
    """One branch of a branching line (Metro X's Sendai, Nagoya, Hakata): its stops from the
    fork outward (the last is a terminus) and the bonus of running trunk and branch."""

    stops: tuple[str, ...]
    first: int
    others: int


@dataclass(frozen=True, slots=True)
class ScoringUnit:
    """What completes and what it pays: a plain line, or a branching line's trunk with one
    branch. The engine and the kernel race units; a plain line is its own single unit."""

    line: int
    """The line's index."""
    branch: int | None
    """The branch's index, None for a plain line."""
    label: str
    """``C`` for a plain line, ``C1``, ``C2`` for the branches of line C (as the panel prints)."""
    positions: tuple[int, ...]
    """The line's stop positions that must be marked."""
    first: int
    others: int


@dataclass(frozen=True, slots=True)
class Line:
    id: str
    color: str
    windows: int
    first: int
    others: int
    depot: Depot
    stops: tuple[str, ...]
    index: int
    loop: bool = False
    name: str | None = None
    shape: tuple[Point, ...] | None = None
    both_ends: bool = False
    """Startable from either end (``"both_ends"``): its routes run from both ends inward."""
    branches: tuple[Branch, ...] = ()
    """A branching line's branches (``"branches"``): ``stops`` then holds the trunk (from the
    wagon to the fork, its last stop) followed by every branch's stops in turn."""
    branch_scoring: str = BRANCH_SCORING[0]

    @property
    def trunk(self) -> tuple[str, ...]:
        """The stops every route crosses: all of a plain line's, a branching line's to the fork."""
        if not self.branches:
            return self.stops
        return self.stops[: len(self.stops) - sum(len(b.stops) for b in self.branches)]

    @property
    def paths(self) -> tuple[tuple[str, ...], ...]:
        """The stops of each drawn path from the wagon: one for a plain line, trunk and branch
        for each branch of a branching line (the fork is the trunk's last stop)."""
        if not self.branches:
            return (self.stops,)
        return tuple(self.trunk + b.stops for b in self.branches)

    @property
    def terminus(self) -> str | None:
        """The last stop; a loop line has none (a branching line: the first branch's end)."""
        return None if self.loop else self.paths[0][-1]

    @property
    def termini(self) -> tuple[str, ...]:
        """The stops drawn as a line's ends: the last (every branch's), and the first of a
        two-ended line."""
        if self.loop:
            return ()
        ends = tuple(path[-1] for path in self.paths)
        return (self.stops[0], *ends) if self.both_ends else ends

    @property
    def units(self) -> tuple[ScoringUnit, ...]:
        """What completes on this line and what it pays: the line, or trunk and each branch."""
        if not self.branches:
            everything = tuple(range(len(self.stops)))
            return (ScoringUnit(self.index, None, self.id, everything, self.first, self.others),)
        trunk = len(self.trunk)
        units = []
        at = trunk
        for b, br in enumerate(self.branches):
            own = tuple(range(at, at + len(br.stops)))
            at += len(br.stops)
            label = f"{self.id}{b + 1}"
            units.append(
                ScoringUnit(self.index, b, label, (*range(trunk), *own), br.first, br.others)
            )
        return tuple(units)

    @property
    def first_stop(self) -> str:
        return self.stops[0]

    @property
    def routes(self) -> tuple[tuple[int, ...], ...]:
        """The ways a card may travel the line, as stop positions in the order it crosses them
        (rules-notes 1-3, 7, 23): from the wagon; a loop also the other way round from its first
        stop; a two-ended line also from its last stop inward; a branching line from the wagon
        along the trunk into each branch. The engine, the kernel and the
        bots read these; an action names one by index (:mod:`mapkit.engine.actions`)."""
        if self.branches:
            return tuple(u.positions for u in self.units)
        forward = tuple(range(len(self.stops)))
        if self.loop:
            return (forward, (0, *range(len(self.stops) - 1, 0, -1)))
        if self.both_ends:
            return (forward, forward[::-1])
        return (forward,)


ALL_LINES_CONDITIONS = ("every_line_has_cross", "every_line_completed")


@dataclass(frozen=True, slots=True)
class AllLinesBonus:
    """The all-lines bonus (Voll verplant Japan's Nagoya and Sendai): ``first`` points to whoever
    first meets ``condition`` (every line has a cross, or every line is completed), ``others``
    to those who meet it later, raced like a line completion (rules-notes 22)."""

    first: int
    others: int
    condition: str = ALL_LINES_CONDITIONS[0]

    def to_doc(self) -> dict[str, Any]:
        """The map's ``"all_lines_bonus"`` that the loader reads back as this bonus."""
        return {"first": self.first, "others": self.others, "condition": self.condition}


@dataclass(frozen=True)
class CityMap:
    id: str
    name: str
    stations: tuple[Station, ...]
    lines: tuple[Line, ...]
    sheet_color: str = DEFAULT_SHEET_COLOR
    subtitle: str | None = None
    author: str | None = None
    description: str | None = None
    source: str | None = None
    ruleset: Ruleset = VOLL_VERPLANT
    """The edition the map is played under (``"ruleset"``; ``--ruleset`` overrides it)."""
    all_lines: AllLinesBonus | None = None
    """The all-lines bonus (``"all_lines_bonus"``), if the map has one."""
    _stations_by_id: Mapping[str, Station] = field(init=False, repr=False, compare=False)
    _lines_by_id: Mapping[str, Line] = field(init=False, repr=False, compare=False)
    _lines_at: Mapping[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id = {s.id: s for s in self.stations}
        lines_by_id = {ln.id: ln for ln in self.lines}
        lines_at: dict[str, list[str]] = {s.id: [] for s in self.stations}
        for ln in self.lines:
            for stop in ln.stops:
                lines_at[stop].append(ln.id)
        object.__setattr__(self, "_stations_by_id", MappingProxyType(by_id))
        object.__setattr__(self, "_lines_by_id", MappingProxyType(lines_by_id))
        object.__setattr__(
            self, "_lines_at", MappingProxyType({k: tuple(v) for k, v in lines_at.items()})
        )

    def station(self, station_id: str) -> Station:
        return self._stations_by_id[station_id]

    def with_ruleset(self, ruleset: Ruleset) -> CityMap:
        """The same map played under another ruleset (``--ruleset``)."""
        return replace(self, ruleset=ruleset)

    def line(self, line_id: str) -> Line:
        return self._lines_by_id[line_id]

    def has_station(self, station_id: str) -> bool:
        return station_id in self._stations_by_id

    def has_line(self, line_id: str) -> bool:
        return line_id in self._lines_by_id

    def lines_at(self, station_id: str) -> tuple[str, ...]:
        """Ids of the lines that stop at a station, in map order."""
        return self._lines_at[station_id]

    def intersection_count(self, station_id: str) -> int:
        """The number an Interchange card writes: distinct lines stopping here."""
        return len(self._lines_at[station_id])

    @property
    def intersections(self) -> Mapping[str, int]:
        return {s.id: len(self._lines_at[s.id]) for s in self.stations}

    @property
    def total_windows(self) -> int:
        return sum(ln.windows for ln in self.lines)

    @property
    def special_stations(self) -> tuple[Station, ...]:
        return tuple(s for s in self.stations if s.special)

    def route(self, line: Line) -> tuple[Point, ...]:
        """The drawn path of a line in map units: its shape, or depot -> stops (-> first stop);
        a branching line's first path (:meth:`drawn_paths` has every branch's)."""
        return self.drawn_paths(line)[0]

    def drawn_paths(self, line: Line) -> tuple[tuple[Point, ...], ...]:
        """Every drawn path of a line in map units, from the depot: the line's shape or its
        stops (back to the first for a loop); trunk and branch for each branch."""
        if line.shape is not None:
            return (line.shape,)
        out = []
        for stops in line.paths:
            pts = [line.depot.xy] + [self.station(s).xy for s in stops]
            if line.loop:
                pts.append(self.station(stops[0]).xy)
            out.append(tuple(pts))
        return tuple(out)

    @property
    def units(self) -> tuple[ScoringUnit, ...]:
        """Every line's scoring units in line order: unit ``u`` is line ``u`` on a map with no
        branching line."""
        return tuple(u for ln in self.lines for u in ln.units)

    def station_pointer(self, station_id: str) -> str:
        return f"/stations/{self.station(station_id).index}"

    def line_pointer(self, line_id: str) -> str:
        return f"/lines/{self.line(line_id).index}"


def build_map(doc: Mapping[str, Any], source: str | None = None) -> CityMap:
    """Build the model from a document that passed schema and identity checks."""
    stations = tuple(
        Station(
            id=s["id"],
            x=float(s["x"]),
            y=float(s["y"]),
            index=i,
            name=s.get("name"),
            special=bool(s.get("special", False)),
            pinned=bool(s.get("pinned", False)),
            label_at=s.get("label"),
        )
        for i, s in enumerate(doc["stations"])
    )
    lines = []
    for i, ln in enumerate(doc["lines"]):
        depot = ln["depot"]
        shape = ln.get("shape")
        points = ln["points"]
        branches = tuple(
            Branch(
                tuple(b["stops"]),
                int(b.get("points", points)["first"]),
                int(b.get("points", points)["others"]),
            )
            for b in ln.get("branches", ())
        )
        lines.append(
            Line(
                id=ln["id"],
                color=ln["color"].lower(),
                windows=int(ln["windows"]),
                first=int(ln["points"]["first"]),
                others=int(ln["points"]["others"]),
                depot=Depot(float(depot["x"]), float(depot["y"]), depot.get("max_width_mm")),
                stops=tuple(ln["stops"]) + tuple(s for b in branches for s in b.stops),
                index=i,
                loop=bool(ln.get("loop", False)),
                name=ln.get("name"),
                shape=None if shape is None else tuple((float(p[0]), float(p[1])) for p in shape),
                both_ends=bool(ln.get("both_ends", False)),
                branches=branches,
                branch_scoring=ln.get("branch_scoring", BRANCH_SCORING[0]),
            )
        )
    sheet = doc.get("sheet") or {}
    return CityMap(
        id=doc["id"],
        name=doc["name"],
        stations=stations,
        lines=tuple(lines),
        sheet_color=(sheet.get("color") or DEFAULT_SHEET_COLOR).lower(),
        subtitle=sheet.get("subtitle"),
        author=doc.get("author"),
        description=doc.get("description"),
        source=source,
        ruleset=ruleset_from_doc(doc.get("ruleset")),
        all_lines=_all_lines(doc.get("all_lines_bonus")),
    )


def _all_lines(spec: Mapping[str, Any] | None) -> AllLinesBonus | None:
    if spec is None:
        return None
    return AllLinesBonus(
        int(spec["first"]), int(spec["others"]), spec.get("condition", ALL_LINES_CONDITIONS[0])
    )


def fingerprint(city: CityMap) -> str:
    """16 hex digits that change exactly when the game played on a map can change.

    Covers what the rules read (station ids and special flags; line ids, stops, loop, both_ends,
    branches, windows and points) and nothing that is only drawn, so moving a station or
    recolouring a line keeps the records played on the map valid.
    """
    import hashlib
    import json

    facts = {
        "stations": sorted([s.id, s.special] for s in city.stations),
        "lines": sorted(
            [ln.id, list(ln.stops), ln.loop, ln.windows, ln.first, ln.others]
            + (["both_ends"] if ln.both_ends else [])  # absent: fingerprints from before stay
            + (
                [[[len(b.stops), b.first, b.others] for b in ln.branches], ln.branch_scoring]
                if ln.branches
                else []
            )
            for ln in city.lines
        ),
    }
    if city.all_lines is not None:  # absent: fingerprints from before stay
        b = city.all_lines
        facts["all_lines"] = [b.first, b.others, b.condition]
    text = json.dumps(facts, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]
