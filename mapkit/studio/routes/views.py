"""What the library says of the current map: diagnostics, the sheet, intersections."""

from __future__ import annotations

import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from mapkit.studio.state import studio_of
from mapkit.studio.web import Json, flag, paper


async def diagnostics(request: Request) -> Response:
    """``mapkit validate --format json`` of the current map (``draft``, default yes: gaps of a
    map still being drawn are not errors)."""
    studio = studio_of(request)
    name, draft = paper(request), flag(request, "draft", True)
    token = studio.session.current.token
    report = await run_in_threadpool(studio.diagnostics, name, draft)
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
    """The sheet as ``mapkit render`` draws it, its layout in the X-Mapkit-Layout header."""
    studio = studio_of(request)
    name, labels = paper(request), flag(request, "labels", False)
    token = studio.session.current.token
    svg, layout = await run_in_threadpool(studio.sheet, name, labels)
    headers = {"X-Mapkit-Revision": token, "X-Mapkit-Layout": json.dumps(layout)}
    return Response(svg, media_type="image/svg+xml", headers=headers)


async def intersections(request: Request) -> Response:
    """``mapkit.intersections`` of the current map."""
    studio = studio_of(request)
    token = studio.session.current.token
    data = await run_in_threadpool(studio.intersections)
    return Json({"revision": token, **data})


ROUTES = [
    Route("/api/diagnostics", diagnostics),
    Route("/api/sheet.svg", sheet),
    Route("/api/intersections", intersections),
]
