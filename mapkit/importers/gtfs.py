"""Reading a GTFS feed (a zip) into a :class:`Network`, with the standard library.

Platforms are merged into their parent stations; each selected route's trips become
its distinct stop patterns. Reading is bounded: every member is checked against
``MAX_MEMBER_BYTES`` and ``MAX_RATIO`` before it is opened and counted while it is
read, so a zip bomb or a lying header costs nothing; only the trips of the selected
routes are kept from ``stop_times.txt``.
"""

from __future__ import annotations

import csv
import io
import zipfile
import zlib
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO

from mapkit.importers.city import city_name
from mapkit.importers.network import ImportFailure, Network, Place, Route, check_lat_lon

MAX_MEMBER_BYTES = 256 << 20
"""The most any file of the feed may hold uncompressed (LA Metro Rail's stop_times.txt: 12 MB)."""
MAX_RATIO = 100
"""Uncompressed / compressed size above which a member is taken for a zip bomb (GTFS text
compresses 5-30 times; bombs 1000 times). Members under 1 MiB are not held to it."""
_RATIO_FLOOR = 1 << 20

ROUTE_TYPES: dict[str, tuple[int, ...]] = {
    "light-rail": (0, *range(900, 907)),
    "metro": (1, *range(400, 405)),
    "rail": (2, *range(100, 118)),
    "bus": (3, *range(700, 717), 200),
    "ferry": (4, 1000, 1200),
    "cable-tram": (5,),
    "aerial": (6, 1300),
    "funicular": (7, 1400),
    "trolleybus": (11, 800),
    "monorail": (12, 405),
}
"""Route kinds by name: the basic GTFS route_type and the extended (HVT) types for it."""
ROUTE_TYPE_ALIASES = {"tram": "light-rail", "subway": "metro", "lightrail": "light-rail"}
DEFAULT_ROUTE_TYPES = ("metro", "light-rail", "monorail")


def route_types(spec: str) -> tuple[int, ...]:
    """``metro,light-rail,7`` -> the route_type codes; ImportFailure (exit 2) for a bad name."""
    codes: list[int] = []
    for word in (w.strip().lower() for w in spec.split(",")):
        if not word:
            continue
        if word.isdigit():
            codes.append(int(word))
            continue
        name = ROUTE_TYPE_ALIASES.get(word, word)
        if name not in ROUTE_TYPES:
            known = ", ".join(ROUTE_TYPES)
            raise ImportFailure(f"unknown route type {word!r}; known: {known} or a number", 2)
        codes.extend(ROUTE_TYPES[name])
    if not codes:
        raise ImportFailure("--route-types names no route type", 2)
    return tuple(dict.fromkeys(codes))


def _kind_name(code: int) -> str:
    for name, codes in ROUTE_TYPES.items():
        if code in codes:
            return name
    return str(code)


@dataclass(frozen=True)
class Selection:
    """Which routes to read: by id or short name, else by route_type."""

    route_types: tuple[int, ...] = ()
    routes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.route_types:
            object.__setattr__(self, "route_types", route_types(",".join(DEFAULT_ROUTE_TYPES)))


class _Counted(io.RawIOBase):
    """A member's bytes, refused past ``limit`` whatever its header said."""

    def __init__(self, raw: IO[bytes], name: str, limit: int) -> None:
        self.raw, self.name, self.left = raw, name, limit

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.raw.read(min(len(buffer), self.left + 1))
        self.left -= len(data)
        if self.left < 0:
            raise ImportFailure(f"{self.name} holds more than {_size(MAX_MEMBER_BYTES)}")
        buffer[: len(data)] = data
        return len(data)


