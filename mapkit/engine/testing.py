"""Tiny maps and scripted rounds for tests and bot experiments (no files needed)."""

from __future__ import annotations

from typing import Any

from mapkit.engine.game import Game
from mapkit.engine.record import FORMAT, Replayed, replay
from mapkit.engine.state import State
from mapkit.mapfile.model import CityMap, build_map
from mapkit.rulesets import DEFAULT_RULESET


def tiny_map(
    lines: dict[str, Any],
    special: tuple[str, ...] = (),
    map_id: str = "tiny",
    ruleset: str | dict[str, Any] | None = None,
) -> CityMap:
    """A map from ``{"A": ["a1", "a2"], "L": {"stops": [...], "loop": True, "windows": 2}}``.

    Defaults per line: 3 windows, points 5/3. Stations are made from the stops. ``ruleset``:
    the map's ``"ruleset"`` (default: none, Voll verplant).
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
    if ruleset is not None:
        doc["ruleset"] = ruleset
    return build_map(doc)


def record(
    city: CityMap,
    players: list[str],
    rounds: list[tuple[str, list[Any]]],
    special: bool = False,
) -> dict[str, Any]:
    """A record document from ``[(card, [move per player]), ...]``, under the map's ruleset."""
    doc: dict[str, Any] = {"format": FORMAT, "map": city.id}
    if city.ruleset.id != DEFAULT_RULESET:
        doc["ruleset"] = city.ruleset.id
    doc["variant"] = {"special_stations": special}
    doc["players"] = players
    doc["rounds"] = [{"card": c, "moves": m} for c, m in rounds]
    return doc


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


def last_choice_game(game: Game, seed: int) -> State:
    """A whole game of ``seed``'s deck in which every seat takes its last listed action: a
    quick finished game, no bot needed."""
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal()
        else:
            state.apply_action(state.legal_actions()[-1])
    return state
