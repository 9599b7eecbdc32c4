"""What every semantic check layer receives: the model, its source, the sheet."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from mapkit.checks.draft import DraftGaps
from mapkit.mapfile import CityMap, LoadResult
from mapkit.notices import Diagnostic, make
from mapkit.sheet import SheetLayout, layout


@dataclass
class CheckContext:
    result: LoadResult
    city: CityMap
    paper: str = "a4"
    draft: DraftGaps | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @cached_property
    def sheet(self) -> SheetLayout:
        return layout(self.city, self.paper)

    @property
    def doc(self) -> Any:
        return self.result.doc

    def emit(self, code: str, message: str, pointer: str = "") -> Diagnostic:
        """Record a diagnostic located at ``pointer`` (or its nearest ancestor)."""
        line, col = self.result.positions.locate(pointer)
        diag = make(code, message, pointer, line, col)
        self.diagnostics.append(diag)
        return diag

    def station_ptr(self, station_id: str) -> str:
        return self.city.station_pointer(station_id)

    def line_ptr(self, line_id: str, *rest: str | int) -> str:
        return "/".join([self.city.line_pointer(line_id), *map(str, rest)])
