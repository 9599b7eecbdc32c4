"""Small helpers shared by the CLI commands: map arguments and failing cleanly."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Any, NoReturn

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


def load_or_fail(path: Path, *, check_paper: str | None = None):
    """The map model, or a clear message and exit 1 for a map that cannot be loaded.

    With ``check_paper`` the remaining check layers also run on the loaded file (read
    and parsed once): errors there are reported on stderr and the command carries on,
    since rendering or simulating a map mid-edit is useful, but the designer should
    know the sheet is not yet playable as drawn.
    """
    from mapkit.mapfile import MapError, read_map

    try:
        result = read_map(path)
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}", 2)
    if result.map is None:
        exc = MapError(str(path), result.errors or result.diagnostics)
        fail(f"{exc}\n(run `mapkit validate {path}` for every problem)", 1)
    if check_paper is not None:
        from mapkit.checks import run_layers
        from mapkit.notices import Severity

        errors = [d for d in run_layers(result, check_paper) if d.severity is Severity.ERROR]
        if errors:
            codes = ", ".join(sorted({d.code for d in errors}))
            typer.echo(
                f"mapkit: warning: {path} has {len(errors)} validation error(s) ({codes}); "
                f"continuing (run `mapkit validate {path}`)",
                err=True,
            )
    return result.map


def read_record(path: Path) -> Any:
    """The parsed game record, or a one-line message and exit 1 (2 for an unreadable file)."""
    import json

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"no such record file: {path}", 2)
    except UnicodeDecodeError as exc:
        fail(f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}", 2)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", 1)
    except RecursionError:
        fail(f"{path}: not a game record: JSON nested too deep", 1)


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()
