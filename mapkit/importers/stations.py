"""Stations of an imported network: one per interchange, with ids a map accepts.

Feeds often give one interchange two stations, one per line (LA's Expo / Crenshaw is
two parent stations 46 m apart). Places closer than ``merge_m`` are merged unless a
route runs from one to the other: then they are two stops of that route.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections import Counter
from dataclasses import replace

from mapkit.importers.network import Network, Place

EARTH_RADIUS_M = 6_371_008.8


def distance_m(a: Place, b: Place) -> float:
    """Great-circle distance (haversine), in metres."""
    p1, p2 = math.radians(a.lat), math.radians(b.lat)
    dp, dl = p2 - p1, math.radians(b.lon - a.lon)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(h)))


def merge_nearby(network: Network, merge_m: float) -> Network:
    """The network with places within ``merge_m`` of each other merged (see the module doc)."""
    ids = sorted(network.places)
    if merge_m <= 0 or len(ids) < 2:
        return network
    adjacent = {
        frozenset(pair)
        for r in network.routes
        for p in r.patterns
        for pair in itertools.pairwise(p)
        if pair[0] != pair[1]
    }
    parent = {i: i for i in ids}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    cell = merge_m / 111_000
    grid: dict[tuple[int, int], list[str]] = {}
    for pid in ids:
        p = network.places[pid]
        grid.setdefault((int(p.lat // cell), int(p.lon // cell)), []).append(pid)
    for (gy, gx), members in sorted(grid.items()):
        near = [
            q for dy in (-1, 0, 1) for dx in (-1, 0, 1) for q in grid.get((gy + dy, gx + dx), ())
        ]
        for a in members:
            for b in near:
                if a < b and frozenset((a, b)) not in adjacent:
                    pa, pb = network.places[a], network.places[b]
                    if distance_m(pa, pb) <= merge_m:
                        parent[find(b)] = find(a)
    groups: dict[str, list[str]] = {}
    for pid in ids:
        groups.setdefault(find(pid), []).append(pid)
    if all(len(g) == 1 for g in groups.values()):
        return network
    places: dict[str, Place] = {}
    rename: dict[str, str] = {}
    for members in groups.values():
        head = members[0]
        ps = [network.places[m] for m in members]
        name = min((p.name for p in ps), key=lambda n: (len(n), n))
        lat = sum(p.lat for p in ps) / len(ps)
        lon = sum(p.lon for p in ps) / len(ps)
        places[head] = Place(head, name, lat, lon)
        rename.update((m, head) for m in members)
    routes = tuple(
        replace(r, patterns=tuple(sorted({_renamed(p, rename) for p in r.patterns})))
        for r in network.routes
    )
    return replace(network, places=places, routes=routes)


def _renamed(pattern: tuple[str, ...], rename: dict[str, str]) -> tuple[str, ...]:
    out: list[str] = []
    for stop in pattern:
        new = rename[stop]
        if not out or out[-1] != new:
            out.append(new)
    return tuple(out)


def slug(text: str, limit: int = 40) -> str:
    """Lower-case ASCII letters, digits and hyphens: ``7th Street / Metro Center`` ->
    ``7th-street-metro-center``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    out = ""
    for w in words:
        if len(out) + len(w) + (1 if out else 0) > limit:
            break
        out = f"{out}-{w}" if out else w
    return out or "".join(words)[:limit]


_STATION_SUFFIX = re.compile(r"\s+(?:metro\s+)?station$", re.IGNORECASE)


def short_names(names: list[str]) -> list[str]:
    """The names without a trailing "Station" or "Metro Station" (``Allen Station`` ->
    ``Allen``), except where nothing would remain or two stations would then share a name
    (case-insensitively): those keep their suffix, so a sheet never shows one name twice."""
    short = [_STATION_SUFFIX.sub("", n).strip() or n for n in names]
    count = Counter(s.casefold() for s in short)
    return [s if count[s.casefold()] == 1 else n for s, n in zip(short, names, strict=True)]


def station_ids(places: list[Place]) -> dict[str, str]:
    """A map station id for every place: its name as a slug (without a trailing
    "Station"), made unique with -2, -3, ...; ``s`` plus the place id when the name
    has no letters or digits."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for p in places:
        base = slug(_STATION_SUFFIX.sub("", p.name)) or slug(p.id) or "s"
        sid, n = base, 1
        while sid in taken:
            n += 1
            sid = f"{base}-{n}"
        taken.add(sid)
        out[p.id] = sid
    return out
