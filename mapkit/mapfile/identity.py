"""References and identity: the facts a model needs before it can be built."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from mapkit.mapfile.jsonpos import Positions
from mapkit.mapfile.model import MAX_UNITS
from mapkit.notices import Diagnostic, make


def _dist_to_segment(
    p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> tuple[float, float]:
    """Distance from p to segment ab, and the parameter t in [0, 1] of the nearest point."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    denom = dx * dx + dy * dy
    t = 0.0 if denom == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / denom))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy)), t


def shape_follows(
    shape: list[tuple[float, float]],
    depot: tuple[float, float],
    stops: list[tuple[float, float]],
    tol: float,
) -> int | None:
    """Index of the first stop the shape misses or does not end at (-1: not from the depot)."""
    if math.dist(shape[0], depot) > tol:
        return -1
    seg, t_prev = 0, 0.0
    for k, stop in enumerate(stops):
        found = False
        for i in range(seg, len(shape) - 1):
            d, t = _dist_to_segment(stop, shape[i], shape[i + 1])
            if d <= tol and (i > seg or t >= t_prev - 1e-12):
                seg, t_prev, found = i, t, True
                break
        if not found:
            return k
    if math.dist(shape[-1], stops[-1]) > tol:
        return len(stops) - 1
    return None


def _id_patterns() -> dict[str, str]:
    """The id patterns of the map schema (the one place they are written)."""
    from mapkit.mapfile.schema import load_schema

    schema = load_schema("map")
    defs = schema["definitions"]
    return {
        "map": schema["properties"]["id"]["pattern"],
        "station": defs["station"]["properties"]["id"]["pattern"],
        "line": defs["line"]["properties"]["id"]["pattern"],
    }


def check_ids(doc: dict[str, Any], emit: Callable[[str, str, str], None]) -> None:
    """REF008: ids the schema's ``pattern`` let through only because ``$`` matches before a
    final line break (JSON Schema patterns are searched, not matched in full); REF009:
    station ids that differ only by case."""
    patterns = _id_patterns()
    found = [("map", doc["id"], "/id")]
    found += [("station", st["id"], f"/stations/{i}/id") for i, st in enumerate(doc["stations"])]
    found += [("line", ln["id"], f"/lines/{i}/id") for i, ln in enumerate(doc["lines"])]
    for kind, ident, pointer in found:
        if not re.fullmatch(patterns[kind], ident):
            emit("REF008", f"{kind} id {ident!r} ends in a line break", pointer)
    first_by_fold: dict[str, str] = {}
    for i, st in enumerate(doc["stations"]):
        ident = st["id"]
        other = first_by_fold.setdefault(ident.casefold(), ident)
        if other != ident:
            emit(
                "REF009",
                f"station ids '{other}' and '{ident}' differ only by case",
                f"/stations/{i}/id",
            )


def _check_map_rules(doc: dict[str, Any], emit: Callable[[str, str, str], None]) -> None:
    """REF010 and REF012: the map's ruleset and all-lines bonus."""
    from mapkit.rulesets import RulesetError, ruleset_from_doc

    bonus = doc.get("all_lines_bonus")
    if bonus is not None and bonus["first"] < bonus["others"]:
        emit(
            "REF012",
            f"all_lines_bonus: first ({bonus['first']}) is below others ({bonus['others']})",
            "/all_lines_bonus",
        )
    if "ruleset" in doc:
        try:
            ruleset_from_doc(doc["ruleset"])
        except RulesetError as exc:
            emit("REF010", f"the map's ruleset cannot be played: {exc}", "/ruleset")


def _check_stops(
    ln: dict[str, Any], base: str, coords: dict[str, Any], emit: Callable[[str, str, str], None]
) -> None:
    """REF001 and REF004 over a line's stops and its branches' (one station once per line)."""
    lid = ln["id"]
    seen: set[str] = set()
    listed = [(f"{base}/stops", ln["stops"])] + [
        (f"{base}/branches/{b}/stops", br["stops"]) for b, br in enumerate(ln.get("branches", ()))
    ]
    for where, some in listed:
        for k, stop in enumerate(some):
            if stop not in coords:
                emit("REF001", f"line '{lid}': stop '{stop}' names no station", f"{where}/{k}")
            if stop in seen:
                emit("REF004", f"line '{lid}' visits station '{stop}' twice", f"{where}/{k}")
            seen.add(stop)


