"""Small helpers shared by the CLI commands: map arguments and failing cleanly."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from mapkit.formats import DRAWINGS
from mapkit.rulesets import RULESETS


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


class Variant(StrEnum):
    standard = "standard"
    special = "special"


class TextOrJson(StrEnum):
    text = "text"
    json = "json"


RulesetName = StrEnum("RulesetName", {name: name for name in RULESETS})  # type: ignore[misc]
RulesetOption = Annotated[
    RulesetName | None,
    typer.Option(
        help="Play under this ruleset instead of the map's own (`mapkit rules --rulesets`)."
    ),
]


FORMATS = DRAWINGS
"""The drawing formats an output's suffix can name (render -o, simulate --heatmap)."""


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``mapkit: message`` to stderr and exit with ``code`` (1 data, 2 usage)."""
    typer.echo(f"mapkit: {message}", err=True)
    raise typer.Exit(code)


def _input_problem(arg: str) -> str | None:
    """Why a file named on the command line cannot be read, in one line (None: it can)."""
    import os
    import stat

    from mapkit.atomic import path_problem

    if not arg.strip():
        return "an empty file name"
    try:
        st = os.stat(arg)
    except OSError as exc:
        return path_problem(exc, arg)
    if stat.S_ISDIR(st.st_mode):
        return f"{arg} is a folder; name the files (e.g. {arg.rstrip('/')}/*.json)"
    return None


def check_input(path: Path) -> None:
    """Exit 2 unless ``path`` names a file that can be read."""
    problem = _input_problem(str(path))
    if problem is not None:
        fail(problem, 2)


def map_paths(args: list[str] | None, beside: Path | None = None) -> list[Path]:
    """Resolve MAP arguments (paths or shipped names); none means the shipped cities.

    ``beside``: a game record; a bare map name is looked for next to it first.
    """
    from mapkit.resources import shipped_maps

    if not args:
        return [_relative(p) for p in shipped_maps()]
    paths = []
    for a in args:
        if not a.strip():
            fail("an empty file name", 2)
        p = find_map(a, beside)
        problem = _input_problem(str(p))
        if problem is not None:
            if problem.endswith(": no such file or folder"):
                problem = f"no such map file: {a}"
            fail(problem, 2)
        paths.append(p)
    return paths


def find_map(arg: str, beside: Path | None = None) -> Path:
    """A map argument as a path: the file itself, else (for a bare name like ``mini``)
    ``ID.json`` or ``maps/ID.json`` beside the game record ``beside``, else a shipped city."""
    from mapkit.resources import resolve_map

    path = Path(arg)
    if os.path.exists(path) or path.suffix or "/" in arg or not arg.strip():
        return path
    if beside is not None:
        for candidate in (beside.parent / f"{arg}.json", beside.parent / "maps" / f"{arg}.json"):
            if os.path.isfile(candidate):
                return candidate
    try:
        return resolve_map(arg)
    except OSError:  # a name too long to look up: report it as given
        return path


def record_map(record: Path, doc: Any, given: str | None, option: str) -> Path:
    """The map file of a game record: ``given`` when there is one, else the map the record
    names, beside it (``ID.json``, ``maps/ID.json``) or shipped; exit 2 if none is found."""
    if given is None:
        map_id = doc["map"]
        if not os.path.exists(find_map(map_id, beside=record)):
            fail(
                f"{record}: the record's map {map_id!r} is not beside the record ({map_id}.json"
                f" or maps/{map_id}.json) nor a shipped city; give {option}",
                2,
            )
        given = map_id
    (path,) = map_paths([given], beside=record)
    return path


def read_input(path: Path) -> bytes:
    """The bytes of an input file (at most the size limit and one byte), or exit 2."""
    from mapkit.atomic import path_problem
    from mapkit.mapfile import read_limited

    problem = _input_problem(str(path))
    if problem is not None:
        fail(problem, 2)
    try:
        return read_limited(path)
    except OSError as exc:
        fail(f"cannot read {path_problem(exc, path)}", 2)


def output_path(
    out: Path, inputs: list[Path], *, overwrite: bool = True, trial: bool = False
) -> Path:
    """The file to write for an output option, checked before any work; exit 2 if unusable."""
    from mapkit.atomic import OutputError, check_output, check_writable

    try:
        check = check_writable if trial else check_output
        return check(out, inputs, overwrite=overwrite)
    except OutputError as exc:
        fail(str(exc), 2)


def distinct_outputs(outputs: dict[str, Path | None]) -> None:
    """Exit 2 when two output options name the same file (the second would replace the
    first); ``outputs``: option name -> path."""
    from mapkit.atomic import same_file

    given = [(opt, p) for opt, p in outputs.items() if p is not None]
    for i, (opt_a, a) in enumerate(given):
        for opt_b, b in given[i + 1 :]:
            if same_file(a, b):
                fail(f"{opt_a} and {opt_b} both name {b}: give each output its own file", 2)


def not_a_map(out: Path, what: str) -> None:
    """Exit 2 when ``out`` is an existing map file: a sheet, report or heatmap written there
    would replace the map (``what`` says what would be written)."""
    from mapkit.atomic import is_map_file

    if is_map_file(out):
        fail(f"{out} is a map file; refusing to replace it with {what}", 2)


def write_output(path: Path, data: str | bytes, inputs: list[Path]) -> None:
    """Write an output file whole or not at all; a full disk or another write failure is one
    line and exit 1 (nothing half-written is left), a path that cannot be used exit 2."""
    from mapkit.atomic import OutputError, path_problem, write_bytes

    try:
        write_bytes(path, data.encode("utf-8") if isinstance(data, str) else data, inputs)
    except OutputError as exc:
        fail(str(exc), 2)
    except OSError as exc:
        fail(f"cannot write {path_problem(exc, path)}", 1)


@contextlib.contextmanager
def drawing_warnings() -> Iterator[None]:
    """Text cairo cannot draw (``UndrawableText`` from PDF/PNG export): one warning line on
    stderr per drawing, instead of Python's warning format."""
    import warnings

    from mapkit.render.export import UndrawableText

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UndrawableText)
        yield
    for w in caught:
        if issubclass(w.category, UndrawableText):
            typer.echo(f"mapkit: warning: {w.message}", err=True)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def _relative(path: Path) -> Path:
    """A shorter path for messages when the file is below the current folder."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def load_or_fail(path: Path, *, check_paper: str | None = None, ruleset: str | None = None):
    """The map model, or a clear message and exit 1 (see :func:`loaded_or_fail`)."""
    return loaded_or_fail(path, check_paper=check_paper, ruleset=ruleset).map


def loaded_or_fail(
    path: Path, *, check_paper: str | None = None, ruleset: str | None = None, refuse: bool = False
):
    """The loaded map (document and model), or a clear message and exit 1 for a map that
    cannot be loaded.

    With ``check_paper`` the remaining check layers also run on the loaded file (read
    and parsed once): errors there are reported on stderr and the command carries on,
    since rendering or simulating a map mid-edit is useful, but the designer should
    know the sheet is not yet playable as drawn. ``ruleset``: play the map under this named
    ruleset instead of its own (``--ruleset``). ``refuse``: a map with validation errors exits 1
    instead (``mapkit report``: its figures would describe a sheet nobody can print).
    """
    from mapkit.mapfile import MapError, load_source

    result = load_source(read_input(path), str(path))
    if result.map is None:
        exc = MapError(str(path), result.errors or result.diagnostics)
        fail(f"{exc}\n(run `mapkit validate {path}` for every problem)", 1)
    if ruleset is not None:
        from mapkit.rulesets import get_ruleset

        result.map = result.map.with_ruleset(get_ruleset(ruleset))
    if check_paper is not None:
        from mapkit.checks import run_layers
        from mapkit.notices import Severity

        errors = [d for d in run_layers(result, check_paper) if d.severity is Severity.ERROR]
        if errors:
            codes = ", ".join(sorted({d.code for d in errors}))
            if refuse:
                fail(
                    f"{path}: the map does not validate on {check_paper} ({codes}); fix it "
                    f"first (`mapkit validate {path}`), or pass --allow-invalid",
                    1,
                )
            typer.echo(
                f"mapkit: warning: {path} has {len(errors)} validation error(s) ({codes}); "
                f"continuing (run `mapkit validate {path}`)",
                err=True,
            )
    return result


def record_failure(path: Path, exc: Any) -> NoReturn:
    """Exit 1 with a RecordError as one line: ``path:line:col: round r, player p: rule``."""
    where = f"{path}:{exc.line}:{exc.column}" if exc.line else str(path)
    fail(f"{where}: {exc}", 1)


def read_record(path: Path) -> Any:
    """The record document, read strictly and checked against the game schema; exit 1 for
    a malformed record, 2 for a file that cannot be read."""
    from mapkit.engine.record import RecordError, parse_record

    problem = _input_problem(str(path))
    if problem is not None and problem.endswith(": no such file or folder"):
        fail(f"no such record file: {path}", 2)
    data = read_input(path)
    try:
        return parse_record(data)
    except RecordError as exc:
        record_failure(path, exc)


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()
