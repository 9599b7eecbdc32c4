"""The studio's HTTP API (docs/studio.md) as a Starlette application.

Every route is a thin call into the library: ``mapkit.checks`` for diagnostics,
``mapkit.intersections``, ``mapkit.render`` for the sheet and the heatmap,
``mapkit.simulate`` (in a worker process) for play-tests. The checks and the renderer run
in threads, so a small request never waits behind a large map.

``Guard`` stands in front of every route: a request must carry the session token
(the URL the server printed, as Jupyter does), name this server in ``Host`` (and
``Origin``, when sent), and stay under the loader's 1 MiB; every answer carries a strict
Content-Security-Policy, so that no map text can run as script in the page, and neither
another web site nor another local program can read or change the map.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import math
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from mapkit.mapfile import MAX_FILE_BYTES
from mapkit.mapfile.jsonpos import MAX_DEPTH
from mapkit.studio.playtest import (
    PlaytestConfig,
    PlaytestStopped,
    Worker,
    run_report,
    shipped_means,
)
from mapkit.studio.refusal import Refused
from mapkit.studio.session import Session

STATIC = Path(__file__).resolve().parent / "static"
_ASSETS = {"studio.js": "text/javascript", "studio.css": "text/css"}
TOKEN_HEADER = "x-mapkit-token"

PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The page: its own script and style files only, no inline script, style or handler."""
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox"
"""A sheet opened on its own: a picture, never a document that runs anything."""
DATA_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"