def _check_branches(ln: dict[str, Any], base: str, emit: Callable[[str, str, str], None]) -> None:
    """REF013 and REF006 of a branching line (rules-notes 23)."""
    if "branches" not in ln:
        if "branch_scoring" in ln:
            emit("REF013", f"line '{ln['id']}' has branch_scoring but no branches",
                 f"{base}/branch_scoring")  # fmt: skip
        return
    lid = ln["id"]
    for key, why in (
        ("loop", "a loop cannot fork"),
        ("both_ends", "a branching line starts at its wagon only"),
        ("shape", "draw a branching line through its stops (its shape cannot fork)"),
    ):
        if ln.get(key):
            emit("REF013", f"line '{lid}' has branches and {key}: {why}", f"{base}/{key}")
    for b, br in enumerate(ln["branches"]):
        pts = br.get("points")
        if pts is not None and pts["first"] < pts["others"]:
            emit(
                "REF006",
                f"line '{lid}' branch {b + 1}: points.first ({pts['first']}) is below "
                f"points.others ({pts['others']})",
                f"{base}/branches/{b}/points",
            )


def check_identity(doc: dict[str, Any], positions: Positions) -> list[Diagnostic]:
    """REF001-REF013 on a schema-valid document."""
    out: list[Diagnostic] = []

    def emit(code: str, msg: str, pointer: str) -> None:
        line, col = positions.locate(pointer)
        out.append(make(code, msg, pointer, line, col))

    check_ids(doc, emit)
    _check_map_rules(doc, emit)

    coords: dict[str, tuple[float, float]] = {}
    for i, st in enumerate(doc["stations"]):
        if st["id"] in coords:
            emit("REF002", f"station id '{st['id']}' is used twice", f"/stations/{i}/id")
        else:
            coords[st["id"]] = (st["x"], st["y"])
    seen_lines: set[str] = set()
    units = 0
    xs = [c[0] for c in coords.values()]
    ys = [c[1] for c in coords.values()]
    extent = max(max(xs) - min(xs), max(ys) - min(ys), 1.0) if xs else 1.0
    tol = extent * 1e-4
    for i, ln in enumerate(doc["lines"]):
        lid = ln["id"]
        base = f"/lines/{i}"
        if lid in seen_lines:
            emit("REF003", f"line id '{lid}' is used twice", f"{base}/id")
        seen_lines.add(lid)
        stops = ln["stops"]
        loop = bool(ln.get("loop", False))
        _check_stops(ln, base, coords, emit)
        _check_branches(ln, base, emit)
        before, units = units, units + (len(ln.get("branches", ())) or 1)
        if units > MAX_UNITS >= before:
            emit(
                "REF013",
                f"line '{lid}' takes the map to {units} scoring units (a line, or each branch "
                f"of a branching line): the rules engine plays at most {MAX_UNITS}",
                f"{base}/branches" if "branches" in ln else base,
            )
        if loop and ln.get("both_ends"):
            emit(
                "REF011",
                f"loop line '{lid}' has both_ends: a loop has no ends",
                f"{base}/both_ends",
            )
        if loop and len(stops) < 3:
            emit(
                "REF005",
                f"loop line '{lid}' has {len(stops)} stops; a loop needs at least 3",
                f"{base}/stops",
            )
        pts = ln["points"]
        if pts["first"] < pts["others"]:
            emit(
                "REF006",
                f"line '{lid}': points.first ({pts['first']}) is below "
                f"points.others ({pts['others']})",
                f"{base}/points",
            )
        shape = ln.get("shape")
        if shape is not None and all(s in coords for s in stops):
            path = [coords[s] for s in stops] + ([coords[stops[0]]] if loop else [])
            missed = shape_follows(
                [tuple(p) for p in shape], (ln["depot"]["x"], ln["depot"]["y"]), path, tol
            )
            if missed == -1:
                emit(
                    "REF007", f"line '{lid}': shape does not start at the depot", f"{base}/shape/0"
                )
            elif missed is not None:
                name = stops[missed] if missed < len(stops) else stops[0]
                what = (
                    "back to the first stop" if missed == len(stops) else f"through stop '{name}'"
                )
                emit(
                    "REF007", f"line '{lid}': shape does not pass {what} in order", f"{base}/shape"
                )
    return out
