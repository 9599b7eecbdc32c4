"""Play-tests in the worker process: a report of the current map, the shipped cities'
means with the same settings, and the heatmap of the last report."""

from __future__ import annotations

import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from mapkit.studio.playtest import run_report, shipped_means
from mapkit.studio.refusal import Refused
from mapkit.studio.state import studio_of
from mapkit.studio.web import Json, json_body, layout_json, paper, playtest_config


async def simulate(request: Request) -> Response:
    """``mapkit simulate --format json`` of the current map; kept for the heatmap."""
    studio = studio_of(request)
    cfg = playtest_config(await json_body(request))
    rev = studio.session.current
    try:
        report = await studio.in_worker(run_report, rev.text, cfg)
    except ValueError as exc:
        raise Refused(422, str(exc)) from None
    studio.last_playtest = (rev, report)
    return Json(report, headers={"X-Mapkit-Revision": rev.token})


async def reference(request: Request) -> Response:
    """The shipped cities measured with the same settings (once per settings)."""
    worker = studio_of(request).worker
    cfg = playtest_config(await json_body(request))
    if cfg not in worker.references:
        worker.references[cfg] = await studio_of(request).in_worker(shipped_means, cfg)
    return Json({"cities": worker.references[cfg]})


async def heatmap(request: Request) -> Response:
    """How often each station stayed empty in the last play-test, drawn on its sheet."""
    from mapkit.render.heatmap import SIMULATION_HEATMAPS, simulation_heatmap_svg
    from mapkit.sheet import layout

    last = studio_of(request).last_playtest
    if last is None:
        raise Refused(404, "no play-test has run yet (POST /api/simulate)")
    rev, report = last
    name = paper(request)
    field = SIMULATION_HEATMAPS["empty"][0]
    rates = {s["station"]: s[field] for s in report["stations"]}

    def draw() -> tuple[str, dict]:
        svg = simulation_heatmap_svg(rev.city, rates, "empty", name)
        return svg, layout_json(layout(rev.city, name))

    svg, lay = await run_in_threadpool(draw)
    headers = {"X-Mapkit-Revision": rev.token, "X-Mapkit-Layout": json.dumps(lay)}
    return Response(svg, media_type="image/svg+xml", headers=headers)


ROUTES = [
    Route("/api/simulate", simulate, methods=["POST"]),
    Route("/api/reference", reference, methods=["POST"]),
    Route("/api/heatmap.svg", heatmap),
]
