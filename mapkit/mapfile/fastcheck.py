"""A quick yes for documents that follow a schema, so that jsonschema only runs on the others.

jsonschema walks a map at the schema's bounds (10,000 shape points) in over a second;
most documents are valid and need no messages. :func:`compile_check` turns the draft-07
keywords our schemas use into nested closures that answer in a few milliseconds. It
answers ``True`` only when the document is valid, and ``False`` when it is not *or when it
cannot tell* (a keyword it does not know, unique items that are not all strings, values
equal across types such as ``1`` and ``true``); the
caller then runs jsonschema, which stays the authority and writes every message.
tests/test_fuzz.py holds the two to agreement on mutated maps and records.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

_IGNORED = {
    "$schema", "$id", "$comment", "title", "description", "default", "definitions", "examples",
}  # fmt: skip
_TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
}


class Unsupported(Exception):
    """A keyword this module does not implement: use jsonschema alone."""


class _Unsure(Exception):
    """A value whose verdict needs jsonschema's own rules (equality across types)."""


def _same(value: Any, expected: Any) -> bool:
    if value == expected and type(value) is not type(expected):
        raise _Unsure
    return type(value) is type(expected) and value == expected


def _never(_value: Any) -> bool:
    return False


def compile_check(schema: dict[str, Any]) -> Check:
    """A function that is True only for documents valid under ``schema`` (draft-07)."""
    defs = schema.get("definitions", {})
    compiled: dict[str, Check] = {}

    def ref(name: str) -> Check:
        def run(value: Any) -> bool:
            return compiled[name](value)

        return run

    def build(node: dict[str, Any]) -> Check:
        checks: list[Check] = []
        for key, arg in node.items():
            if key in _IGNORED:
                continue
            checks.append(keyword(key, arg, node))
        if len(checks) == 1:
            return checks[0]
        return lambda v: all(c(v) for c in checks)

    def keyword(key: str, arg: Any, node: dict[str, Any]) -> Check:
        if key == "$ref":
            if not arg.startswith("#/definitions/"):
                raise Unsupported(arg)
            return ref(arg.rsplit("/", 1)[1])
        if key == "type":
            kinds = [_TYPES[t] for t in ([arg] if isinstance(arg, str) else arg)]
            return lambda v: any(k(v) for k in kinds)
        if key == "const":
            return lambda v: _same(v, arg)
        if key == "enum":
            return lambda v: any(_same(v, a) for a in arg)
        if key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            test = {
                "minimum": lambda v: v >= arg,
                "maximum": lambda v: v <= arg,
                "exclusiveMinimum": lambda v: v > arg,
                "exclusiveMaximum": lambda v: v < arg,
            }[key]
            return lambda v: not _TYPES["number"](v) or test(v)
        if key in ("minLength", "maxLength"):
            if key == "minLength":
                return lambda v: not isinstance(v, str) or len(v) >= arg
            return lambda v: not isinstance(v, str) or len(v) <= arg
        if key == "pattern":
            rx = re.compile(arg)
            return lambda v: not isinstance(v, str) or rx.search(v) is not None
        if key in ("minItems", "maxItems"):
            if key == "minItems":
                return lambda v: not isinstance(v, list) or len(v) >= arg
            return lambda v: not isinstance(v, list) or len(v) <= arg
        if key == "uniqueItems":
            if not arg:
                return lambda v: True

            def unique(v: Any) -> bool:
                if not isinstance(v, list):
                    return True
                if not all(isinstance(x, str) for x in v):
                    raise _Unsure
                return len(set(v)) == len(v)

            return unique
        if key == "items":
            if not isinstance(arg, dict):
                raise Unsupported("items as a list")
            item = build(arg)
            return lambda v: not isinstance(v, list) or all(item(x) for x in v)
        if key == "required":
            return lambda v: not isinstance(v, dict) or all(k in v for k in arg)
        if key == "properties":
            props = {k: build(s) for k, s in arg.items()}
            return lambda v: (
                not isinstance(v, dict) or all(props[k](x) for k, x in v.items() if k in props)
            )
        if key == "additionalProperties":
            if arg is not False or "patternProperties" in node:
                raise Unsupported("additionalProperties other than false")
            known = set(node.get("properties", {}))
            return lambda v: not isinstance(v, dict) or set(v) <= known
        if key in ("anyOf", "oneOf"):
            subs = [build(s) for s in arg]
            if key == "anyOf":
                return lambda v: any(s(v) for s in subs)
            return lambda v: sum(1 for s in subs if s(v)) == 1
        if key == "not":
            sub = build(arg)
            return lambda v: not sub(v)
        raise Unsupported(key)

    try:
        for name, node in defs.items():
            compiled[name] = build(node)
        root = build(schema)
    except (Unsupported, KeyError, re.error):
        return _never

    def check(value: Any) -> bool:
        try:
            return root(value)
        except (_Unsure, RecursionError):
            return False

    return check
