"""The studio's HTTP API (docs/studio.md) as a Starlette application.

Every route is a thin call into the library: ``mapkit.checks`` for diagnostics,
``mapkit.intersections``, ``mapkit.render`` for the sheet and the heatmap,
``mapkit.simulate`` (in a worker process) for play-tests. Requests must name this
server in ``Host`` (and ``Origin``, when sent) and writes must be JSON, so that
another web site can neither read the map through DNS rebinding nor post to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from mapkit.studio.playtest import PlaytestConfig, Worker, run_report, shipped_means
from mapkit.studio.session import SaveRefused, Session, StaleRevision

STATIC = Path(__file__).resolve().parent / "static"
_ASSETS = {"studio.js": "text/javascript", "studio.css": "text/css"}


class ApiError(Exception):
    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


def _no_constant(name: str) -> Any:
    raise ApiError(400, f"request body is not valid JSON: {name} is not a number JSON allows")


async def _json_body(request: Request) -> Any:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ApiError(415, "send the request body as JSON (Content-Type: application/json)")
    raw = await request.body()
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise ApiError(400, "request body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ApiError(
            400,
            f"request body is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
        ) from None


def _paper(request: Request) -> str:
    from mapkit.sheet import PAPERS

    paper = request.query_params.get("paper", "a4")
    if paper not in PAPERS:
        raise ApiError(400, f"unknown paper {paper!r}; use {' or '.join(PAPERS)}")
    return paper


def _flag(request: Request, name: str, default: bool) -> bool:
    value = request.query_params.get(name)
    if value is None:
        return default
    return value.lower() in ("1", "true", "yes", "on")


def create_app(session: Session, allowed_hosts: Iterable[str]) -> Starlette:
    """The studio for ``session``; ``allowed_hosts``: the ``host:port`` names of this server."""
    hosts = {h.lower() for h in allowed_hosts}
    origins = {f"http://{h}" for h in hosts}
    worker = Worker()
    playtests: dict[str, Any] = {}

    def cached(key: tuple, make):
        rev = session.current
        full = (rev.token, *key)
        with session.lock:
            if full in session.cache:
                return session.cache[full]
        value = make(rev)
        with session.lock:
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
            raise ApiError(422, why, codes=codes)
        return rev.city

    async def index(request: Request) -> Response:
        start_warming()
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _ASSETS:
            return _error(404, f"no such file: {name}")
        return FileResponse(STATIC / name, media_type=_ASSETS[name])

    async def get_map(request: Request) -> Response:
        return JSONResponse(session.state())

    async def palette(request: Request) -> Response:
        from mapkit.checks.colour import PALETTE

        return JSONResponse({"palette": list(PALETTE.values())})

    async def put_map(request: Request) -> Response:
        body = await _json_body(request)
        if not isinstance(body, dict) or "revision" not in body or "map" not in body:
            raise ApiError(400, 'expected {"revision": "<token from GET /api/map>", "map": {...}}')
        if not isinstance(body["map"], dict):
            raise ApiError(422, "the map must be a JSON object")
        try:
            rev = session.replace(body["map"], str(body["revision"]))
        except StaleRevision:
            raise ApiError(
                409,
                "the map changed since this revision; reload it",
                revision=session.current.token,
            ) from None
        return JSONResponse({"revision": rev.token, "dirty": session.dirty})

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
        with contextlib.suppress(ApiError):
            diagnostics_of("a4", True)
            sheet_of("a4", False)

    def start_warming() -> None:
        if not warming.is_set():
            threading.Thread(target=warm, name="studio-warm-up", daemon=True).start()

    async def diagnostics(request: Request) -> Response:
        paper, draft = _paper(request), _flag(request, "draft", True)
        report = diagnostics_of(paper, draft)
        return JSONResponse(
            {
                "revision": session.current.token,
                "draft": draft,
                "path": report.path,
                "valid": report.valid,
                "diagnostics": [d.to_dict() for d in report.diagnostics],
            }
        )

    async def sheet(request: Request) -> Response:
        paper, labels = _paper(request), _flag(request, "labels", False)
        svg, layout = sheet_of(paper, labels)
        headers = {
            "X-Mapkit-Revision": session.current.token,
            "X-Mapkit-Layout": json.dumps(layout),
            "Cache-Control": "no-store",
        }
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def intersections(request: Request) -> Response:
        from mapkit.intersections import intersections as count

        data = cached(("intersections",), lambda rev: count(city_or_422(rev)).to_dict())
        return JSONResponse({"revision": session.current.token, **data})

    async def in_worker(fn, *args):
        """``fn(*args)`` in the play-test process, awaited without blocking other requests."""
        from concurrent.futures.process import BrokenProcessPool

        try:
            return await asyncio.wrap_future(worker.submit(fn, *args))
        except BrokenProcessPool:
            worker.close()
            raise ApiError(500, "the play-test process stopped; run it again") from None

    async def simulate(request: Request) -> Response:
        cfg = _playtest_config(await _json_body(request))
        rev = session.current
        try:
            report = await in_worker(run_report, rev.text, cfg)
        except ValueError as exc:
            raise ApiError(422, str(exc)) from None
        playtests["last"] = (rev, report)
        return JSONResponse(report, headers={"X-Mapkit-Revision": rev.token})

    async def reference(request: Request) -> Response:
        cfg = _playtest_config(await _json_body(request))
        if cfg not in worker.references:
            worker.references[cfg] = await in_worker(shipped_means, cfg)
        return JSONResponse({"cities": worker.references[cfg]})

    async def heatmap(request: Request) -> Response:
        from mapkit.render.heatmap import SIMULATION_HEATMAPS, simulation_heatmap_svg
        from mapkit.sheet import layout

        if "last" not in playtests:
            raise ApiError(404, "no play-test has run yet (POST /api/simulate)")
        rev, report = playtests["last"]
        paper = _paper(request)
        field = SIMULATION_HEATMAPS["empty"][0]
        rates = {s["station"]: s[field] for s in report["stations"]}
        svg = simulation_heatmap_svg(rev.city, rates, "empty", paper)
        headers = {
            "X-Mapkit-Revision": rev.token,
            "X-Mapkit-Layout": json.dumps(_layout_json(layout(rev.city, paper))),
            "Cache-Control": "no-store",
        }
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def save(request: Request) -> Response:
        body = await _json_body(request)
        if not isinstance(body, dict):
            raise ApiError(400, 'expected {"overwrite": false} or {"path": "new-city.json"}')
        if "revision" in body and body["revision"] != session.current.token:
            raise ApiError(
                409, "the map changed since this revision", revision=session.current.token
            )
        target = body.get("path")
        if target is not None and (not isinstance(target, str) or not target.strip()):
            raise ApiError(400, "path must be a file name ending in .json")
        try:
            dest = session.save(overwrite=bool(body.get("overwrite")), target=target)
        except SaveRefused as exc:
            raise ApiError(409 if exc.conflict else 403, str(exc), conflict=exc.conflict) from None
        return JSONResponse({"path": str(dest), **session.state()})

    async def guard(request: Request, call_next):
        host = request.headers.get("host", "").lower()
        if host not in hosts:
            return _error(403, f"refused: this server answers only as {' or '.join(sorted(hosts))}")
        origin = request.headers.get("origin")
        if origin is not None and origin.lower() not in origins:
            return _error(403, f"refused: requests from {origin} are not allowed")
        site = request.headers.get("sec-fetch-site")
        if site in ("cross-site", "same-site"):
            return _error(403, "refused: requests from other sites are not allowed")
        return await call_next(request)

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return _error(exc.status, exc.message, **exc.extra)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        timer = threading.Timer(1.0, start_warming)
        timer.daemon = True
        timer.start()
        yield
        timer.cancel()
        worker.close()

    routes = [
        Route("/", index),
        Route("/static/{name}", asset),
        Route("/favicon.ico", favicon),
        Route("/api/map", get_map, methods=["GET"]),
        Route("/api/map", put_map, methods=["PUT"]),
        Route("/api/palette", palette),
        Route("/api/diagnostics", diagnostics),
        Route("/api/sheet.svg", sheet),
        Route("/api/intersections", intersections),
        Route("/api/simulate", simulate, methods=["POST"]),
        Route("/api/reference", reference, methods=["POST"]),
        Route("/api/heatmap.svg", heatmap),
        Route("/api/save", save, methods=["POST"]),
    ]
    from starlette.middleware import Middleware
    from starlette.middleware.base import BaseHTTPMiddleware

    app = Starlette(
        routes=routes,
        middleware=[Middleware(BaseHTTPMiddleware, dispatch=guard)],
        exception_handlers={ApiError: api_error},
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
        raise ApiError(400, str(exc)) from None