class Json(JSONResponse):
    """JSON as ASCII: every string the map holds (half a character too) goes out escaped."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False).encode("ascii")


def _error(status: int, message: str, **extra: Any) -> Json:
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


async def _json_body(request: Request) -> Any:
    return (await _read_body(request)).value


async def _read_body(request: Request) -> Body:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise Refused(415, "send the request body as JSON (Content-Type: application/json)")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_FILE_BYTES:
            raise _too_large()
        chunks.append(chunk)
    return await run_in_threadpool(parse_body, b"".join(chunks))


def _too_large() -> Refused:
    return Refused(
        413,
        f"request body over {MAX_FILE_BYTES} bytes: a map is at most 1 MiB (as validate reads it)",
    )


def _paper(request: Request) -> str:
    from mapkit.sheet import PAPERS

    paper = request.query_params.get("paper", "a4")
    if paper not in PAPERS:
        raise Refused(400, f"unknown paper {paper!r}; use {' or '.join(PAPERS)}")
    return paper


def _flag(request: Request, name: str, default: bool) -> bool:
    value = request.query_params.get(name)
    if value is None:
        return default
    return value.lower() in ("1", "true", "yes", "on")


def _empty_object(body: Any, example: str) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise Refused(400, f"expected a JSON object like {example}")
    return body


class Guard:
    """ASGI middleware: the token, Host, Origin and size checks, and the security headers."""

    def __init__(self, app: Any, hosts: set[str], token: str) -> None:
        self.app, self.hosts, self.token = app, hosts, token
        self.origins = {f"http://{h}" for h in hosts}

    def refusal(self, scope: dict[str, Any]) -> Json | Response | None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "").lower()
        if host not in self.hosts:
            return _error(
                403, f"refused: this server answers only as {' or '.join(sorted(self.hosts))}"
            )
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in self.origins:
            return _error(403, f"refused: requests from {origin} are not allowed")
        if headers.get("sec-fetch-site") in ("cross-site", "same-site"):
            return _error(403, "refused: requests from other sites are not allowed")
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = headers.get(TOKEN_HEADER) or (query.get("token") or [""])[0]
        if scope["path"] == "/favicon.ico":
            return None
        if not given:
            why = "refused: this request lacks the studio's session token"
        elif not hmac.compare_digest(given.encode("latin-1"), self.token.encode("latin-1")):
            why = "refused: wrong session token (from an earlier run of mapkit studio?)"
        else:
            length = headers.get("content-length", "")
            if length.isdigit() and int(length) > MAX_FILE_BYTES:
                exc = _too_large()
                return _error(exc.status, exc.message)
            return None
        why += "; open the address mapkit studio printed when it started (it ends in ?token=...)"
        if scope["path"].startswith("/api/"):
            return _error(403, why)
        return Response(why + "\n", status_code=403, media_type="text/plain")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k != b"cache-control"]
                ctype = dict(headers).get(b"content-type", b"")
                csp = (
                    PAGE_CSP
                    if ctype.startswith(b"text/html")
                    else (SVG_CSP if ctype.startswith(b"image/svg") else DATA_CSP)
                )
                headers += [
                    (b"content-security-policy", csp.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"cross-origin-opener-policy", b"same-origin"),
                    (b"cross-origin-resource-policy", b"same-origin"),
                    (b"cache-control", b"no-store"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        refused = self.refusal(scope)
        if refused is not None:
            await refused(scope, receive, secured)
            return
        await self.app(scope, receive, secured)


def create_app(
    session: Session, allowed_hosts: Iterable[str], *, token: str, worker: Worker | None = None
) -> Starlette:
    """The studio for ``session``; ``allowed_hosts``: the ``host:port`` names of this server;
    ``token``: the secret every request must carry (``?token=`` or ``X-Mapkit-Token``)."""
    hosts = {h.lower() for h in allowed_hosts}
    worker = worker or Worker()
    playtests: dict[str, Any] = {}
    computing = threading.Lock()
    page = (STATIC / "index.html").read_text(encoding="utf-8").replace("{{token}}", token)

    def cached(key: tuple, make):
        """``make(revision)`` once per revision and key; one computation at a time, so many
        tabs asking at once wait for one answer instead of each computing it."""
        rev = session.current
        full = (rev.token, *key)
        with session.lock:
            if full in session.cache:
                return session.cache[full]
        with computing:
            with session.lock:
                if full in session.cache:
                    return session.cache[full]
            value = make(rev)
            with session.lock:
                if session.current is rev:
                    session.cache[full] = value
            return value

    def city_or_422(rev):
        if rev.city is None:
            result = rev.draft[0]
            codes = sorted({d.code for d in result.diagnostics})
            why = (
                f"the map has errors that stop it from loading ({', '.join(codes)})"
                if codes
                else "the map has no stations yet"
            )
            raise Refused(422, why, codes=codes)
        return rev.city

    async def index(request: Request) -> Response:
        start_warming()
        return Response(page, media_type="text/html")

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _ASSETS:
            return _error(404, f"no such file: {name}")
        return Response((STATIC / name).read_bytes(), media_type=_ASSETS[name])

    async def get_map(request: Request) -> Response:
        return Json(session.state())

    async def palette(request: Request) -> Response:
        from mapkit.checks.colour import PALETTE

        return Json({"palette": list(PALETTE.values())})

    async def put_map(request: Request) -> Response:
        read = await _read_body(request)
        body = read.value
        if not isinstance(body, dict) or "revision" not in body or "map" not in body:
            raise Refused(400, 'expected {"revision": "<token from GET /api/map>", "map": {...}}')
        if not isinstance(body["map"], dict):
            raise Refused(422, "the map must be a JSON object")
        rev = session.replace(body["map"], str(body["revision"]))
        answer = {"revision": rev.token, "dirty": session.dirty}
        if read.replaced:  # the page takes the map back as the server (and a saved file) has it
            answer.update(map=rev.doc, replaced=read.replaced)
        return Json(answer)

    def diagnostics_of(paper: str, draft: bool):
        from mapkit.checks import report_loaded, validate_source

        def make(rev):
            if not draft:
                return validate_source(rev.text, str(session.path), paper=paper)
            result, gaps = rev.draft
            return report_loaded(result, paper=paper, draft=gaps)

        return cached(("diagnostics", paper, draft), make)

    def sheet_of(paper: str, labels: bool):
        from mapkit.render.svg import sheet_svg

        def make(rev):
            res = sheet_svg(city_or_422(rev), paper=paper, labels=labels)
            return res.svg, _layout_json(res.layout)

        return cached(("sheet", paper, labels), make)

    warming = threading.Event()

    def warm() -> None:
        """Import the checks and the renderer and answer the page's first questions early.

        Started by the first request for the page (or a second after start-up), so that it
        does not hold up the server's start.
        """
        if warming.is_set():
            return
        warming.set()
        with contextlib.suppress(Refused):
            diagnostics_of("a4", True)
            sheet_of("a4", False)

    def start_warming() -> None:
        if not warming.is_set():
            threading.Thread(target=warm, name="studio-warm-up", daemon=True).start()

    async def diagnostics(request: Request) -> Response:
        paper, draft = _paper(request), _flag(request, "draft", True)
        token = session.current.token
        report = await run_in_threadpool(diagnostics_of, paper, draft)
        return Json(
            {
                "revision": token,
                "draft": draft,
                "path": report.path,
                "valid": report.valid,
                "diagnostics": [d.to_dict() for d in report.diagnostics],
            }
        )

    async def sheet(request: Request) -> Response:
        paper, labels = _paper(request), _flag(request, "labels", False)
        token = session.current.token
        svg, layout = await run_in_threadpool(sheet_of, paper, labels)
        headers = {"X-Mapkit-Revision": token, "X-Mapkit-Layout": json.dumps(layout)}
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def intersections(request: Request) -> Response:
        from mapkit.intersections import intersections as count

        token = session.current.token
        data = await run_in_threadpool(
            cached, ("intersections",), lambda rev: count(city_or_422(rev)).to_dict()
        )
        return Json({"revision": token, **data})

    async def status(request: Request) -> Response:
        disk = await run_in_threadpool(session.disk_status)
        return Json(
            {
                "revision": session.current.token,
                "dirty": session.dirty,
                "disk_changed": disk.changed,
                "disk_exists": disk.exists,
            }
        )

    async def disk(request: Request) -> Response:
        return Json(await run_in_threadpool(session.disk_diff))

    async def reload(request: Request) -> Response:
        _empty_object(await _json_body(request), "{}")
        await run_in_threadpool(session.reload)
        return Json(session.state())

    async def keep(request: Request) -> Response:
        _empty_object(await _json_body(request), "{}")
        await run_in_threadpool(session.keep_mine)
        return Json({"revision": session.current.token, "dirty": session.dirty})

    async def in_worker(fn, *args):
        """``fn(*args)`` in the play-test process, awaited without blocking other requests."""
        try:
            return await asyncio.wrap_future(worker.submit(fn, *args))
        except PlaytestStopped:
            raise Refused(503, "the play-test process stopped; run it again") from None

    async def simulate(request: Request) -> Response:
        cfg = _playtest_config(await _json_body(request))
        rev = session.current
        try:
            report = await in_worker(run_report, rev.text, cfg)
        except ValueError as exc:
            raise Refused(422, str(exc)) from None
        playtests["last"] = (rev, report)
        return Json(report, headers={"X-Mapkit-Revision": rev.token})

    async def reference(request: Request) -> Response:
        cfg = _playtest_config(await _json_body(request))
        if cfg not in worker.references:
            worker.references[cfg] = await in_worker(shipped_means, cfg)
        return Json({"cities": worker.references[cfg]})

    async def heatmap(request: Request) -> Response:
        from mapkit.render.heatmap import SIMULATION_HEATMAPS, simulation_heatmap_svg
        from mapkit.sheet import layout

        if "last" not in playtests:
            raise Refused(404, "no play-test has run yet (POST /api/simulate)")
        rev, report = playtests["last"]
        paper = _paper(request)
        field = SIMULATION_HEATMAPS["empty"][0]
        rates = {s["station"]: s[field] for s in report["stations"]}

        def draw():
            svg = simulation_heatmap_svg(rev.city, rates, "empty", paper)
            return svg, _layout_json(layout(rev.city, paper))

        svg, lay = await run_in_threadpool(draw)
        headers = {"X-Mapkit-Revision": rev.token, "X-Mapkit-Layout": json.dumps(lay)}
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def save(request: Request) -> Response:
        body = _empty_object(
            await _json_body(request), '{"overwrite": false} or {"path": "new-city.json"}'
        )
        dest = await run_in_threadpool(
            lambda: session.save(
                overwrite=body.get("overwrite") is True,
                target=body.get("path"),
                revision=body.get("revision"),
            )
        )
        return Json({"path": str(dest), **session.state()})

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return _error(exc.status, exc.message, **exc.extra)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        timer = threading.Timer(1.0, start_warming)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
            worker.close()

    routes = [
        Route("/", index),
        Route("/static/{name}", asset),
        Route("/favicon.ico", favicon),
        Route("/api/map", get_map, methods=["GET"]),
        Route("/api/map", put_map, methods=["PUT"]),
        Route("/api/palette", palette),
        Route("/api/status", status),
        Route("/api/disk", disk),
        Route("/api/reload", reload, methods=["POST"]),
        Route("/api/keep", keep, methods=["POST"]),
        Route("/api/diagnostics", diagnostics),
        Route("/api/sheet.svg", sheet),
        Route("/api/intersections", intersections),
        Route("/api/simulate", simulate, methods=["POST"]),
        Route("/api/reference", reference, methods=["POST"]),
        Route("/api/heatmap.svg", heatmap),
        Route("/api/save", save, methods=["POST"]),
    ]
    from starlette.middleware import Middleware

    app = Starlette(
        routes=routes,
        middleware=[Middleware(Guard, hosts=hosts, token=token)],
        exception_handlers={Refused: refused},
        lifespan=lifespan,
    )
    app.state.session = session
    app.state.worker = worker
    return app


def _layout_json(lay) -> dict[str, Any]:
    """What the page needs to map sheet millimetres to map units and back."""
    return {
        "width": lay.width,
        "height": lay.height,
        "scale": lay.scale,
        "offset": list(lay.offset),
        "station_r": lay.metrics.station_r,
    }


def _playtest_config(body: Any) -> PlaytestConfig:
    try:
        return PlaytestConfig.from_request(body)
    except ValueError as exc:
        raise Refused(400, str(exc)) from None
