"""``mapkit simulate``: play many bot games on a map and report on its balance."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from mapkit import formats
from mapkit.cli.common import (
    FORMATS,
    RulesetOption,
    Variant,
    drawing_warnings,
    fail,
    load_or_fail,
    map_paths,
    not_a_map,
    output_path,
    write_output,
)

SimulateFormat = formats.choices("simulate")


class HeatmapOf(StrEnum):
    empty = "empty"
    interchange = "interchange"


class Engine(StrEnum):
    auto = "auto"
    kernel = "kernel"
    checked = "checked"


class _Progress:
    """A one-line bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.on = sys.stderr.isatty()

    def __call__(self, done: int) -> None:
        if not self.on:
            return
        width = 30
        fill = width * done // self.total
        sys.stderr.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{self.total} games")
        if done >= self.total:
            sys.stderr.write("\r" + " " * (width + 30) + "\r")
        sys.stderr.flush()


def write_heatmap(city, report, out: Path, of: HeatmapOf, inputs: list[Path]) -> None:
    """The heatmap in the format its name says (SVG, PDF or PNG)."""
    from mapkit.render.heatmap import SIMULATION_HEATMAPS, simulation_heatmap_svg

    field = SIMULATION_HEATMAPS[of.value][0]
    rates = {s.id: getattr(s, field) for s in report.stations}
    from mapkit.render.export import ExportError, drawing_file
    from mapkit.signals import deferred

    svg = simulation_heatmap_svg(city, rates, of.value)
    try:
        with drawing_warnings(), deferred():
            data = drawing_file(svg, FORMATS[out.suffix.lower()], title=city.name)
    except ExportError as exc:
        fail(str(exc), 1)
    write_output(out, data, inputs)


def simulate(
    map: Annotated[str, typer.Argument(help="A map file or shipped city name.")],
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 200,
    bots: Annotated[
        str,
        typer.Option(
            help="One bot per seat, comma-separated: random, greedy, lookahead, clairvoyant."
        ),
    ] = "greedy",
    seed: Annotated[int, typer.Option(help="Run seed: game i uses a seed derived from it.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (0: one per core).")] = 1,
    variant: Annotated[
        Variant, typer.Option(help="special: the special-station rule.")
    ] = Variant.standard,
    format: Annotated[
        SimulateFormat, typer.Option("--format", "-f", help="Output format.")
    ] = SimulateFormat.text,
    records: Annotated[
        str | None,
        typer.Option(
            help="Write each game's record (mapkit-game/1) into this folder (created if"
            " missing; a folder holding records needs --force)."
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Replace the records of an earlier run in the --records folder."
        ),
    ] = False,
    heatmap: Annotated[
        Path | None,
        typer.Option(
            help="Draw a station figure over the sheet into this file (.svg, .pdf or .png)."
        ),
    ] = None,
    heatmap_of: Annotated[
        HeatmapOf, typer.Option(help="The station figure the heatmap shows.")
    ] = HeatmapOf.empty,
    time_limit: Annotated[
        float | None,
        typer.Option(help="Stop after this many seconds (exit 1, nothing written)."),
    ] = None,
    engine: Annotated[
        Engine,
        typer.Option(
            help="Who plays: the kernel (random, greedy, lookahead seats), the checked engine"
            " (any bot, every rule checked; the same games, slower) or auto (the kernel when"
            " it can). The report names it."
        ),
    ] = Engine.auto,
    ruleset: RulesetOption = None,
) -> None:
    """Play GAMES bot games on MAP and report scores, balance, lines and stations.

    The same --seed gives the same report whatever --jobs is.
    Exit 0: done; 1: the map has errors; 2: usage problem.
    """
    import contextlib

    from mapkit.atomic import OutputError, StagedFolder
    from mapkit.cli import options
    from mapkit.signals import limit_time
    from mapkit.simulate.runner import RunConfig, check_seating, choose_engine

    names = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        check_seating(names)
    except ValueError as exc:
        fail(f"--bots: {exc}", 2)
    try:
        choose_engine(RunConfig(tuple(names), games, engine=engine.value))
    except ValueError as exc:
        fail(f"--engine {engine.value}: {exc}", 2)
    games = options.games(games)
    options.time_limit(time_limit)
    jobs = options.jobs(jobs)
    (path,) = map_paths([map])
    if heatmap is not None:
        output_path(heatmap, [path], trial=True)
        if heatmap.suffix.lower() not in FORMATS:
            fail(f"--heatmap {heatmap}: name a .svg, .pdf or .png file", 2)
        not_a_map(heatmap, "a heatmap")
    staging = None
    if records is not None:
        try:
            staging = StagedFolder(records, force=force)
        except OutputError as exc:
            fail(str(exc), 2)
    city = load_or_fail(path, check_paper="a4", ruleset=ruleset)
    try:
        check_seating(names, city.ruleset)
    except ValueError as exc:
        fail(f"--bots: {exc}", 2)

    from mapkit.engine.record import to_json as record_json
    from mapkit.simulate import run, summarize

    cfg = RunConfig(
        bots=tuple(names),
        games=games,
        seed=seed,
        special_stations=variant is Variant.special,
        records=records is not None,
        engine=engine.value,
    )

    def save(index: int, record: dict) -> None:
        assert staging is not None
        staging.write(f"{city.id}-{index + 1:05d}.json", record_json(record))

    limit_time(time_limit)
    try:
        with staging or contextlib.nullcontext():
            tally = run(city, cfg, jobs=jobs, progress=_Progress(games), on_record=save)
            report = summarize(city, tally, variant=variant.value, seed=seed)
            if heatmap is not None:
                write_heatmap(city, report, heatmap, heatmap_of, [path])
    except OSError as exc:  # the records: a full disk, a folder gone mid-run
        if staging is None:
            raise
        from mapkit.atomic import path_problem

        fail(f"cannot write the records in {path_problem(exc, records or '')}", 1)
    typer.echo(formats.write("simulate", report, format), nl=False)


def register(app: typer.Typer) -> None:
    app.command()(simulate)