class Feed:
    """The members of a GTFS zip, found at its top or in its one folder."""

    def __init__(self, source: str | Path | BinaryIO) -> None:
        named = source if isinstance(source, str | Path) else getattr(source, "name", "")
        self.label = Path(named).name if named else "the feed"
        try:
            self.zip = zipfile.ZipFile(source)
            infos = self.zip.infolist()
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError) as exc:
            # NotImplementedError: a zip version or feature zipfile cannot read
            raise ImportFailure(f"{self.label} is not a readable zip file ({exc})") from None
        self.members: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            name = info.filename.rsplit("/", 1)[-1]
            if name.endswith(".txt") and not info.is_dir():
                self.members.setdefault(name, info)

    def has(self, name: str) -> bool:
        return name in self.members

    def rows(self, name: str) -> Iterator[tuple[int, dict[str, str]]]:
        """(line number, row) of a member; ImportFailure for anything unreadable."""
        header, rows = self.table(name)
        for number, values in rows:
            yield number, dict(zip(header, values, strict=False))

    def table(self, name: str) -> tuple[list[str], Iterator[tuple[int, list[str]]]]:
        """(column names, iterator of (line number, values)) of a member."""
        info = self.members.get(name)
        if info is None:
            raise ImportFailure(f"{self.label} has no {name}: it is not a GTFS feed")
        if info.file_size > MAX_MEMBER_BYTES:
            raise ImportFailure(
                f"{self.label}: {name} would unpack to {_size(info.file_size)}, "
                f"more than {_size(MAX_MEMBER_BYTES)}"
            )
        if info.file_size > _RATIO_FLOOR and info.file_size > MAX_RATIO * max(
            info.compress_size, 1
        ):
            raise ImportFailure(
                f"{self.label}: {name} unpacks {info.file_size // max(info.compress_size, 1)} "
                f"times its packed size (more than {MAX_RATIO}): refusing a zip bomb"
            )
        try:
            raw = self.zip.open(info)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError,
                ValueError, OSError) as exc:  # fmt: skip
            raise ImportFailure(f"{self.label}: cannot open {name} ({exc})") from None
        counted = io.BufferedReader(_Counted(raw, f"{self.label}: {name}", MAX_MEMBER_BYTES))
        text = io.TextIOWrapper(counted, encoding="utf-8-sig", newline="")
        reader = csv.reader(text)
        try:
            header = [h.strip() for h in next(reader, [])]
        except _READ_ERRORS as exc:
            raise _failure(self.label, name, 1, exc) from None
        return header, self._values(reader, name)

    def _values(self, reader, name: str) -> Iterator[tuple[int, list[str]]]:
        try:
            for values in reader:
                if values:
                    yield reader.line_num, values
        except _READ_ERRORS as exc:
            raise _failure(self.label, name, reader.line_num, exc) from None


def _size(n: int) -> str:
    return f"{n / (1 << 20):.0f} MiB" if n >= 1 << 20 else f"{n} bytes"


_READ_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, csv.Error, UnicodeDecodeError, OSError)


def _failure(label: str, name: str, line: int, exc: Exception) -> ImportFailure:
    if isinstance(exc, UnicodeDecodeError):
        return ImportFailure(f"{label}: {name} is not UTF-8 text")
    if isinstance(exc, csv.Error):
        return ImportFailure(f"{label}: {name} line {line} is not valid CSV ({exc})")
    return ImportFailure(f"{label}: {name} is damaged ({exc}); the zip is corrupt or truncated")


def _need(header: list[str], columns: tuple[str, ...], label: str, name: str) -> list[int]:
    missing = [c for c in columns if c not in header]
    if missing:
        raise ImportFailure(f"{label}: {name} has no {', '.join(missing)} column")
    return [header.index(c) for c in columns]


def _natural(text: str) -> tuple:
    """A sort key that puts route 2 before route 10."""
    import re

    return tuple(int(t) if t.isdigit() else t.lower() for t in re.findall(r"\d+|\D+", text))


def _routes(feed: Feed, selection: Selection) -> dict[str, Route]:
    chosen: dict[str, Route] = {}
    kinds: dict[str, int] = defaultdict(int)
    every: list[str] = []
    for number, row in feed.rows("routes.txt"):
        rid = row.get("route_id", "").strip()
        if not rid:
            raise ImportFailure(f"{feed.label}: routes.txt line {number} has no route_id")
        short = row.get("route_short_name", "").strip()
        long = row.get("route_long_name", "").strip()
        every.append(rid)
        text = row.get("route_type", "").strip()
        try:
            kind = int(text)
        except ValueError:
            raise ImportFailure(
                f"{feed.label}: routes.txt line {number}: route_type {text!r} is not a number"
            ) from None
        kinds[_kind_name(kind)] += 1
        wanted = (
            rid in selection.routes or (short and short in selection.routes)
            if selection.routes
            else kind in selection.route_types
        )
        if not wanted:
            continue
        colour = row.get("route_color", "").strip()
        valid = len(colour) == 6 and all(c in "0123456789abcdefABCDEF" for c in colour)
        sort = row.get("route_sort_order", "").strip()
        order = (int(sort) if sort.isdigit() else 1 << 62, _natural(short), _natural(long), rid)
        chosen[rid] = Route(
            id=rid,
            name=short or long or rid,
            color=f"#{colour.lower()}" if valid else None,
            patterns=(),
            order=order,
        )
    if selection.routes:
        found = {r.id for r in chosen.values()} | {r.name for r in chosen.values()}
        unknown = [r for r in selection.routes if r not in found]
        if unknown:
            shown = ", ".join(every[:12]) + (" ..." if len(every) > 12 else "")
            raise ImportFailure(
                f"{feed.label} has no route {', '.join(unknown)} (its routes: {shown})", 2
            )
    if not chosen:
        have = ", ".join(f"{k} ({n})" for k, n in sorted(kinds.items())) or "none"
        raise ImportFailure(
            f"{feed.label} has no route of the chosen types; it has {have}: "
            "choose others with --route-types"
        )
    return chosen


