"""Map documents as text: the shipped maps' layout, with a stable key order.

Known keys come in the order ``schemas/map.schema.json`` lists them; unknown keys
follow in their own order (they are kept, never dropped). Containers of plain values
(a station, ``points``, ``stops``) stay on one line; everything else is indented
by two spaces. The shipped maps are written this way, so saving one unchanged
gives the same bytes.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from mapkit.mapfile.schema import load_schema

_CHILD = {"sheet": "sheet", "points": "points", "depot": "depot"}


@cache
def _key_order() -> dict[str, tuple[str, ...]]:
    """Each object's known keys, in the order the schema lists them."""
    schema = load_schema("map")
    line = schema["definitions"]["line"]["properties"]
    return {
        "map": tuple(schema["properties"]),
        "sheet": tuple(schema["properties"]["sheet"]["properties"]),
        "station": tuple(schema["definitions"]["station"]["properties"]),
        "line": tuple(line),
        "points": tuple(line["points"]["properties"]),
        "depot": tuple(line["depot"]["properties"]),
    }


def _ordered(obj: dict[str, Any], kind: str) -> dict[str, Any]:
    known = _key_order()[kind]
    out = {k: obj[k] for k in known if k in obj}
    out.update((k, v) for k, v in obj.items() if k not in out)
    return out


def normalize(doc: Any) -> Any:
    """The document with every known object's keys in the documented order."""
    if not isinstance(doc, dict):
        return doc
    out = _ordered(doc, "map")
    if isinstance(out.get("sheet"), dict):
        out["sheet"] = _ordered(out["sheet"], "sheet")
    if isinstance(out.get("stations"), list):
        out["stations"] = [
            _ordered(s, "station") if isinstance(s, dict) else s for s in out["stations"]
        ]
    if isinstance(out.get("lines"), list):
        lines = []
        for ln in out["lines"]:
            if isinstance(ln, dict):
                ln = _ordered(ln, "line")
                for key, kind in _CHILD.items():
                    if isinstance(ln.get(key), dict):
                        ln[key] = _ordered(ln[key], kind)
            lines.append(ln)
        out["lines"] = lines
    return out


def _flat(value: Any) -> bool:
    items = value.values() if isinstance(value, dict) else value
    return all(not isinstance(v, dict | list) for v in items)


def _write(value: Any, indent: int, out: list[str]) -> None:
    if not isinstance(value, dict | list) or _flat(value) or not value:
        out.append(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))
        return
    pad = "  " * (indent + 1)
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    out.append(opening + "\n")
    items = list(value.items()) if isinstance(value, dict) else [(None, v) for v in value]
    for i, (key, item) in enumerate(items):
        out.append(pad)
        if key is not None:
            out.append(json.dumps(key, ensure_ascii=False) + ": ")
        _write(item, indent + 1, out)
        out.append(",\n" if i < len(items) - 1 else "\n")
    out.append("  " * indent + closing)


def dumps(doc: Any) -> str:
    """The text of a map document as ``mapkit studio`` and ``mapkit tune`` save it (ends
    with a newline)."""
    out: list[str] = []
    _write(normalize(doc), 0, out)
    return "".join(out) + "\n"
