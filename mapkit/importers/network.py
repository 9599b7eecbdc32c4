"""A transit network as the importers read it: places with lat/lon, routes as stop patterns.

Both readers (GTFS feeds, LOOM line graphs) produce a :class:`Network`; one shared step
(:mod:`mapkit.importers.draft`) turns any network into a map. A route's patterns are
the stop sequences its trips run (GTFS) or its paths through the graph (GeoJSON), in
place ids; :mod:`mapkit.importers.patterns` merges them into lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

Pattern = tuple[str, ...]


class ImportFailure(Exception):
    """Input that cannot be imported; the message is one line for the user.

    ``exit_code`` 1 for bad data, 2 for an option the input cannot satisfy.
    """

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass(frozen=True)
class Place:
    """A station: one per GTFS parent station or per LOOM ``station_id``."""

    id: str
    name: str
    lat: float
    lon: float


@dataclass(frozen=True)
class Route:
    """A route and the stop patterns it runs; ``order`` sorts routes for the line letters."""

    id: str
    name: str
    color: str | None
    patterns: tuple[Pattern, ...]
    order: tuple = ()


@dataclass(frozen=True)
class Network:
    name: str
    places: Mapping[str, Place]
    routes: tuple[Route, ...]
    source: str = ""


def check_lat_lon(lat: float, lon: float, what: str) -> None:
    """ImportFailure unless (lat, lon) is a finite position on the Earth."""
    import math

    if not (math.isfinite(lat) and math.isfinite(lon)):
        raise ImportFailure(f"{what} has a coordinate that is not a finite number")
    if not -90 <= lat <= 90:
        raise ImportFailure(f"{what} has latitude {lat:g}, outside -90..90")
    if not -180 <= lon <= 180:
        raise ImportFailure(f"{what} has longitude {lon:g}, outside -180..180")
