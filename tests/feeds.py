"""Small GTFS feeds built in memory for the importer's tests.

``feed(...)`` makes a zip from stations (name, lat, lon), routes and their trips as
lists of station keys; each station gets a parent station and one platform, as
real feeds have them. Any file can be replaced or dropped with ``files``.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Mapping, Sequence

# A small city on a 1 km grid near (48.0, 11.0): keys are station names.
GRID = 0.009


def at(col: float, row: float) -> tuple[float, float]:
    """(lat, lon) of a grid point: ``col`` km east and ``row`` km south of the origin."""
    return (48.0 - row * GRID, 11.0 + col * GRID * 1.5)


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def feed_files(
    stations: Mapping[str, tuple[float, float]],
    routes: Sequence[tuple[str, str, int, str | None, Sequence[Sequence[str]]]],
    *,
    agency: str = "Tiny Transit",
    parents: bool = True,
) -> dict[str, str]:
    """The text files of a feed. ``routes``: (route_id, short name, route_type, colour
    without '#' or None, trips as lists of station names)."""
    stops = []
    for i, (name, (lat, lon)) in enumerate(stations.items()):
        if parents:
            stops.append([f"S{i}", name, lat, lon, 1, ""])
            stops.append([f"P{i}", f"{name} platform", lat, lon, 0, f"S{i}"])
        else:
            stops.append([f"P{i}", name, lat, lon, 0, ""])
    key = {name: f"P{i}" for i, name in enumerate(stations)}
    trips, times = [], []
    for rid, _short, _kind, _colour, runs in routes:
        for j, run in enumerate(runs):
            tid = f"{rid}-{j}"
            trips.append([rid, "daily", tid])
            times += [[tid, key[s], n + 1, "08:00:00", "08:00:00"] for n, s in enumerate(run)]
    return {
        "agency.txt": table(
            ["agency_id", "agency_name", "agency_url", "agency_timezone"],
            [["T", agency, "https://example.invalid", "Europe/Berlin"]],
        ),
        "routes.txt": table(
            ["route_id", "route_short_name", "route_long_name", "route_type", "route_color"],
            [
                [rid, short, f"Line {short}", kind, colour or ""]
                for rid, short, kind, colour, _ in routes
            ],
        ),
        "stops.txt": table(
            ["stop_id", "stop_name", "stop_lat", "stop_lon", "location_type", "parent_station"],
            stops,
        ),
        "trips.txt": table(["route_id", "service_id", "trip_id"], trips),
        "stop_times.txt": table(
            ["trip_id", "stop_id", "stop_sequence", "arrival_time", "departure_time"], times
        ),
    }


def zipped(files: Mapping[str, str | bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return buf.getvalue()


# A cross: line 1 west-east, line 2 north-south, meeting at "Centre"; line 2 branches.
CROSS_STATIONS = {
    "West End": at(0, 4),
    "Mill": at(2, 4),
    "Centre": at(4, 4),
    "Market": at(6, 4),
    "East End": at(8, 4),
    "North End": at(4, 0),
    "Park": at(4, 2),
    "Harbour": at(4, 6),
    "South End": at(4, 8),
    "Docks": at(6, 7),
    "Pier": at(8, 8),
}
CROSS_ROUTES = [
    ("r1", "1", 1, "cc0044", [["West End", "Mill", "Centre", "Market", "East End"],
                              ["East End", "Market", "Centre", "Mill", "West End"]]),
    ("r2", "2", 0, "0022ee", [["North End", "Park", "Centre", "Harbour", "South End"],
                              ["North End", "Park", "Centre", "Harbour", "Docks", "Pier"]]),
]  # fmt: skip


def cross_feed(**changes) -> bytes:
    files: dict[str, str | bytes] = dict(feed_files(CROSS_STATIONS, CROSS_ROUTES))
    for name, text in changes.items():
        if text is None:
            files.pop(name.replace("_txt", ".txt"))
        else:
            files[name.replace("_txt", ".txt")] = text
    return zipped(files)
