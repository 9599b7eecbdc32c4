"""Schema layer: JSON Schema (draft-07) validation turned into located notices."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from mapkit.mapfile.jsonpos import Positions, join_pointer
from mapkit.notices import Diagnostic, make
from mapkit.resources import schema_path

SUPPORTED_FORMAT = "mapkit-map/1"

_RANGE = {
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "minItems", "maxItems", "minLength", "maxLength",
}  # fmt: skip


@cache
def load_schema(kind: str = "map") -> dict[str, Any]:
    with open(schema_path(kind), encoding="utf-8") as fh:
        return json.load(fh)


@cache
def quick_check(kind: str):
    """True only for documents valid under the schema (see ``mapkit.mapfile.fastcheck``)."""
    from mapkit.mapfile.fastcheck import compile_check

    return compile_check(load_schema(kind))


def schema_errors(kind: str, doc: Any) -> list[Any]:
    """jsonschema's errors for ``doc``; none without running it when the quick check passes."""
    if quick_check(kind)(doc):
        return []
    return list(validator(kind).iter_errors(doc))


@cache
def validator(kind: str) -> Any:
    """The draft-07 validator of ``schemas/<kind>.schema.json``, built once."""
    from jsonschema import Draft7Validator

    return Draft7Validator(load_schema(kind))


def describe(doc: Any, pointer: str) -> str:
    """Name the map element a pointer lies in: ``line 'A'``, ``station 'zoo'``."""
    parts = pointer.split("/")[1:]
    if len(parts) >= 2 and parts[0] in ("lines", "stations") and parts[1].isdigit():
        kind = "line" if parts[0] == "lines" else "station"
        try:
            item = doc[parts[0]][int(parts[1])]
            ident = item.get("id") if isinstance(item, dict) else None
        except (IndexError, KeyError, TypeError):
            ident = None
        if isinstance(ident, str):
            return f"{kind} '{ident}'"
        return f"{kind} #{int(parts[1]) + 1}"
    return "the map" if not parts else f"'{parts[-1]}'"


def _shorten(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    return text if len(text) <= 40 else text[:37] + "..."


def _range_message(kind: str, limit: Any, value: Any) -> str:
    if kind in ("minItems", "maxItems"):
        side = "at least" if kind == "minItems" else "at most"
        return f"has {len(value)} item(s); {side} {limit} required"
    if kind in ("minLength", "maxLength"):
        side = "at least" if kind == "minLength" else "at most"
        return f"text of {len(value)} characters; {side} {limit} allowed"
    words = {
        "minimum": "is below the minimum",
        "maximum": "is above the maximum",
        "exclusiveMinimum": "must be greater than",
        "exclusiveMaximum": "must be less than",
    }
    return f"{_shorten(value)} {words[kind]} {limit}"


def check_schema(doc: Any, positions: Positions) -> list[Diagnostic]:
    """Diagnostics for every schema violation; a wrong ``format`` stops the layer."""
    if isinstance(doc, dict) and "format" in doc and doc["format"] != SUPPORTED_FORMAT:
        line, col = positions.locate("/format")
        return [
            make(
                "SCH001",
                f"unsupported format {_shorten(doc['format'])}: this mapkit reads "
                f'"{SUPPORTED_FORMAT}"',
                "/format",
                line,
                col,
            )
        ]
    out: list[Diagnostic] = []
    errors = sorted(schema_errors("map", doc), key=lambda e: list(map(str, e.path)))
    for err in errors:
        pointer = "".join(f"/{join_pointer('', p)[1:]}" for p in err.absolute_path)
        where = describe(doc, pointer)
        key = False
        if err.validator == "required":
            missing = err.message.split("'")[1] if "'" in err.message else err.message
            code, msg = "SCH002", f"{where}: missing required property '{missing}'"
        elif err.validator == "additionalProperties":
            extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
            for name in extra:
                child = join_pointer(pointer, name)
                line, col = positions.locate(child, key=True)
                out.append(make("SCH003", f"{where}: unknown property '{name}'", child, line, col))
            continue
        elif err.validator == "type":
            code = "SCH004"
            msg = f"{where}: {_shorten(err.instance)} is not of type {err.validator_value}"
        elif err.validator in _RANGE:
            code, msg = (
                "SCH005",
                f"{where}: {_range_message(err.validator, err.validator_value, err.instance)}",
            )
        elif err.validator == "pattern":
            code = "SCH006"
            msg = f"{where}: {_shorten(err.instance)} does not match {err.validator_value}"
        elif err.validator == "const" and pointer == "/format":
            code, msg = "SCH001", f'format must be "{SUPPORTED_FORMAT}"'
        else:
            code, msg = "SCH007", f"{where}: {err.message}"
        line, col = positions.locate(pointer, key=key)
        out.append(make(code, msg, pointer, line, col))
    return out
