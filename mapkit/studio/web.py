"""Reading a studio request and writing its answer: the JSON body as strictly as the loader
reads a map, the query parameters the routes share, and JSON answers as ASCII.

Every route reads through these, so a body or a parameter is refused with the same words
whichever route it is sent to.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from mapkit.mapfile import MAX_FILE_BYTES
from mapkit.mapfile.jsonpos import MAX_DEPTH
from mapkit.studio.playtest import PlaytestConfig
from mapkit.studio.refusal import Refused

if TYPE_CHECKING:
    from mapkit.sheet import SheetLayout


class Json(JSONResponse):
    """JSON as ASCII: every string the map holds (half a character too) goes out escaped."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False).encode("ascii")


def error(status: int, message: str, **extra: Any) -> Json:
    """The answer to a refused request: ``{"error": message, **extra}``."""
    return Json({"error": message, **extra}, status_code=status)


def _not_json(why: str) -> Refused:
    return Refused(400, f"request body is not valid JSON: {why}")


def _no_constant(name: str) -> Any:
    raise _not_json(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _not_json(f"the number {text[:40]} is too large to be represented")
    return value


def _bounded_int(text: str) -> int:
    if len(text) > 300:
        raise _not_json(f"the number {text[:20]}... is too large")
    return int(text)


def _depth_ok(value: Any) -> bool:
    """Nesting within the loader's MAX_DEPTH (checked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _whole_characters(value: Any) -> tuple[Any, int]:
    """``value`` with each half character (a lone surrogate) replaced by U+FFFD, as the
    loader reads one in a map file, and how many there were."""
    if isinstance(value, str):
        return _SURROGATE.subn("\ufffd", value)
    if isinstance(value, list):
        pairs = [_whole_characters(v) for v in value]
        return [v for v, _ in pairs], sum(n for _, n in pairs)
    if isinstance(value, dict):
        out, total = {}, 0
        for k, v in value.items():
            (k2, n1), (v2, n2) = _whole_characters(k), _whole_characters(v)
            out[k2] = v2
            total += n1 + n2
        return out, total
    return value, 0


@dataclass(frozen=True)
class Body:
    """A request body read as JSON; ``replaced``: half characters replaced by U+FFFD."""

    value: Any
    replaced: int = 0


def parse_body(raw: bytes) -> Body:
    """A request body as JSON, as strictly as the loader reads a map; Refused (400) else."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(400, "request body is not UTF-8 text") from None
    try:
        value = json.loads(
            text, parse_constant=_no_constant, parse_float=_finite, parse_int=_bounded_int
        )
    except json.JSONDecodeError as exc:
        raise _not_json(f"{exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise _not_json(f"nesting deeper than {MAX_DEPTH} levels") from None
    if not _depth_ok(value):
        raise _not_json(f"nesting deeper than {MAX_DEPTH} levels")
    if _SURROGATE_ESCAPE.search(text):
        return Body(*_whole_characters(value))
    return Body(value)


def too_large() -> Refused:
    """The refusal of a body over the loader's 1 MiB (by its length or as it streams in)."""
    return Refused(
        413,
        f"request body over {MAX_FILE_BYTES} bytes: a map is at most 1 MiB (as validate reads it)",
    )


async def read_body(request: Request) -> Body:
    """The request's JSON body, read up to 1 MiB and parsed in a thread."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise Refused(415, "send the request body as JSON (Content-Type: application/json)")
    data = await read_upload(request, MAX_FILE_BYTES, too_large)
    return await run_in_threadpool(parse_body, data)


async def read_upload(request: Request, limit: int, too_large: Callable[[], Refused]) -> bytes:
    """A request body that is a file (a feed, an image), read up to ``limit`` bytes; beyond
    that ``too_large()`` is raised at once, whatever the body's length said."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large()
        chunks.append(chunk)
    return b"".join(chunks)


async def json_body(request: Request) -> Any:
    """The request's JSON body as a value (see ``read_body``)."""
    return (await read_body(request)).value


def json_object(body: Any, example: str) -> dict[str, Any]:
    """``body`` when it is a JSON object; Refused (400) showing ``example`` else."""
    if not isinstance(body, dict):
        raise Refused(400, f"expected a JSON object like {example}")
    return body


def paper(request: Request) -> str:
    """The ``paper`` query parameter (default a4), one of the sheet's papers."""
    from mapkit.sheet import PAPERS

    name = request.query_params.get("paper", "a4")
    if name not in PAPERS:
        raise Refused(400, f"unknown paper {name!r}; use {' or '.join(PAPERS)}")
    return name


def flag(request: Request, name: str, default: bool) -> bool:
    """A yes/no query parameter: 1, true, yes or on (any case) is yes."""
    value = request.query_params.get(name)
    if value is None:
        return default
    return value.lower() in ("1", "true", "yes", "on")


def playtest_config(body: Any) -> PlaytestConfig:
    """The play-test settings a request body asks for; Refused (400) with the reason else."""
    try:
        return PlaytestConfig.from_request(body)
    except ValueError as exc:
        raise Refused(400, str(exc)) from None


def layout_json(lay: SheetLayout) -> dict[str, Any]:
    """What the page needs to map sheet millimetres to map units and back."""
    return {
        "width": lay.width,
        "height": lay.height,
        "scale": lay.scale,
        "offset": list(lay.offset),
        "station_r": lay.metrics.station_r,
    }
