"""Output formats: one table of which report is written in which format, and by what.

Every command that prints a report (``--format``) takes its choices from ``WRITERS`` and
writes through ``write``, so a report gains a format by one line here and one writer in its
own module: the command's choices, its help and the ``-o`` suffix check follow. The writers
are named as ``module:attribute`` and imported only when used, so that ``mapkit --help``
imports no report module.
"""

from __future__ import annotations

import importlib
from enum import StrEnum
from operator import attrgetter
from pathlib import Path
from typing import Any


class Format(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"
    sarif = "sarif"
    html = "html"


SUFFIXES = {
    ".txt": Format.text,
    ".json": Format.json,
    ".csv": Format.csv,
    ".sarif": Format.sarif,
    ".html": Format.html,
    ".htm": Format.html,
}
"""File suffixes that name a format: ``-o x.json`` with ``--format text`` is refused."""

DRAWINGS = {".svg": "svg", ".pdf": "pdf", ".png": "png"}
"""The file formats of a drawing (a sheet, a heatmap), by the suffix that names them."""

WRITERS: dict[str, dict[Format, str]] = {
    "validate": {
        Format.text: "mapkit.checks.report:to_text",
        Format.json: "mapkit.checks.report:to_json",
        Format.sarif: "mapkit.checks.report:to_sarif",
    },
    "intersections": {
        Format.text: "mapkit.intersections:to_text",
        Format.json: "mapkit.intersections:to_json",
        Format.csv: "mapkit.intersections:to_csv",
    },
    "simulate": {
        Format.text: "mapkit.simulate.report:to_text",
        Format.json: "mapkit.simulate.report:to_json",
    },
    "report": {
        Format.text: "mapkit.design.report:DesignReport.to_text",
        Format.json: "mapkit.design.report:DesignReport.to_json",
        Format.html: "mapkit.design.html:to_html",
    },
    "compare": {
        Format.text: "mapkit.design.compare:Comparison.to_text",
        Format.json: "mapkit.design.compare:Comparison.to_json",
    },
    "layout": {
        Format.text: "mapkit.layout.report:LayoutReport.to_text",
        Format.json: "mapkit.layout.report:LayoutReport.to_json",
    },
}
"""For each kind of report, its formats (text first: the default) and the function of the
report that writes each."""


def choices(kind: str) -> type[StrEnum]:
    """The formats of ``kind`` as an enumeration, for a command's ``--format`` option."""
    names = [f.value for f in WRITERS[kind]]
    return StrEnum(f"{kind.title()}Format", {n: n for n in names})  # type: ignore[return-value]


def writer(kind: str, fmt: str) -> Any:
    """The function that writes a report of ``kind`` in ``fmt`` (KeyError: no such format)."""
    module, attribute = WRITERS[kind][Format(fmt)].split(":")
    return attrgetter(attribute)(importlib.import_module(module))


def write(kind: str, report: Any, fmt: str, **text_options: Any) -> str:
    """``report`` (of ``kind``) in ``fmt``; ``text_options`` (colour, strictness) go to the
    text writer only: the machine formats have none."""
    options = text_options if fmt == Format.text else {}
    return writer(kind, fmt)(report, **options)


def suffix_conflict(path: Path, fmt: str) -> str | None:
    """Why writing ``fmt`` to ``path`` is refused (its suffix names another format), or None."""
    named = SUFFIXES.get(path.suffix.lower())
    if named is None or named == fmt:
        return None
    return f"-o {path} names a {named.value} file but the format is {fmt}"
