"""The map being edited: read it, replace it, compare it with the file on disk, save it."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from mapkit.studio.refusal import Refused
from mapkit.studio.state import studio_of
from mapkit.studio.web import Json, json_body, json_object, read_body


async def get_map(request: Request) -> Response:
    """The map, its revision token and the file's state (``Session.state``)."""
    return Json(studio_of(request).session.state())


async def put_map(request: Request) -> Response:
    """Replace the session's map (not the file); the revision sent must be the current one."""
    session = studio_of(request).session
    read = await read_body(request)
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


async def palette(request: Request) -> Response:
    """The recommended line colours of the rules, in order, for new lines."""
    from mapkit.checks.colour import PALETTE

    return Json({"palette": list(PALETTE.values())})


async def rulesets(request: Request) -> Response:
    """The published rulesets (the map inspector's choice), the all-lines bonus's conditions,
    and what a branching line may have: how many branches (the map schema's limit) and how it
    pays (``branch_scoring``)."""
    from mapkit.mapfile.model import ALL_LINES_CONDITIONS, BRANCH_SCORING
    from mapkit.mapfile.schema import load_schema
    from mapkit.rulesets import DEFAULT_RULESET, RULESETS

    branches = load_schema("map")["definitions"]["line"]["properties"]["branches"]
    return Json(
        {
            "rulesets": [{"id": r.id, "name": r.name} for r in RULESETS.values()],
            "default": DEFAULT_RULESET,
            "conditions": list(ALL_LINES_CONDITIONS),
            "max_branches": branches["maxItems"],
            "branch_scoring": list(BRANCH_SCORING),
        }
    )


async def status(request: Request) -> Response:
    """Whether the map has unsaved changes and whether the file changed on disk."""
    session = studio_of(request).session
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
    """How the file on disk differs from the map (``Session.disk_diff``)."""
    return Json(await run_in_threadpool(studio_of(request).session.disk_diff))


async def reload(request: Request) -> Response:
    """Take the file on disk as the map, dropping unsaved changes."""
    session = studio_of(request).session
    json_object(await json_body(request), "{}")
    await run_in_threadpool(session.reload)
    return Json(session.state())


async def keep(request: Request) -> Response:
    """Keep the map as it is although the file changed on disk."""
    session = studio_of(request).session
    json_object(await json_body(request), "{}")
    await run_in_threadpool(session.keep_mine)
    return Json({"revision": session.current.token, "dirty": session.dirty})


async def save(request: Request) -> Response:
    """Write the map to its file, or ("save as") to ``path`` inside the root folder."""
    session = studio_of(request).session
    body = json_object(
        await json_body(request), '{"overwrite": false} or {"path": "new-city.json"}'
    )
    dest = await run_in_threadpool(
        lambda: session.save(
            overwrite=body.get("overwrite") is True,
            target=body.get("path"),
            revision=body.get("revision"),
        )
    )
    return Json({"path": str(dest), **session.state()})


ROUTES = [
    Route("/api/map", get_map, methods=["GET"]),
    Route("/api/map", put_map, methods=["PUT"]),
    Route("/api/palette", palette),
    Route("/api/rulesets", rulesets),
    Route("/api/status", status),
    Route("/api/disk", disk),
    Route("/api/reload", reload, methods=["POST"]),
    Route("/api/keep", keep, methods=["POST"]),
    Route("/api/save", save, methods=["POST"]),
]
