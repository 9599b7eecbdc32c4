"""The heavier commands: *Tidy layout*, *Import GTFS…* and the background image to trace
(``mapkit.studio.tools``). Tidy and import answer a map for the page to apply as one edit;
one of them runs at a time, each holding a core for a few seconds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from mapkit.studio import tools
from mapkit.studio.refusal import Refused
from mapkit.studio.session import new_document
from mapkit.studio.state import Studio, studio_of
from mapkit.studio.web import Json, json_body, json_object, paper, read_upload

UPLOADS: dict[str, tuple[int, Callable[[], Refused]]] = {
    "/api/import/gtfs": (tools.MAX_FEED_BYTES, tools.feed_too_large),
    "/api/background": (tools.MAX_IMAGE_BYTES, tools.image_too_large),
}
"""The routes whose body is a file, not a map: their size limit and its refusal (the guard
holds every other body to a map's 1 MiB)."""


async def _one_at_a_time(studio: Studio, fn: Callable[..., Any], *args: Any) -> Any:
    if not studio.busy.acquire(blocking=False):
        raise Refused(429, "a layout or an import is running; try again when it is done")
    try:
        return await run_in_threadpool(fn, *args)
    finally:
        studio.busy.release()


async def tidy(request: Request) -> Response:
    """The current map laid out (``mapkit.layout``), whole or only ``selection``."""
    studio = studio_of(request)
    body = json_object(
        await json_body(request), '{"revision": "r7"} or {"revision": "r7", "selection": ["s1"]}'
    )
    rev = studio.session.current
    if body.get("revision", rev.token) != rev.token:
        raise Refused(409, "the map changed since this revision", revision=rev.token)
    answer = await _one_at_a_time(studio, tools.tidy, rev, body.get("selection"), paper(request))
    return Json({"revision": rev.token, **answer})


async def import_gtfs(request: Request) -> Response:
    """The draft map of the GTFS zip in the body (``mapkit import gtfs``)."""
    studio = studio_of(request)
    options = tools.ImportOptions.from_query(request.query_params)
    limit, refuse = UPLOADS["/api/import/gtfs"]
    data = await read_upload(request, limit, refuse)
    map_id = new_document(studio.session.path)["id"]
    return Json(await _one_at_a_time(studio, tools.import_gtfs, data, options, map_id))


async def put_background(request: Request) -> Response:
    """Keep the image in the body (PNG, JPEG, GIF or WebP) as the background to trace."""
    studio = studio_of(request)
    limit, refuse = UPLOADS["/api/background"]
    data = await read_upload(request, limit, refuse)
    kind = tools.image_type(data)
    n = studio.background[0] + 1 if studio.background else 1
    studio.background = (n, data, kind)
    return Json({"background": n, "type": kind, "bytes": len(data)})


async def get_background(request: Request) -> Response:
    """The background image, as the type its bytes are (``?n=``: only if it is still that one)."""
    bg = studio_of(request).background
    if bg is None:
        raise Refused(404, "no background image (PUT /api/background)")
    if request.query_params.get("n", str(bg[0])) != str(bg[0]):
        raise Refused(404, f"background {request.query_params['n']} was replaced by {bg[0]}")
    return Response(bg[1], media_type=bg[2], headers={"X-Mapkit-Background": str(bg[0])})


async def delete_background(request: Request) -> Response:
    """Forget the background image."""
    studio = studio_of(request)
    studio.background = None
    return Json({"background": None})


ROUTES = [
    Route("/api/layout", tidy, methods=["POST"]),
    Route("/api/import/gtfs", import_gtfs, methods=["POST"]),
    Route("/api/background", put_background, methods=["PUT"]),
    Route("/api/background", get_background, methods=["GET"]),
    Route("/api/background", delete_background, methods=["DELETE"]),
]
