"""``mapkit simulate``: play many bot games on a map and report on its balance."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from mapkit.cli.common import (
    TextOrJson,
    Variant,
    fail,
    load_or_fail,
    map_paths,
)


class HeatmapOf(StrEnum):
    empty = "empty"
    interchange = "interchange"


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
        TextOrJson, typer.Option("--format", "-f", help="Output format.")
    ] = TextOrJson.text,
    records: Annotated[
        Path | None, typer.Option(help="Write each game's record (mapkit-game/1) into this folder.")
    ] = None,
    heatmap: Annotated[
        Path | None, typer.Option(help="Draw a station figure over the sheet into this SVG file.")
    ] = None,
    heatmap_of: Annotated[
        HeatmapOf, typer.Option(help="The station figure the heatmap shows.")
    ] = HeatmapOf.empty,
) -> None:
    """Play GAMES bot games on MAP and report scores, balance, lines and stations.

    The same --seed gives the same report whatever --jobs is.
    Exit 0: done; 1: the map has errors; 2: usage problem.
    """
    import os

    from mapkit.atomic import OutputError, check_output, write_text

    names = [b.strip() for b in bots.split(",") if b.strip()]
    from mapkit.bots import BOTS

    unknown = [b for b in names if b not in BOTS]
    if unknown:
        fail(f"unknown bot {unknown[0]!r}; known: {', '.join(BOTS)}", 2)
    if not 1 <= len(names) <= 6:
        fail("--bots names 1 to 6 bots, one per seat", 2)
    if games < 1:
        fail("--games must be at least 1", 2)
    if jobs < 0:
        fail("--jobs must be 0 (one per core) or more", 2)
    (path,) = map_paths([map])
    render_heatmap = None
    if heatmap is not None:
        try:
            from mapkit.render.heatmap import heatmap_svg as render_heatmap
        except ImportError:
            fail("--heatmap needs mapkit.render.heatmap, which this installation lacks", 1)
        try:
            check_output(heatmap, [path])
        except OutputError as exc:
            fail(str(exc), 2)
    if records is not None:
        if records.exists() and not records.is_dir():
            fail(f"--records {records} is a file, not a folder", 2)
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(f"cannot create {records}: {exc.strerror}", 2)
    city = load_or_fail(path, check_paper="a4")

    from mapkit.engine.record import to_json as record_json
    from mapkit.simulate import RunConfig
    from mapkit.simulate import report as rep
    from mapkit.simulate.runner import run
    from mapkit.simulate.stats import report as report_of

    cfg = RunConfig(
        bots=tuple(names),
        games=games,
        seed=seed,
        special_stations=variant is Variant.special,
        records=records is not None,
    )

    def save(index: int, record: dict) -> None:
        write_text(records / f"{city.id}-{index + 1:05d}.json", record_json(record), [path])

    tally = run(
        city, cfg, jobs=jobs or os.cpu_count() or 1, progress=_Progress(games), on_record=save
    )
    report = report_of(tally, variant=variant.value, seed=seed)
    if heatmap is not None and render_heatmap is not None:
        if heatmap_of is HeatmapOf.empty:
            values = {s.id: s.empty_rate for s in report.stations}
            title, legend = "stations left empty", "left empty"
        else:
            values = {s.id: s.interchange_rate for s in report.stations}
            title, legend = "interchange numbers", "carries an interchange number"
        svg = render_heatmap(city, values, title=title, legend=legend, paper="a4", percent=True)
        write_text(heatmap, svg, [path])
    if format is TextOrJson.json:
        typer.echo(rep.to_json(report), nl=False)
    else:
        typer.echo(rep.to_text(report), nl=False)


def register(app: typer.Typer) -> None:
    app.command()(simulate)
