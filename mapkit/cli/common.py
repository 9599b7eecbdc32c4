"""Small helpers shared by the CLI commands: map arguments and failing cleanly."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import NoReturn

import typer


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


class Variant(StrEnum):
    standard = "standard"
    special = "special"


class TextOrJson(StrEnum):
    text = "text"
    json = "json"


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``mapkit: message`` to stderr and exit with ``code`` (1 data, 2 usage)."""
    typer.echo(f"mapkit: {message}", err=True)
    raise typer.Exit(code)


def map_paths(args: list[str] | None) -> list[Path]:
    """Resolve MAP arguments (paths or shipped names); none means the shipped cities."""
    from mapkit.resources import resolve_map, shipped_maps

    if not args:
        return [_relative(p) for p in shipped_maps()]
    paths = []
    for a in args:
        p = resolve_map(a)
        if not p.exists():
            fail(f"no such map file: {a}", 2)
        if p.is_dir():
            fail(f"{a} is a folder; name the map files (e.g. {a}/*.json)", 2)
        paths.append(p)
    return paths


def _relative(path: Path) -> Path:
    """A shorter path for messages when the file is below the current folder."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def load_or_fail(path: Path):
    """The map model, or a clear message and exit 1 for a map with errors."""
    from mapkit.mapfile import MapError, load_map

    try:
        return load_map(path)
    except MapError as exc:
        fail(f"{exc}\n(run `mapkit validate {path}` for every problem)", 1)
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}", 2)


def warn_if_invalid(path: Path, paper: str = "a4") -> None:
    """Tell on stderr when a loadable map still has validation errors, then carry on.

    Rendering or simulating a map mid-edit is useful, but the designer should know
    that the sheet is not yet playable as drawn.
    """
    from mapkit.checks import validate_path

    report = validate_path(path, paper=paper)
    if report.errors:
        codes = ", ".join(sorted({d.code for d in report.diagnostics if d.severity == "error"}))
        typer.echo(
            f"mapkit: warning: {path} has {report.errors} validation error(s) ({codes}); "
            f"continuing (run `mapkit validate {path}`)",
            err=True,
        )


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()
