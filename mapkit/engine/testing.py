"""Tiny maps and scripted rounds for tests and bot experiments (no files needed)."""

from __future__ import annotations

from typing import Any

from mapkit.engine.record import FORMAT, Replayed, replay
from mapkit.mapfile.model import CityMap, build_map


def tiny_map(lines: dict[str, Any], special: tuple[str, ...] = (), map_id: str = "tiny") -> CityMap:
    """A map from ``{"A": ["a1", "a2"], "L": {"stops": [...], "loop": True, "windows": 2}}``.

    Defaults per line: 3 windows, points 5/3. Stations are made from the stops.
    """
    stations: list[str] = []
    docs = []
    for i, (lid, spec) in enumerate(lines.items()):
        spec = {"stops": spec} if isinstance(spec, list) else dict(spec)
        for s in spec["stops"]:
            if s not in stations:
                stations.append(s)
        docs.append(
            {
                "id": lid,
                "color": "#000000",
                "windows": spec.get("windows", 3),
                "points": {"first": spec.get("first", 5), "others": spec.get("others", 3)},
                "depot": {"x": 0, "y": i},
                "stops": spec["stops"],
                "loop": spec.get("loop", False),
            }
        )
    doc = {
        "format": "mapkit-map/1",
        "id": map_id,
        "name": map_id.title(),
        "stations": [
            {"id": s, "x": i, "y": i, **({"special": True} if s in special else {})}
            for i, s in enumerate(stations)
        ],
        "lines": docs,
    }
    return build_map(doc)


def record(
    city: CityMap,
    players: list[str],
    rounds: list[tuple[str, list[Any]]],
    special: bool = False,
) -> dict[str, Any]:
    """A record document from ``[(card, [move per player]), ...]``."""
    return {
        "format": FORMAT,
        "map": city.id,
        "variant": {"special_stations": special},
        "players": players,
        "rounds": [{"card": c, "moves": m} for c, m in rounds],
    }


def run(
    city: CityMap,
    rounds: list[tuple[str, list[Any]]],
    players: int | list[str] = 1,
    special: bool = False,
    partial: bool = True,
) -> Replayed:
    """Replay scripted rounds (a partial game unless ``partial=False``)."""
    names = players if isinstance(players, list) else [f"p{i}" for i in range(players)]
    doc = record(city, names, rounds, special)
    return replay(city, doc, upto=len(rounds) if partial else None)
