"""The studio's HTTP API (docs/studio.md), one module per part of the page.

``page``: the page and its files; ``edit``: the map being edited (read, replace, the file
on disk, save); ``views``: what the library says of the current map (diagnostics, the
sheet, intersections); ``playtests``: simulations and the heatmap; ``tools``: *Tidy
layout*, *Import GTFS…* and the background image. Each route is a thin
call into the library through ``mapkit.studio.state.Studio``; a new route goes into the
``ROUTES`` of its module.
"""

from __future__ import annotations

from starlette.routing import Route

from mapkit.studio.routes import edit, page, playtests, tools, views

ROUTES: list[Route] = [*page.ROUTES, *edit.ROUTES, *views.ROUTES, *playtests.ROUTES, *tools.ROUTES]