def _stations(feed: Feed) -> tuple[dict[str, str], dict[str, tuple[int, dict[str, str]]]]:
    """(stop id -> station id, station id -> its stops.txt row)."""
    header, rows = feed.table("stops.txt")
    (i_id,) = _need(header, ("stop_id",), feed.label, "stops.txt")
    parent_of: dict[str, str] = {}
    records: dict[str, tuple[int, dict[str, str]]] = {}
    for number, values in rows:
        row = dict(zip(header, values, strict=False))
        sid = values[i_id].strip() if i_id < len(values) else ""
        if not sid:
            raise ImportFailure(f"{feed.label}: stops.txt line {number} has no stop_id")
        records[sid] = (number, row)
        parent = row.get("parent_station", "").strip()
        if parent and row.get("location_type", "").strip() in ("", "0", "2", "3", "4"):
            parent_of[sid] = parent
    station_of: dict[str, str] = {}
    for sid in records:
        station, seen = sid, 0
        while station in parent_of and seen < 4:
            station, seen = parent_of[station], seen + 1
        if station not in records:
            raise ImportFailure(
                f"{feed.label}: stops.txt line {records[sid][0]}: stop {sid!r} names parent "
                f"station {station!r}, which is not in stops.txt"
            )
        station_of[sid] = station
    return station_of, records


def _trips(feed: Feed, routes: dict[str, Route]) -> dict[str, str]:
    header, rows = feed.table("trips.txt")
    i_route, i_trip = _need(header, ("route_id", "trip_id"), feed.label, "trips.txt")
    trips = {}
    for _number, values in rows:
        if len(values) > max(i_route, i_trip) and values[i_route].strip() in routes:
            trips[values[i_trip].strip()] = values[i_route].strip()
    return trips


def _patterns(
    feed: Feed, trips: dict[str, str], station_of: dict[str, str]
) -> dict[str, set[tuple[str, ...]]]:
    header, rows = feed.table("stop_times.txt")
    i_trip, i_stop, i_seq = _need(
        header, ("trip_id", "stop_id", "stop_sequence"), feed.label, "stop_times.txt"
    )
    width = max(i_trip, i_stop, i_seq)
    visits: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for number, values in rows:
        if len(values) <= width:
            continue
        trip = values[i_trip].strip()
        if trip not in trips:
            continue
        stop = values[i_stop].strip()
        station = station_of.get(stop)
        if station is None:
            raise ImportFailure(
                f"{feed.label}: stop_times.txt line {number}: stop {stop!r} is not in stops.txt"
            )
        try:
            seq = int(values[i_seq])
        except ValueError:
            raise ImportFailure(
                f"{feed.label}: stop_times.txt line {number}: stop_sequence "
                f"{values[i_seq]!r} is not a number"
            ) from None
        visits[trip].append((seq, station))
    patterns: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for trip, stops in visits.items():
        stops.sort()
        seq = tuple(s for i, (_, s) in enumerate(stops) if i == 0 or s != stops[i - 1][1])
        patterns[trips[trip]].add(seq)
    return patterns


def _place(feed: Feed, sid: str, record: tuple[int, dict[str, str]]) -> Place:
    number, row = record
    what = f"{feed.label}: stops.txt line {number} (stop {sid!r})"
    try:
        lat, lon = float(row.get("stop_lat", "")), float(row.get("stop_lon", ""))
    except ValueError:
        raise ImportFailure(f"{what} has no valid stop_lat/stop_lon") from None
    check_lat_lon(lat, lon, what)
    return Place(sid, row.get("stop_name", "").strip() or sid, lat, lon)


def _name(feed: Feed) -> str:
    """The city: from the one agency's name, else the feed publisher's, else any agency's,
    else the agencies' time zone (see mapkit.importers.city)."""
    agencies = list(feed.rows("agency.txt")) if feed.has("agency.txt") else []
    names = [
        n for n in dict.fromkeys(row.get("agency_name", "").strip() for _, row in agencies) if n
    ]
    publishers: list[str] = []
    if feed.has("feed_info.txt"):
        publishers = [
            row.get("feed_publisher_name", "").strip() for _, row in feed.rows("feed_info.txt")
        ]
    candidates = (names if len(names) == 1 else []) + [p for p in publishers if p] + names
    zones = [row.get("agency_timezone", "") for _, row in agencies]
    return city_name(candidates, zones, candidates[0] if candidates else Path(feed.label).stem)


def read_gtfs(source: str | Path | BinaryIO, selection: Selection | None = None) -> Network:
    """The selected routes of a GTFS zip (a path or an open binary file, named in messages
    by its ``name`` when it has one) as a network."""
    feed = Feed(source)
    selection = selection or Selection()
    routes = _routes(feed, selection)
    station_of, records = _stations(feed)
    trips = _trips(feed, routes)
    patterns = _patterns(feed, trips, station_of)
    used = sorted({s for pats in patterns.values() for p in pats for s in p})
    places = {sid: _place(feed, sid, records[sid]) for sid in used}
    out = tuple(
        Route(r.id, r.name, r.color, tuple(sorted(patterns.get(r.id, ()))), r.order)
        for r in sorted(routes.values(), key=lambda r: r.order)
    )
    return Network(name=_name(feed), places=places, routes=out, source=f"GTFS feed {feed.label}")
