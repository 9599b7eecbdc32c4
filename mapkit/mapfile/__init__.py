"""Reading map files: syntax, schema and identity layers, then the model."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mapkit.mapfile.jsonpos import Positions, decode_utf8, parse_json
from mapkit.mapfile.model import CityMap, Depot, Line, Station, build_map
from mapkit.notices import Diagnostic, Severity, make

__all__ = [
    "MAX_FILE_BYTES", "CityMap", "Depot", "Line", "LoadResult", "MapError", "Station",
    "build_map", "load_map", "load_source", "model_layers", "read_limited", "read_map",
]  # fmt: skip

MAX_FILE_BYTES = 1 << 20
"""The most a map or game record may hold: the schemas bound every list, and a map at
those bounds is a few hundred kilobytes. Reading stops here, so ``/dev/zero`` or a
wrong file is refused at once instead of filling memory."""

_PROBLEM_CODES = {
    "syntax": "JSON001",
    "duplicate-key": "JSON002",
    "non-finite": "JSON003",
    "encoding": "JSON004",
    "too-deep": "JSON005",
}


@dataclass
class LoadResult:
    """What the first three layers made of a file: the model when they passed."""

    path: str
    doc: Any = None
    positions: Positions = field(default_factory=Positions)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    map: CityMap | None = None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]


class MapError(Exception):
    """A map that cannot be used; carries the diagnostics that say why."""

    def __init__(self, path: str, diagnostics: list[Diagnostic]) -> None:
        self.path = path
        self.diagnostics = diagnostics
        first = diagnostics[0] if diagnostics else None
        where = f"{path}:{first.line}:{first.column}" if first and first.line else path
        detail = f" {first.code} {first.message}" if first else ""
        more = f" (and {len(diagnostics) - 1} more)" if len(diagnostics) > 1 else ""
        super().__init__(f"{where}:{detail}{more}")


def load_source(data: bytes | str, path: str = "<map>") -> LoadResult:
    """Run the syntax, schema and identity layers; build the model when all pass."""
    result = LoadResult(path)
    size = len(data)
    if size > MAX_FILE_BYTES:
        what = "bytes" if isinstance(data, bytes) else "characters"
        result.diagnostics.append(
            make(
                "JSON006",
                f"the file holds more than {MAX_FILE_BYTES} {what}: a map is at most 1 MiB",
                "",
                1,
                1,
            )
        )
        return result
    if isinstance(data, bytes):
        text, problem = decode_utf8(data)
        if problem is not None:
            result.diagnostics.append(
                make("JSON004", problem.message, "", problem.line, problem.column)
            )
            return result
        assert text is not None
    else:
        text = data
    parsed = parse_json(text)
    result.positions = parsed.positions
    for p in parsed.problems:
        result.diagnostics.append(
            make(_PROBLEM_CODES[p.kind], p.message, p.pointer, p.line, p.column)
        )
    if result.diagnostics:
        return result
    result.doc = parsed.value
    return model_layers(result, parsed.value)


def model_layers(
    result: LoadResult, doc: Any, allowed: Callable[[Diagnostic], bool] | None = None
) -> LoadResult:
    """The schema and identity layers over a parsed document; the model when both pass.

    ``allowed``: schema findings to drop (a draft may lack lines). Diagnostics keep the
    positions of ``result``, which may belong to a document ``doc`` was completed from.
    """
    from mapkit.mapfile.identity import check_identity
    from mapkit.mapfile.schema import check_schema

    schema = check_schema(doc, result.positions)
    result.diagnostics = [d for d in schema if allowed is None or not allowed(d)]
    if result.diagnostics:
        return result
    result.diagnostics.extend(check_identity(doc, result.positions))
    if not result.errors and doc.get("stations"):
        result.map = build_map(doc, source=result.path)
    return result


PIPE_SECONDS = 10.0
"""How long a pipe may keep a reader waiting for its first bytes, or between two reads."""


def read_limited(
    path: str | Path, limit: int = MAX_FILE_BYTES, wait: float = PIPE_SECONDS
) -> bytes:
    """At most ``limit + 1`` bytes of a file: enough to tell that it is too large.

    OSError for a file that cannot be read (a folder, a loop, no permission, a socket). A
    named pipe is opened without waiting for a writer: one with no writer is refused at
    once, and one that sends nothing for ``wait`` seconds is refused then.
    """
    import errno
    import os
    import select
    import stat

    st = os.stat(path)
    if stat.S_ISSOCK(st.st_mode):
        raise OSError(errno.EINVAL, "a socket, not a file", str(path))
    if not stat.S_ISFIFO(st.st_mode):
        with open(path, "rb") as fh:
            return fh.read(limit + 1)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            try:  # no writer: end of file at once; a writer yet to write: EAGAIN
                chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            except BlockingIOError:
                if select.select([fd], [], [], wait)[0]:
                    continue
                raise OSError(errno.ETIMEDOUT, f"a pipe that sent nothing for {wait:g} s") from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if not chunks:
            raise OSError(errno.ENODATA, "a named pipe with no writer (nothing to read)")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_map(path: str | Path) -> LoadResult:
    """Load a map file; an unreadable file raises OSError (a usage problem, not a map problem)."""
    return load_source(read_limited(path), str(path))


def load_map(path: str | Path) -> CityMap:
    """The model of a map file, or MapError with the diagnostics that stop it."""
    result = read_map(path)
    if result.map is None:
        raise MapError(str(path), result.errors or result.diagnostics)
    return result.map
