"""``mapkit layout MAP -o NEW``: the map redrawn on the eight directions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mapkit import formats
from mapkit.cli.common import Paper, fail, loaded_or_fail, map_paths

PROGRESS_AFTER = 1.0
"""Seconds after which a run whose stderr is not a terminal says what it is doing too."""

LayoutFormat = formats.choices("layout")


def layout(
    map: Annotated[str, typer.Argument(help="A map file or shipped city name.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The laid-out map (a new file).")],
    paper: Annotated[
        Paper, typer.Option(help="Paper of the report's print-scale figures (A4 and Letter fit).")
    ] = Paper.a4,
    pin: Annotated[
        str | None, typer.Option(help="Station ids kept where they are, comma-separated.")
    ] = None,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            help="Seconds, a safety net: the search counts its work, so it is the same on any "
            "machine unless stopped here (the best layout by then is kept, and said so).",
        ),
    ] = 10.0,
    allow_45: Annotated[
        bool, typer.Option("--allow-45", help="Let lines bend by 45° (sharp turns).")
    ] = False,
    seed: Annotated[
        int,
        typer.Option(
            help="0: the plain drawing; another number breaks near-ties between directions "
            "another way, for another drawing to choose from (each seed is reproducible)."
        ),
    ] = 0,
    quick: Annotated[
        bool,
        typer.Option(
            "--quick",
            help="The faithful drawing only (the heuristic, about a second): no polishing "
            "search for fewer bends.",
        ),
    ] = False,
    wagons_only: Annotated[
        bool,
        typer.Option("--wagons-only", help="Keep the stations; place only the wagons again."),
    ] = False,
    report: Annotated[
        Path | None, typer.Option("--report", help="Also write the layout report here.")
    ] = None,
    format: Annotated[
        LayoutFormat, typer.Option("--format", "-f", help="Format of the printed report.")
    ] = LayoutFormat.text,
) -> None:
    """Redraw MAP with every stretch on the eight directions, even stop spacing, its topology
    kept and every wagon clear by 1.5 mm on A4 and Letter; write it to -o and print the layout
    report. Stations and wagons move; lines, stops and the game do not.

    Exit 0: done; 1: the map cannot be loaded or laid out (the message names the station);
    2: usage problem.
    """
    import sys
    import time

    entered = time.monotonic()
    from mapkit.atomic import OutputError, check_writable, write_text
    from mapkit.cli.design import _rebase_schema

    if not 0 < time_limit <= 600:
        fail("--time-limit must be above 0 and at most 600 seconds", 2)
    pinned = frozenset(p.strip() for p in (pin or "").split(",") if p.strip())
    (path,) = map_paths([map])
    try:
        for out in (output, report):
            if out is not None:
                check_writable(out, [path])
    except OutputError as exc:
        fail(str(exc), 2)
    loaded = loaded_or_fail(path)
    city = loaded.map
    unknown = sorted(pinned - {s.id for s in city.stations})
    if unknown:
        fail(f"--pin: no station '{unknown[0]}' in {path}", 2)

    from mapkit.layout import LayoutConfig, LayoutError
    from mapkit.layout import layout as run_layout
    from mapkit.mapfile import writer

    if wagons_only:
        from mapkit.layout import WagonError, with_wagons

        try:
            doc = with_wagons(loaded.doc, city)
        except WagonError as exc:
            fail(f"{path}: {exc}; nothing written", 1)
        write_text(output, writer.dumps(_rebase_schema(doc, path, output)), [path])
        typer.echo(f"wrote {output}: every wagon clear by 1.5 mm on A4 and Letter")
        return
    cfg = LayoutConfig(
        paper=paper.value,
        pinned=pinned,
        time_limit=time_limit,
        started=entered,  # the limit is the command's: loading the map took some of it
        allow_45=allow_45,
        seed=seed,
        polish=not quick,
    )

    def progress(step: str) -> None:
        """Each step on stderr: on a terminal, and elsewhere once the run is a long one."""
        if sys.stderr.isatty() or time.monotonic() - entered > PROGRESS_AFTER:
            typer.echo(f"layout: {step}", err=True)

    try:
        result = run_layout(city, cfg, doc=loaded.doc, progress=progress)
    except LayoutError as exc:
        fail(f"{path}: {exc}; nothing written", 1)
    if result.report.wagons_unclear:
        why = next(n for n in result.report.notes if "no clear spot" in n)
        fail(f"{path}: {why}; nothing written", 1)
    write_text(output, writer.dumps(_rebase_schema(result.doc, path, output)), [path])
    text = formats.write("layout", result.report, format)
    if report is not None:  # a .json file gets JSON whatever --format prints
        kind = "json" if report.suffix == ".json" else format
        write_text(report, formats.write("layout", result.report, kind), [path])
    typer.echo(text, nl=False)


def register(app: typer.Typer) -> None:
    app.command()(layout)
