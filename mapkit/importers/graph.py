"""Reading a line graph (LOOM's GeoJSON: ``gtfs2graph``, ``topo``, ``octi``) into a network.

Point features are nodes (``id``; a station when it has ``station_id``, with
``station_label`` its name); LineString features are edges (``from``, ``to`` node ids)
with the ``lines`` that run along them (``[{id, label, color}]``). Nodes without a
station (junctions, bends) are passed through. Each line's edges make its patterns:
the paths from every end of the line to every other (a ring with no ends: the ring),
which :mod:`mapkit.importers.patterns` merges as it merges GTFS trip patterns.
Coordinates are lon/lat (GeoJSON) or, as LOOM writes them, Web Mercator metres.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mapkit.importers.network import ImportFailure, Network, Place, Route, check_lat_lon

MAX_BYTES = 64 << 20
"""The most of a GeoJSON file that is read (a line graph of a whole country is ~20 MB)."""
MAX_FEATURES = 200_000
MERCATOR_LIMIT = 20_037_508.342789244
_R = 6_378_137.0


def _mercator_to_lat_lon(x: float, y: float) -> tuple[float, float]:
    lon = math.degrees(x / _R)
    lat = math.degrees(2 * math.atan(math.exp(y / _R)) - math.pi / 2)
    return lat, lon


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _text(v: Any) -> str | None:
    if isinstance(v, str) and v.strip():
        return v.strip()
    if isinstance(v, int) and not isinstance(v, bool):
        return str(v)
    return None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def parse_geojson(data: bytes, label: str) -> dict[str, Any]:
    """The GeoJSON document, or ImportFailure saying why it is not one."""
    if len(data) > MAX_BYTES:
        raise ImportFailure(f"{label} holds more than {MAX_BYTES >> 20} MiB")
    try:
        doc = json.loads(data.decode("utf-8-sig"), parse_constant=_reject_constant)
    except UnicodeDecodeError:
        raise ImportFailure(f"{label} is not UTF-8 text") from None
    except RecursionError:
        raise ImportFailure(f"{label} nests too deeply to be a line graph") from None
    except ValueError as exc:
        raise ImportFailure(f"{label} is not JSON ({exc})") from None
    _features(doc, label)
    return doc


def _features(doc: Any, label: str) -> list[Any]:
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection":
        raise ImportFailure(f"{label} is not a GeoJSON FeatureCollection")
    features = doc.get("features")
    if not isinstance(features, list):
        raise ImportFailure(f"{label}: its FeatureCollection has no features list")
    if len(features) > MAX_FEATURES:
        raise ImportFailure(f"{label} has more than {MAX_FEATURES} features")
    return features


class _Coordinates:
    """Lon/lat, or Web Mercator metres: decided once for the whole file (Web Mercator when
    no point could be lon/lat; a city in metres is never within 180 m of the origin)."""

    def __init__(self, points: list[tuple[float, float]], label: str) -> None:
        inside = [abs(x) <= 180 and abs(y) <= 90 for x, y in points]
        self.mercator = not any(inside)
        if self.mercator:
            bad = [p for p in points if abs(p[0]) > MERCATOR_LIMIT or abs(p[1]) > MERCATOR_LIMIT]
            why = "neither lon/lat nor Web Mercator metres"
        else:
            bad = [p for p, ok in zip(points, inside, strict=True) if not ok]
            why = "outside lon -180..180, lat -90..90 (the other points are lon/lat)"
        if bad:
            x, y = bad[0]
            raise ImportFailure(f"{label}: coordinate ({x:g}, {y:g}) is out of range: {why}")

    def lat_lon(self, x: float, y: float) -> tuple[float, float]:
        return _mercator_to_lat_lon(x, y) if self.mercator else (y, x)


def _point(feature: dict[str, Any]) -> tuple[float, float] | None:
    geom = feature.get("geometry")
    if not isinstance(geom, dict) or geom.get("type") != "Point":
        return None
    c = geom.get("coordinates")
    if isinstance(c, list) and len(c) >= 2 and _number(c[0]) and _number(c[1]):
        return (float(c[0]), float(c[1]))
    return None


Edge = tuple[str, str, list[dict[str, Any]], int]
"""A LineString: its two nodes, the lines along it and its feature's index."""


