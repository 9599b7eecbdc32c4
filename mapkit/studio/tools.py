"""The studio's heavier commands: *Tidy layout* (``mapkit.layout``), *Import GTFS…*
(``mapkit.importers``) and the background image to trace.

Tidy and import answer a map document and change nothing on the server: the page applies
it as one edit, so that one undo takes it back. Uploads are untrusted: a feed is read from
memory (never written anywhere) within ``MAX_FEED_BYTES``, through the importer's own
bounds on every member (zip bombs, lying headers); an image must be a PNG, JPEG, GIF or
WebP by its first bytes (never SVG, which can hold script), within ``MAX_IMAGE_BYTES``,
and is kept in memory only and served back as that type, under a policy that runs nothing.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from mapkit.studio.refusal import Refused
from mapkit.studio.session import Revision

MAX_FEED_BYTES = 64 << 20
"""The largest GTFS zip the studio takes (a metro's feed is a few MiB; LA Metro Rail's 0.7)."""
MAX_IMAGE_BYTES = 16 << 20
"""The largest background image (a 300 dpi scan of an A4 map as PNG is about 10 MiB)."""
TIDY_SECONDS = 10.0
"""The time limit of *Tidy layout*, the command's default: a map tidied in the studio is the
one `mapkit layout` draws (its polish takes up to ~6 s on the densest shipped city)."""

_IMAGE_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


def feed_too_large() -> Refused:
    """The refusal of a feed over ``MAX_FEED_BYTES`` (by its length or as it streams in)."""
    return Refused(
        413, f"the feed is over {MAX_FEED_BYTES >> 20} MiB; import it with mapkit import gtfs"
    )


def image_too_large() -> Refused:
    """The refusal of an image over ``MAX_IMAGE_BYTES``."""
    return Refused(413, f"the image is over {MAX_IMAGE_BYTES >> 20} MiB; scale it down")


def tidy(rev: Revision, selection: list[str] | None, paper: str) -> dict[str, Any]:
    """The map of ``rev`` laid out on the eight directions: all of it, or only the stations of
    ``selection`` with every other one pinned. ``{"map", "notes", "moved"}``; Refused (4xx)
    when there is nothing to lay out or the layout cannot be made."""
    from mapkit.checks.draft import complete_draft
    from mapkit.layout import LayoutConfig, LayoutError, WagonError, layout
    from mapkit.studio.state import city_or_422

    city = city_or_422(rev)
    if not city.lines:
        raise Refused(422, "nothing to tidy yet: the layout follows the lines, so draw one first")
    ids = [s.id for s in city.stations]
    pinned: frozenset[str] = frozenset()
    if selection is not None:
        if not isinstance(selection, list) or not all(isinstance(s, str) for s in selection):
            raise Refused(400, 'expected "selection": a list of station ids')
        unknown = sorted(set(selection) - set(ids))
        if unknown:
            raise Refused(400, f"no station '{unknown[0]}' in the map (selection)")
        if not selection:
            raise Refused(400, "the selection holds no station; select some, or tidy the map")
        pinned = frozenset(ids) - set(selection)
    draft, gaps = complete_draft(rev.doc)
    try:
        res = layout(city, LayoutConfig(paper=paper, pinned=pinned, time_limit=TIDY_SECONDS), draft)
    except (LayoutError, WagonError) as exc:
        raise Refused(422, f"cannot tidy the layout: {exc}") from None
    doc = res.doc
    for ln in doc["lines"]:  # a draft stays a draft: placeholders do not become choices
        if ln["id"] in gaps.missing_windows:
            del ln["windows"]
        if ln["id"] in gaps.missing_points:
            del ln["points"]
    before = {s.id: (s.x, s.y) for s in city.stations}
    moved = sum((s["x"], s["y"]) != before[s["id"]] for s in doc["stations"])
    return {"map": doc, "notes": list(res.report.notes), "moved": moved}


@dataclass(frozen=True)
class ImportOptions:
    """What *Import GTFS…* asks for, from the request's query: as ``mapkit import gtfs``.
    ``None``: what the query leaves out, which takes the importer's own default."""

    max_stations: int | None = None
    max_lines: int | None = None
    route_types: str | None = None
    layout: bool | None = None
    paper: str | None = None
    feed_name: str | None = None
    """The uploaded file's name, for the importer's messages and the map's description."""

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> ImportOptions:
        """The options in a query; Refused (400) naming the one that is not a number."""
        numbers = {}
        for key in ("max_stations", "max_lines"):
            text = query.get(key)
            if text is None:
                continue
            if not text.isdigit() or len(text) > 6:
                raise Refused(400, f"{key} must be a whole number, not {text[:20]!r}")
            numbers[key] = int(text)
        layout = query.get("layout")
        kinds = query.get("route_types")
        name = "".join(c for c in PurePath(query.get("name", "")).name if c.isprintable())
        return cls(
            **numbers,
            route_types=kinds[:200] if kinds else None,
            layout=None if layout is None else layout.lower() in ("1", "true", "yes", "on"),
            paper=query.get("paper"),
            feed_name=name[:100] or None,
        )


def import_gtfs(data: bytes, options: ImportOptions, map_id: str | None) -> dict[str, Any]:
    """The draft map of a GTFS feed given as bytes (as ``mapkit import gtfs`` makes it):
    ``{"map", "notes", "stations", "lines", "errors", "warnings"}``. Refused: 413 too large,
    415 not a zip, 400 a bad option, 422 a feed that cannot be imported (the importer's reason)."""
    from mapkit.importers import ImportConfig, ImportFailure, Selection, network_to_map, read_gtfs
    from mapkit.importers.gtfs import route_types

    if len(data) > MAX_FEED_BYTES:
        raise feed_too_large()
    if not data.startswith(b"PK"):
        raise Refused(415, "not a GTFS feed: a feed is a zip file (stops.txt, routes.txt, ...)")
    try:
        given = {
            key: getattr(options, key)
            for key in ("max_stations", "max_lines", "layout", "paper")
            if getattr(options, key) is not None
        }
        cfg = ImportConfig(**given, map_id=map_id)
        kinds = options.route_types
        selection = Selection(route_types=route_types(kinds)) if kinds else Selection()
    except ImportFailure as exc:
        raise Refused(400, str(exc).replace("--max-", "max ")) from None
    try:
        feed = io.BytesIO(data)
        feed.name = options.feed_name or ""
        result = network_to_map(read_gtfs(feed, selection), cfg)
    except ImportFailure as exc:
        status = 422 if exc.exit_code == 1 else 400
        raise Refused(status, f"cannot import the feed: {exc}") from None
    errors, warnings = result.problems
    return {
        "map": result.doc,
        "notes": list(result.notes),
        "stations": result.stations,
        "lines": result.lines,
        "errors": errors,
        "warnings": warnings,
    }


def image_type(data: bytes) -> str:
    """The media type of a background image by its first bytes; Refused (413, 415) else."""
    if len(data) > MAX_IMAGE_BYTES:
        raise image_too_large()
    for magic, kind in _IMAGE_MAGIC:
        if data.startswith(magic):
            return kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    raise Refused(415, "a background must be a PNG, JPEG, GIF or WebP image (not SVG or other)")
