"""Draft maps: check what a half-drawn map already allows, and nothing it still lacks.

A draft may have no lines yet (and fewer than two stations), and its lines may
lack ``windows`` or ``points``. Everything else is checked as usual: syntax,
schema, references, spacing and print area, lines through stations, colours.

The draft is completed with placeholders so that the model, the sheet layout and
the renderer can run unchanged: a line without windows gets one window (the
smallest wagon, so a wagon check never fires only because of the placeholder) and
points 0/0. The checks that would only judge a placeholder (windows needed to
complete a line, bonuses) skip those lines, and with no lines at all the topology
layer (stations on no line, split networks) is skipped.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from mapkit.mapfile import LoadResult, load_source, model_layers
from mapkit.notices import Diagnostic

PLACEHOLDER_WINDOWS = 1
PLACEHOLDER_POINTS = {"first": 0, "others": 0}


@dataclass(frozen=True)
class DraftGaps:
    """What a draft still lacks: the checks that would judge a placeholder skip it."""

    no_lines: bool = False
    missing_windows: frozenset[str] = field(default_factory=frozenset)
    missing_points: frozenset[str] = field(default_factory=frozenset)

    def complete(self, line_id: str) -> bool:
        return line_id not in self.missing_windows and line_id not in self.missing_points


def complete_draft(doc: Any) -> tuple[Any, DraftGaps]:
    """A copy of ``doc`` with placeholders where a draft may leave gaps, and the gaps."""
    if not isinstance(doc, dict):
        return doc, DraftGaps()
    out = copy.deepcopy(doc)
    lines = out.setdefault("lines", [])
    no_windows, no_points = set(), set()
    if isinstance(lines, list):
        for ln in lines:
            if not isinstance(ln, dict):
                continue
            lid = ln.get("id")
            if "windows" not in ln:
                ln["windows"] = PLACEHOLDER_WINDOWS
                no_windows.add(lid)
            if "points" not in ln:
                ln["points"] = dict(PLACEHOLDER_POINTS)
                no_points.add(lid)
    no_lines = not (isinstance(lines, list) and lines)
    return out, DraftGaps(no_lines, frozenset(no_windows), frozenset(no_points))


def _allowed(d: Diagnostic) -> bool:
    """Schema findings a draft may have: too few stations, no lines yet."""
    return d.code == "SCH005" and d.pointer in ("/stations", "/lines")


def load_draft(data: bytes | str, path: str = "<map>") -> tuple[LoadResult, DraftGaps]:
    """Like ``load_source``, for a draft: the model is built from the completed draft.

    Diagnostics keep the draft's own line and column; a map with no stations has no
    model (there is nothing to place on a sheet).
    """
    result = load_source(data, path)
    if result.doc is None:
        return result, DraftGaps()
    doc, gaps = complete_draft(result.doc)
    if result.map is None:
        model_layers(result, doc, allowed=_allowed)
    return result, gaps