@dataclass
class _Graph:
    """The features of a line graph: Point nodes (those of a station too), LineString edges."""

    nodes: dict[str, tuple[float, float]] = field(default_factory=dict)
    station_of: dict[str, str] = field(default_factory=dict)
    station_name: dict[str, str] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)

    def add_point(self, props: dict[str, Any], feature: dict[str, Any]) -> None:
        node = _text(props.get("id"))
        xy = _point(feature)
        if node is None or xy is None:
            return
        self.nodes[node] = xy
        sid = _text(props.get("station_id"))
        if sid is not None:
            self.station_of[node] = sid
            self.station_name.setdefault(sid, _text(props.get("station_label")) or sid)

    def add_line(self, props: dict[str, Any], i: int) -> None:
        a, b = _text(props.get("from")), _text(props.get("to"))
        lines = props.get("lines")
        if a is None or b is None or not isinstance(lines, list):
            return
        self.edges.append((a, b, [ln for ln in lines if isinstance(ln, dict)], i))

    def check(self, label: str) -> None:
        """ImportFailure unless there are edges, stations, and every edge's nodes."""
        if not self.edges:
            raise ImportFailure(
                f"{label} is not a line graph: no LineString feature has from, to and lines"
            )
        if not self.station_of:
            raise ImportFailure(f"{label} is not a line graph: no Point feature has a station_id")
        for a, b, _lines, i in self.edges:
            for end in (a, b):
                if end not in self.nodes:
                    raise ImportFailure(
                        f"{label}: feature {i} runs to node {end!r}, which no Point feature has"
                    )


def _graph(features: list[Any]) -> _Graph:
    graph = _Graph()
    for i, feature in enumerate(features):
        if not isinstance(feature, dict):
            continue
        props = feature.get("properties")
        props = props if isinstance(props, dict) else {}
        geom = feature.get("geometry")
        kind = geom.get("type") if isinstance(geom, dict) else None
        if kind == "Point":
            graph.add_point(props, feature)
        elif kind == "LineString":
            graph.add_line(props, i)
    return graph


def read_graph_doc(doc: Any, label: str, name: str | None = None) -> Network:
    """The network of a parsed line graph (any JSON value: ImportFailure if it is not one)."""
    graph = _graph(_features(doc, label))
    graph.check(label)
    places = _places(graph, label)
    adjacency, meta = _lines(graph.edges)
    routes = []
    for lid in sorted(adjacency, key=lambda k: (_natural(meta[k][0]), k)):
        patterns = tuple(
            sorted(
                {
                    p
                    for path in _paths(adjacency[lid])
                    if len(p := _stations(path, graph.station_of)) >= 2
                }
            )
        )
        label_text, colour = meta[lid]
        routes.append(Route(lid, label_text, colour, patterns, (_natural(label_text), lid)))
    title = name or (doc.get("name") if isinstance(doc.get("name"), str) else None)
    return Network(
        name=title or Path(label).stem,
        places=places,
        routes=tuple(routes),
        source=f"line graph {label}",
    )


def _places(graph: _Graph, label: str) -> dict[str, Place]:
    """Each station at the mean of its nodes' positions (as latitude and longitude)."""
    coords = _Coordinates(list(graph.nodes.values()), label)
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for node, sid in graph.station_of.items():
        lat, lon = coords.lat_lon(*graph.nodes[node])
        check_lat_lon(lat, lon, f"{label}: station {sid!r}")
        acc = sums[sid]
        acc[0] += lat
        acc[1] += lon
        acc[2] += 1
    return {
        sid: Place(sid, graph.station_name[sid], acc[0] / acc[2], acc[1] / acc[2])
        for sid, acc in sums.items()
    }


