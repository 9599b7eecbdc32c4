"""A strict JSON parser that remembers where every value came from.

The standard library parser accepts ``NaN``, silently keeps the last of two
duplicate keys and forgets positions. A designer needs all three reported, with
a line and column, so this module parses JSON (RFC 8259) itself and records the
source position of every value and every object key under its JSON pointer.
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass, field
from typing import Any

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_PLAIN = re.compile(r'[^"\\\x00-\x1f]*')
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_BAD_LITERALS = ("NaN", "Infinity", "-Infinity")
MAX_DEPTH = 128


def escape_pointer_token(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def join_pointer(base: str, token: str | int) -> str:
    return f"{base}/{escape_pointer_token(token)}"


@dataclass(frozen=True)
class JsonProblem:
    """A syntax-level problem: ``kind`` is one of ``syntax``, ``duplicate-key``,
    ``non-finite``, ``too-deep``."""

    kind: str
    message: str
    line: int
    column: int
    pointer: str = ""


@dataclass
class Positions:
    """Line and column (1-based) of every value, and of every object key."""

    values: dict[str, tuple[int, int]] = field(default_factory=dict)
    keys: dict[str, tuple[int, int]] = field(default_factory=dict)

    def locate(self, pointer: str, *, key: bool = False) -> tuple[int, int]:
        """The position of ``pointer``, or of its nearest existing ancestor."""
        table = self.keys if key else self.values
        if pointer in table:
            return table[pointer]
        while pointer:
            if pointer in self.values:
                return self.values[pointer]
            pointer = pointer.rsplit("/", 1)[0]
        return self.values.get("", (1, 1))


class _Fatal(Exception):
    pass


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
        self.positions = Positions()
        self.problems: list[JsonProblem] = []

    def where(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.line_starts, offset) - 1
        return i + 1, offset - self.line_starts[i] + 1

    def fail(self, message: str, offset: int | None = None, kind: str = "syntax") -> None:
        line, col = self.where(self.pos if offset is None else offset)
        self.problems.append(JsonProblem(kind, message, line, col))
        raise _Fatal

    def skip_ws(self) -> None:
        self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]

    def describe_here(self) -> str:
        if self.pos >= len(self.text):
            return "end of file"
        return repr(self.text[self.pos])

    def parse_document(self) -> Any:
        self.skip_ws()
        if self.pos >= len(self.text):
            self.fail("the file is empty; expected a JSON object")
        value = self.parse_value("", 0)
        self.skip_ws()
        if self.pos < len(self.text):
            self.fail(f"unexpected {self.describe_here()} after the end of the JSON document")
        return value

    def parse_value(self, pointer: str, depth: int) -> Any:
        if depth > MAX_DEPTH:
            self.fail(f"nesting deeper than {MAX_DEPTH} levels", kind="too-deep")
        text, pos = self.text, self.pos
        self.positions.values[pointer] = self.where(pos)
        if pos >= len(text):
            self.fail("unexpected end of file; expected a value")
        ch = text[pos]
        if ch == "{":
            return self.parse_object(pointer, depth)
        if ch == "[":
            return self.parse_array(pointer, depth)
        if ch == '"':
            return self.parse_string()
        if ch == "-" or ch.isdigit():
            for lit in _BAD_LITERALS:
                if text.startswith(lit, pos):
                    return self.non_finite(lit, pointer)
            return self.parse_number(pointer)
        for lit, val in (("true", True), ("false", False), ("null", None)):
            if text.startswith(lit, pos):
                self.pos += len(lit)
                return val
        for lit in _BAD_LITERALS:
            if text.startswith(lit, pos):
                return self.non_finite(lit, pointer)
        self.fail(f"unexpected {self.describe_here()}; expected a value")
        return None

    def non_finite(self, literal: str, pointer: str) -> float:
        line, col = self.where(self.pos)
        self.problems.append(
            JsonProblem(
                "non-finite",
                f"{literal} is not a JSON number; coordinates and counts must be finite",
                line,
                col,
                pointer,
            )
        )
        self.pos += len(literal)
        return math.nan

    def parse_number(self, pointer: str) -> int | float:
        m = _NUMBER.match(self.text, self.pos)
        if not m or not m.group(0) or m.group(0) == "-":
            self.fail(f"malformed number starting with {self.describe_here()}")
        assert m is not None
        start, self.pos = self.pos, m.end()
        raw = m.group(0)
        if m.group(1) is None and m.group(2) is None:
            if len(raw) > 300:
                line, col = self.where(start)
                self.problems.append(
                    JsonProblem(
                        "non-finite", f"the number {raw[:20]}... is too large", line, col, pointer
                    )
                )
                return math.inf
            return int(raw)
        value = float(raw)
        if not math.isfinite(value):
            line, col = self.where(start)
            self.problems.append(
                JsonProblem(
                    "non-finite",
                    f"the number {raw[:40]} is too large to be represented",
                    line,
                    col,
                    pointer,
                )
            )
        return value

    def parse_string(self) -> str:
        text = self.text
        start = self.pos
        self.pos += 1
        parts: list[str] = []
        while True:
            m = _PLAIN.match(text, self.pos)
            assert m is not None
            parts.append(m.group(0))
            self.pos = m.end()
            if self.pos >= len(text):
                self.fail("unterminated string", start)
            ch = text[self.pos]
            if ch == '"':
                self.pos += 1
                return "".join(parts)
            if ch == "\\":
                esc = text[self.pos + 1 : self.pos + 2]
                if esc in _ESCAPES:
                    parts.append(_ESCAPES[esc])
                    self.pos += 2
                elif esc == "u":
                    hexdigits = text[self.pos + 2 : self.pos + 6]
                    if not re.fullmatch(r"[0-9a-fA-F]{4}", hexdigits):
                        self.fail("invalid \\u escape in string")
                    code = int(hexdigits, 16)
                    self.pos += 6
                    if 0xD800 <= code < 0xDC00 and text.startswith("\\u", self.pos):
                        low = text[self.pos + 2 : self.pos + 6]
                        if re.fullmatch(r"[0-9a-fA-F]{4}", low) and 0xDC00 <= int(low, 16) < 0xE000:
                            code = 0x10000 + ((code - 0xD800) << 10) + (int(low, 16) - 0xDC00)
                            self.pos += 6
                    if 0xD800 <= code < 0xE000:
                        code = 0xFFFD
                    parts.append(chr(code))
                else:
                    self.fail(f"invalid escape \\{esc} in string")
            else:
                self.fail("control character inside a string (write it as an escape)")

    def parse_object(self, pointer: str, depth: int) -> dict[str, Any]:
        text = self.text
        self.pos += 1
        result: dict[str, Any] = {}
        self.skip_ws()
        if text.startswith("}", self.pos):
            self.pos += 1
            return result
        while True:
            self.skip_ws()
            if not text.startswith('"', self.pos):
                if text.startswith("}", self.pos):
                    self.fail("trailing comma before '}'")
                self.fail(f"expected a quoted property name, found {self.describe_here()}")
            key_offset = self.pos
            key = self.parse_string()
            child = join_pointer(pointer, key)
            if key in result:
                line, col = self.where(key_offset)
                first = self.positions.keys.get(child, (0, 0))
                self.problems.append(
                    JsonProblem(
                        "duplicate-key",
                        f'duplicate key "{key}" (first defined at line {first[0]}); '
                        "JSON readers disagree on which value wins",
                        line,
                        col,
                        child,
                    )
                )
            else:
                self.positions.keys[child] = self.where(key_offset)
            self.skip_ws()
            if not text.startswith(":", self.pos):
                self.fail(f"expected ':' after the property name, found {self.describe_here()}")
            self.pos += 1
            self.skip_ws()
            result[key] = self.parse_value(child, depth + 1)
            self.skip_ws()
            if text.startswith(",", self.pos):
                self.pos += 1
                continue
            if text.startswith("}", self.pos):
                self.pos += 1
                return result
            self.fail(f"expected ',' or '}}', found {self.describe_here()}")

    def parse_array(self, pointer: str, depth: int) -> list[Any]:
        text = self.text
        self.pos += 1
        result: list[Any] = []
        self.skip_ws()
        if text.startswith("]", self.pos):
            self.pos += 1
            return result
        while True:
            self.skip_ws()
            if text.startswith("]", self.pos):
                self.fail("trailing comma before ']'")
            result.append(self.parse_value(join_pointer(pointer, len(result)), depth + 1))
            self.skip_ws()
            if text.startswith(",", self.pos):
                self.pos += 1
                continue
            if text.startswith("]", self.pos):
                self.pos += 1
                return result
            self.fail(f"expected ',' or ']', found {self.describe_here()}")


@dataclass
class ParseResult:
    value: Any
    positions: Positions
    problems: list[JsonProblem]

    @property
    def ok(self) -> bool:
        return not self.problems


def parse_json(text: str) -> ParseResult:
    """Parse ``text``; on a fatal syntax error ``value`` is ``None``."""
    parser = _Parser(text)
    try:
        value = parser.parse_document()
    except _Fatal:
        value = None
    except RecursionError:
        parser.problems.append(JsonProblem("too-deep", "nesting too deep", 1, 1))
        value = None
    return ParseResult(value, parser.positions, parser.problems)


def decode_utf8(data: bytes) -> tuple[str | None, JsonProblem | None]:
    """Decode bytes as UTF-8 (a leading BOM is allowed), locating the first bad byte."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8", errors="replace")
        line = good.count("\n") + 1
        column = len(good) - (good.rfind("\n") + 1) + 1
        return None, JsonProblem(
            "encoding",
            f"the file is not valid UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start} "
            "cannot be decoded; save the file as UTF-8",
            line,
            column,
        )
