"""The page (index.html with the session token) and its script and style files."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from mapkit.studio.state import STATIC, studio_of
from mapkit.studio.web import error

ASSETS = {"studio.js": "text/javascript", "studio.css": "text/css"}
"""The files under /static/ and their content types: nothing else in the folder is served."""


async def index(request: Request) -> Response:
    """The page; its first request starts warming the checks and the renderer."""
    studio = studio_of(request)
    studio.start_warming()
    return Response(studio.page, media_type="text/html")


async def asset(request: Request) -> Response:
    """One of the page's ASSETS; 404 for any other name."""
    name = request.path_params["name"]
    if name not in ASSETS:
        return error(404, f"no such file: {name}")
    return Response((STATIC / name).read_bytes(), media_type=ASSETS[name])


async def favicon(request: Request) -> Response:
    """No icon (204), so the browser stops asking and the log stays quiet."""
    return Response(status_code=204)


ROUTES = [
    Route("/", index),
    Route("/static/{name}", asset),
    Route("/favicon.ico", favicon),
]