def _lines(
    edges: list[Edge],
) -> tuple[dict[str, dict[str, set[str]]], dict[str, tuple[str, str | None]]]:
    """Each line's node adjacency, and its label and colour (as the first edge gives them)."""
    adjacency: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    meta: dict[str, tuple[str, str | None]] = {}
    for a, b, lines, _i in edges:
        if a == b:
            continue
        for ln in lines:
            lid = _text(ln.get("id")) or _text(ln.get("label"))
            if lid is None:
                continue
            adjacency[lid][a].add(b)
            adjacency[lid][b].add(a)
            meta.setdefault(lid, (_text(ln.get("label")) or lid, _hex(ln.get("color"))))
    return adjacency, meta


def _hex(colour: Any) -> str | None:
    """``#rrggbb`` (lower case) for a six-digit hex colour with or without ``#``; else None."""
    if not isinstance(colour, str):
        return None
    digits = colour.lstrip("#")
    if len(digits) != 6 or not all(c in "0123456789abcdefABCDEF" for c in digits):
        return None
    return f"#{digits.lower()}"


def _natural(text: str) -> tuple:
    import re

    return tuple(int(t) if t.isdigit() else t.lower() for t in re.findall(r"\d+|\D+", text))


def _stations(path: list[str], station_of: dict[str, str]) -> tuple[str, ...]:
    out: list[str] = []
    for node in path:
        sid = station_of.get(node)
        if sid is not None and (not out or out[-1] != sid):
            out.append(sid)
    return tuple(out)


MAX_ENDS = 60
"""Ends of one line whose every pair is walked (a line with more is walked from the first)."""


def _paths(adj: dict[str, set[str]]) -> list[list[str]]:
    """Paths between every two ends (nodes of degree 1) of each part of a line; a ring
    with no ends, as a closed walk round it."""
    seen: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(adj):
        if start in seen:
            continue
        part = _component(adj, start)
        seen |= part
        ends = sorted(n for n in part if len(adj[n]) == 1)[:MAX_ENDS]
        if not ends:
            out.append(_ring(adj, min(part)))
            continue
        for i, a in enumerate(ends):
            prev = _bfs(adj, a)
            for b in ends[i + 1 :]:
                path = [b]
                while path[-1] != a:
                    path.append(prev[path[-1]])
                out.append(path[::-1])
        if len(ends) == 1:
            far = _bfs(adj, ends[0])
            path = [list(far)[-1]]
            while path[-1] != ends[0]:
                path.append(far[path[-1]])
            out.append(path[::-1])
    return out


def _component(adj: dict[str, set[str]], start: str) -> set[str]:
    return set(_bfs(adj, start))


def _bfs(adj: dict[str, set[str]], start: str) -> dict[str, str]:
    """Each reached node's predecessor, in the order reached (the last is the farthest)."""
    prev = {start: start}
    queue = deque([start])
    while queue:
        n = queue.popleft()
        for m in sorted(adj[n]):
            if m not in prev:
                prev[m] = n
                queue.append(m)
    return prev


def _ring(adj: dict[str, set[str]], start: str) -> list[str]:
    path = [start]
    prev = None
    while True:
        here = path[-1]
        options = sorted(n for n in adj[here] if n != prev)
        if not options:
            return path
        nxt = options[0]
        if nxt == start:
            return [*path, start]
        if nxt in path:
            return path
        prev = here
        path.append(nxt)


def read_graph(path: str | Path, name: str | None = None) -> Network:
    """The network of a line-graph GeoJSON file (at most ``MAX_BYTES`` are read)."""
    with open(path, "rb") as fh:
        data = fh.read(MAX_BYTES + 1)
    label = Path(path).name
    return read_graph_doc(parse_geojson(data, label), label, name)


def only_routes(network: Network, wanted: tuple[str, ...]) -> Network:
    """The network with only the lines named (by id or label); all of them when none are."""
    if not wanted:
        return network
    from dataclasses import replace

    known = {r.id for r in network.routes} | {r.name for r in network.routes}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        shown = ", ".join(r.name for r in network.routes[:12])
        raise ImportFailure(f"no line {', '.join(unknown)} in the graph (its lines: {shown})", 2)
    keep = tuple(r for r in network.routes if r.id in wanted or r.name in wanted)
    return replace(network, routes=keep)
