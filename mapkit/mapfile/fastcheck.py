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

_IGNORED = {"$schema", "$id", "$comment", "title", "description", "default", "definitions"}
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


class _Compiler:
    """Turns schema nodes into checks; ``$ref`` names are resolved when a check runs, so the
    definitions may refer to one another (and to themselves) in any order."""

    def __init__(self) -> None:
        self.compiled: dict[str, Check] = {}

    def ref(self, name: str) -> Check:
        compiled = self.compiled

        def run(value: Any) -> bool:
            return compiled[name](value)

        return run

    def keyword(self, key: str, arg: Any, node: dict[str, Any]) -> Check:
        make = _KEYWORDS.get(key)
        if make is None:
            raise Unsupported(key)
        return make(self, arg, node)

    def build(self, node: dict[str, Any]) -> Check:
        checks = [self.keyword(key, arg, node) for key, arg in node.items() if key not in _IGNORED]
        if len(checks) == 1:
            return checks[0]
        return lambda v: all(c(v) for c in checks)


Keyword = Callable[[_Compiler, Any, dict[str, Any]], Check]


def _ref(c: _Compiler, arg: str, node: dict[str, Any]) -> Check:
    if not arg.startswith("#/definitions/"):
        raise Unsupported(arg)
    return c.ref(arg.rsplit("/", 1)[1])


def _type(c: _Compiler, arg: str | list[str], node: dict[str, Any]) -> Check:
    kinds = [_TYPES[t] for t in ([arg] if isinstance(arg, str) else arg)]
    return lambda v: any(k(v) for k in kinds)


def _bound(test: Callable[[Any, Any], bool], applies: Check) -> Keyword:
    """A keyword that tests values of one type against its argument and passes the rest."""

    def keyword(c: _Compiler, arg: Any, node: dict[str, Any]) -> Check:
        return lambda v: not applies(v) or test(v, arg)

    return keyword


def _pattern(c: _Compiler, arg: str, node: dict[str, Any]) -> Check:
    rx = re.compile(arg)
    return lambda v: not isinstance(v, str) or rx.search(v) is not None


def _unique(v: Any) -> bool:
    if not isinstance(v, list):
        return True
    if not all(isinstance(x, str) for x in v):
        raise _Unsure
    return len(set(v)) == len(v)


def _unique_items(c: _Compiler, arg: bool, node: dict[str, Any]) -> Check:
    return _unique if arg else lambda v: True


def _items(c: _Compiler, arg: Any, node: dict[str, Any]) -> Check:
    if not isinstance(arg, dict):
        raise Unsupported("items as a list")
    item = c.build(arg)
    return lambda v: not isinstance(v, list) or all(item(x) for x in v)


def _required(c: _Compiler, arg: list[str], node: dict[str, Any]) -> Check:
    return lambda v: not isinstance(v, dict) or all(k in v for k in arg)


def _properties(c: _Compiler, arg: dict[str, Any], node: dict[str, Any]) -> Check:
    props = {k: c.build(s) for k, s in arg.items()}
    return lambda v: not isinstance(v, dict) or all(props[k](x) for k, x in v.items() if k in props)


def _additional(c: _Compiler, arg: Any, node: dict[str, Any]) -> Check:
    if arg is not False or "patternProperties" in node:
        raise Unsupported("additionalProperties other than false")
    known = set(node.get("properties", {}))
    return lambda v: not isinstance(v, dict) or set(v) <= known


def _any_of(c: _Compiler, arg: list[Any], node: dict[str, Any]) -> Check:
    subs = [c.build(s) for s in arg]
    return lambda v: any(s(v) for s in subs)


def _one_of(c: _Compiler, arg: list[Any], node: dict[str, Any]) -> Check:
    subs = [c.build(s) for s in arg]
    return lambda v: sum(1 for s in subs if s(v)) == 1


def _not(c: _Compiler, arg: dict[str, Any], node: dict[str, Any]) -> Check:
    sub = c.build(arg)
    return lambda v: not sub(v)


_KEYWORDS: dict[str, Keyword] = {
    "$ref": _ref,
    "type": _type,
    "const": lambda c, arg, node: lambda v: _same(v, arg),
    "enum": lambda c, arg, node: lambda v: any(_same(v, a) for a in arg),
    "minimum": _bound(lambda v, arg: v >= arg, _TYPES["number"]),
    "maximum": _bound(lambda v, arg: v <= arg, _TYPES["number"]),
    "exclusiveMinimum": _bound(lambda v, arg: v > arg, _TYPES["number"]),
    "exclusiveMaximum": _bound(lambda v, arg: v < arg, _TYPES["number"]),
    "minLength": lambda c, arg, node: lambda v: not isinstance(v, str) or len(v) >= arg,
    "maxLength": lambda c, arg, node: lambda v: not isinstance(v, str) or len(v) <= arg,
    "pattern": _pattern,
    "minItems": lambda c, arg, node: lambda v: not isinstance(v, list) or len(v) >= arg,
    "maxItems": lambda c, arg, node: lambda v: not isinstance(v, list) or len(v) <= arg,
    "uniqueItems": _unique_items,
    "items": _items,
    "required": _required,
    "properties": _properties,
    "additionalProperties": _additional,
    "anyOf": _any_of,
    "oneOf": _one_of,
    "not": _not,
}
"""The draft-07 keywords implemented: each makes the check of its argument in a node (a
keyword not here is Unsupported, and the schema is left to jsonschema)."""


def compile_check(schema: dict[str, Any]) -> Check:
    """A function that is True only for documents valid under ``schema`` (draft-07)."""
    compiler = _Compiler()
    try:
        for name, node in schema.get("definitions", {}).items():
            compiler.compiled[name] = compiler.build(node)
        root = compiler.build(schema)
    except (Unsupported, KeyError, re.error):
        return _never

    def check(value: Any) -> bool:
        try:
            return root(value)
        except (_Unsure, RecursionError):
            return False

    return check
