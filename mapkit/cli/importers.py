"""``mapkit import gtfs`` and ``mapkit import graph``: a real network to a playable draft map."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mapkit.cli.common import Paper, check_input, fail, output_path

app = typer.Typer(
    name="import",
    help="Make a draft map from a real network: a GTFS feed or a line-graph GeoJSON.",
    no_args_is_help=True,
)

Output = Annotated[Path, typer.Option("--output", "-o", help="The map to write (JSON).")]
MaxStations = Annotated[
    int, typer.Option(help="Thin the network to at most this many stations (2-400).")
]
MaxLines = Annotated[int, typer.Option(help="Keep at most this many lines, longest first.")]
Layout = Annotated[
    bool, typer.Option("--layout/--no-layout", help="Lay the map out on the eight directions.")
]
PaperOpt = Annotated[Paper, typer.Option(help="The sheet the map is fitted to.")]
Name = Annotated[str | None, typer.Option(help="City name on the sheet (default: the feed's).")]
MapId = Annotated[str | None, typer.Option("--id", help="Map id (default: from the output name).")]
Merge = Annotated[
    float,
    typer.Option("--merge-distance", help="Merge stations this close (metres) into one."),
]
Separate = Annotated[
    bool, typer.Option(help="Keep networks that share no station with the largest one.")
]
TimeLimit = Annotated[float, typer.Option(help="Seconds each layout try may take (up to 4 tries).")]


def _prepare(source: Path, output: Path, map_id: str | None, **options):
    """The checks and the config both import commands start with: (output path, config)."""
    from mapkit.importers.draft import ImportConfig
    from mapkit.importers.network import ImportFailure

    check_input(source)
    out = output_path(output, [source])
    try:
        return out, ImportConfig(map_id=_map_id(map_id, out), **options)
    except ImportFailure as exc:
        fail(str(exc), exc.exit_code)


def _ids(given: str | None) -> tuple[str, ...]:
    """A comma-separated option as its non-empty items."""
    return tuple(r.strip() for r in (given or "").split(",") if r.strip())


def _map_id(given: str | None, output: Path) -> str | None:
    import re

    from mapkit.importers.stations import slug

    if given is not None:
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", given):
            fail(f"--id {given!r} is not a map id (lower-case letters, digits, hyphens)", 2)
        return given
    return slug(output.stem, 64) or None


def _finish(network_reader, source: Path, output: Path, cfg) -> None:
    import sys

    from mapkit.atomic import write_text
    from mapkit.importers.draft import network_to_map
    from mapkit.importers.network import ImportFailure
    from mapkit.mapfile import writer
    from mapkit.notices import Severity

    def progress(text: str) -> None:
        typer.echo(f"mapkit: layout: {text}", err=True)

    try:
        result = network_to_map(network_reader(), cfg, progress if sys.stderr.isatty() else None)
    except ImportFailure as exc:
        fail(str(exc), exc.exit_code)
    except OSError as exc:
        from mapkit.atomic import path_problem

        fail(f"cannot read {path_problem(exc, source)}", 2)
    for note in result.notes:
        typer.echo(f"mapkit: note: {note}", err=True)
    write_text(output, writer.dumps(result.doc), [source])
    diags = result.diagnostics
    errors = sum(d.severity is Severity.ERROR for d in diags)
    warnings = sum(d.severity is Severity.WARNING for d in diags)
    letters = [ln["id"] for ln in result.doc["lines"]]
    typer.echo(
        f"wrote {output}: {result.stations} stations, {result.lines} lines "
        f"({letters[0]}-{letters[-1]}); validate: {errors} errors, {warnings} warnings"
    )
    if errors or warnings:
        codes = ", ".join(sorted({d.code for d in diags if d.severity is not Severity.INFO}))
        typer.echo(
            f"mapkit: warning: the draft still has problems ({codes}); "
            f"run `mapkit validate {output}`",
            err=True,
        )


@app.command()
def gtfs(
    feed: Annotated[Path, typer.Argument(help="A GTFS feed (zip).")],
    output: Output,
    route_types: Annotated[
        str,
        typer.Option(
            help="Route kinds to import: names (metro, light-rail, monorail, rail, bus, ...) "
            "or GTFS route_type numbers, comma-separated."
        ),
    ] = "metro,light-rail,monorail",
    routes: Annotated[
        str | None,
        typer.Option(help="Only these routes (route_id or short name, comma-separated)."),
    ] = None,
    max_stations: MaxStations = 70,
    max_lines: MaxLines = 10,
    layout: Layout = True,
    paper: PaperOpt = Paper.a4,
    name: Name = None,
    map_id: MapId = None,
    merge_distance: Merge = 150.0,
    separate: Separate = False,
    time_limit: TimeLimit = 2.5,
) -> None:
    """A draft map from a GTFS feed: platforms merged into stations, each route's trip
    patterns merged into its lines, thinned to a sheet's size, lettered, coloured, with
    wagons, windows and points, laid out.

    Exit 0: written; 1: the feed cannot be imported; 2: usage problem.
    """
    from mapkit.importers.gtfs import Selection, read_gtfs
    from mapkit.importers.gtfs import route_types as parse_types
    from mapkit.importers.network import ImportFailure

    out, cfg = _prepare(
        feed,
        output,
        map_id,
        max_stations=max_stations,
        max_lines=max_lines,
        paper=paper.value,
        layout=layout,
        name=name,
        merge_m=merge_distance,
        separate=separate,
        time_limit=time_limit,
    )
    try:
        selection = Selection(
            route_types=parse_types(route_types),
            routes=_ids(routes),
        )
    except ImportFailure as exc:
        fail(str(exc), exc.exit_code)
    _finish(lambda: read_gtfs(feed, selection), feed, out, cfg)


@app.command()
def graph(
    network: Annotated[Path, typer.Argument(help="A line graph (GeoJSON, as LOOM writes it).")],
    output: Output,
    routes: Annotated[
        str | None, typer.Option(help="Only these lines (id or label, comma-separated).")
    ] = None,
    max_stations: MaxStations = 70,
    max_lines: MaxLines = 10,
    layout: Layout = True,
    paper: PaperOpt = Paper.a4,
    name: Name = None,
    map_id: MapId = None,
    merge_distance: Merge = 150.0,
    separate: Separate = False,
    time_limit: TimeLimit = 2.5,
) -> None:
    """A draft map from a line graph (LOOM's GeoJSON: Point features with station_id and
    station_label, LineString features with from, to and lines), made as from a feed.

    Exit 0: written; 1: the file is not a usable line graph; 2: usage problem.
    """
    from mapkit.importers.graph import only_routes, read_graph

    out, cfg = _prepare(
        network,
        output,
        map_id,
        max_stations=max_stations,
        max_lines=max_lines,
        paper=paper.value,
        layout=layout,
        name=name,
        merge_m=merge_distance,
        separate=separate,
        time_limit=time_limit,
    )
    _finish(lambda: only_routes(read_graph(network, name), _ids(routes)), network, out, cfg)


def register(parent: typer.Typer) -> None:
    parent.add_typer(app)
