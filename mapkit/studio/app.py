"""The studio's HTTP API (docs/studio.md) as a Starlette application.

The routes are ``mapkit.studio.routes`` (thin calls into the library through the shared
``mapkit.studio.state.Studio``); ``mapkit.studio.guard.Guard`` stands in front of every one
(session token, Host, Origin, size, security headers). The checks and the renderer run in
threads, so a small request never waits behind a large map; play-tests run in a worker
process (``mapkit.studio.playtest``).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncIterator, Iterable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response

from mapkit.studio.guard import Guard
from mapkit.studio.playtest import Worker
from mapkit.studio.refusal import Refused
from mapkit.studio.routes import ROUTES
from mapkit.studio.session import Session
from mapkit.studio.state import Studio
from mapkit.studio.web import error


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    return error(exc.status, exc.message, **exc.extra)


def create_app(
    session: Session, allowed_hosts: Iterable[str], *, token: str, worker: Worker | None = None
) -> Starlette:
    """The studio for ``session``; ``allowed_hosts``: the ``host:port`` names of this server;
    ``token``: the secret every request must carry (``?token=`` or ``X-Mapkit-Token``)."""
    studio = Studio(session, token=token, worker=worker)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        timer = threading.Timer(1.0, studio.start_warming)  # warm up a second after start-up
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
            studio.worker.close()

    hosts = {h.lower() for h in allowed_hosts}
    app = Starlette(
        routes=ROUTES,
        middleware=[Middleware(Guard, hosts=hosts, token=token)],
        exception_handlers={Refused: _refused},
        lifespan=lifespan,
    )
    app.state.studio = studio
    return app
