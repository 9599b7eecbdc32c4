"""What the studio's routes share: the session, the play-test worker and its last report,
and the answers computed once per revision.

The routes (``mapkit.studio.routes``) find it as ``request.app.state.studio``; a test can
build one without a server and ask it what a route would answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from mapkit.studio.playtest import PlaytestStopped, Worker
from mapkit.studio.refusal import Refused
from mapkit.studio.session import Revision, Session
from mapkit.studio.web import layout_json

if TYPE_CHECKING:
    from starlette.requests import Request

    from mapkit.checks import FileReport
    from mapkit.mapfile.model import CityMap

STATIC = Path(__file__).resolve().parent / "static"
T = TypeVar("T")


class Studio:
    """One studio server's state: ``session`` (the map), ``worker`` (the play-test process),
    ``page`` (index.html with the session token), ``last_playtest`` (the revision and report
    the heatmap draws), ``background`` (the image to trace: its number, bytes and type, in
    memory only), ``busy`` (held by the one tidy or import that may run at a time)."""

    def __init__(self, session: Session, *, token: str, worker: Worker | None = None) -> None:
        self.session = session
        self.worker = worker or Worker()
        self.page = (STATIC / "index.html").read_text(encoding="utf-8").replace("{{token}}", token)
        self.last_playtest: tuple[Revision, dict[str, Any]] | None = None
        self.background: tuple[int, bytes, str] | None = None
        self.busy = threading.Lock()
        self._computing = threading.Lock()
        self._warming = threading.Event()

    def cached(self, key: tuple, make: Callable[[Revision], T]) -> T:
        """``make(revision)`` once per revision and key; one computation at a time, so many
        tabs asking at once wait for one answer instead of each computing it."""
        session = self.session
        rev = session.current
        full = (rev.token, *key)
        with session.lock:
            if full in session.cache:
                return session.cache[full]
        with self._computing:
            with session.lock:
                if full in session.cache:
                    return session.cache[full]
            value = make(rev)
            with session.lock:
                if session.current is rev:
                    session.cache[full] = value
            return value

    def diagnostics(self, paper: str, draft: bool) -> FileReport:
        """What ``mapkit validate`` reports for the current map (``draft``: as a map still being
        drawn, gaps are not errors)."""
        from mapkit.checks import report_loaded, validate_source

        def make(rev: Revision) -> FileReport:
            if not draft:
                return validate_source(rev.text, str(self.session.path), paper=paper)
            result, gaps = rev.draft
            return report_loaded(result, paper=paper, draft=gaps)

        return self.cached(("diagnostics", paper, draft), make)

    def sheet(self, paper: str, labels: bool) -> tuple[str, dict[str, Any]]:
        """The current map's sheet as ``mapkit render`` draws it, and its layout for the page."""
        from mapkit.render.svg import sheet_svg

        def make(rev: Revision) -> tuple[str, dict[str, Any]]:
            res = sheet_svg(city_or_422(rev), paper=paper, labels=labels)
            return res.svg, layout_json(res.layout)

        return self.cached(("sheet", paper, labels), make)

    def intersections(self) -> dict[str, Any]:
        """The current map's intersections (``mapkit.intersections``) as JSON."""
        from mapkit.intersections import intersections

        def make(rev: Revision) -> dict[str, Any]:
            return intersections(city_or_422(rev)).to_dict()

        return self.cached(("intersections",), make)

    def warm(self) -> None:
        """Import the checks and the renderer and answer the page's first questions early.

        Started by the first request for the page (or a second after start-up), so that it
        does not hold up the server's start.
        """
        if self._warming.is_set():
            return
        self._warming.set()
        with contextlib.suppress(Refused):
            self.diagnostics("a4", True)
            self.sheet("a4", False)

    def start_warming(self) -> None:
        """``warm`` in a thread of its own, once."""
        if not self._warming.is_set():
            threading.Thread(target=self.warm, name="studio-warm-up", daemon=True).start()

    async def in_worker(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the play-test process, awaited without blocking other requests."""
        try:
            return await asyncio.wrap_future(self.worker.submit(fn, *args))
        except PlaytestStopped:
            raise Refused(503, "the play-test process stopped; run it again") from None


def city_or_422(rev: Revision) -> CityMap:
    """The revision's city; Refused (422, with the codes) when the map cannot load yet."""
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


def studio_of(request: Request) -> Studio:
    """The studio a request was sent to."""
    return request.app.state.studio
