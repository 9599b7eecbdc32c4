"""``validate``: run the check layers over map files and collect diagnostics.

Layers: syntax -> schema -> references build the model (any error there stops
the file); topology, geometry and design then all run on the model so a
designer sees every remaining problem at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mapkit.checks.draft import DraftGaps
from mapkit.mapfile import LoadResult, load_source, read_limited
from mapkit.notices import Diagnostic, Severity

__all__ = ["FileReport", "code_filter", "report_loaded", "validate_path", "validate_source"]


@dataclass
class FileReport:
    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity is Severity.WARNING for d in self.diagnostics)

    @property
    def valid(self) -> bool:
        return self.errors == 0

    def codes(self) -> list[str]:
        return [d.code for d in self.diagnostics]


def code_filter(select: Iterable[str] | None, ignore: Iterable[str] | None):
    """A predicate over codes; entries are codes or prefixes (``GEO``, ``DES00``)."""
    sel = [s.strip().upper() for s in select or [] if s.strip()]
    ign = [s.strip().upper() for s in ignore or [] if s.strip()]

    def keep(code: str) -> bool:
        if sel and not any(code.startswith(s) for s in sel):
            return False
        return not any(code.startswith(i) for i in ign)

    return keep


def run_layers(
    result: LoadResult, paper: str = "a4", draft: DraftGaps | None = None
) -> list[Diagnostic]:
    """The topology, geometry and design layers over a loaded map (``draft``: its gaps)."""
    diags = list(result.diagnostics)
    if result.map is None:
        return diags
    from mapkit.checks import design, geometry, topology
    from mapkit.checks.context import CheckContext

    ctx = CheckContext(result, result.map, paper, draft)
    layers = (
        (geometry, design) if draft is not None and draft.no_lines else (topology, geometry, design)
    )
    for layer in layers:
        layer.check(ctx)
    diags.extend(ctx.diagnostics)
    return diags


def _sort_key(d: Diagnostic) -> tuple:
    return (d.line or 0, d.column or 0, d.code)


def validate_source(
    data: bytes | str,
    path: str = "<map>",
    *,
    paper: str = "a4",
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    draft: bool = False,
) -> FileReport:
    """Validate a map given as bytes or text; ``draft``: a half-drawn map (checks.draft)."""
    if draft:
        from mapkit.checks.draft import load_draft

        result, gaps = load_draft(data, path)
    else:
        result, gaps = load_source(data, path), None
    return report_loaded(result, paper=paper, select=select, ignore=ignore, draft=gaps)


def report_loaded(
    result: LoadResult,
    *,
    paper: str = "a4",
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    draft: DraftGaps | None = None,
) -> FileReport:
    """The report ``validate_source`` gives, for a file already loaded (read and parsed once)."""
    keep = code_filter(select, ignore)
    diags = run_layers(result, paper, draft)
    return FileReport(result.path, sorted((d for d in diags if keep(d.code)), key=_sort_key))


def validate_path(
    path: str | Path,
    *,
    paper: str = "a4",
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    draft: bool = False,
) -> FileReport:
    """Validate a map file. OSError propagates: an unreadable file is a usage problem."""
    data = read_limited(path)
    return validate_source(data, str(path), paper=paper, select=select, ignore=ignore, draft=draft)
