"""``mapkit report``, ``mapkit tune`` and ``mapkit compare``: design analysis of maps."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from mapkit.cli.common import Variant, fail, load_or_fail, map_paths


class ReportFormat(StrEnum):
    text = "text"
    json = "json"
    html = "html"


def _say(what: str) -> None:
    typer.echo(f"mapkit: measuring {what}...", err=True)


def report(
    map: Annotated[str, typer.Argument(help="A map file or shipped city name.")],
    games: Annotated[
        int, typer.Option("--games", "-n", help="Decks per bot (skill, difficulty), race games.")
    ] = 200,
    players: Annotated[int, typer.Option(help="Seats for tension and races (1: solo).")] = 3,
    tension_games: Annotated[int, typer.Option(help="Games for the tension figures.")] = 100,
    decision_games: Annotated[int, typer.Option(help="Games for the decision figures.")] = 6,
    threshold: Annotated[float, typer.Option(help="Points by which a choice must matter.")] = 1.0,
    seed: Annotated[int, typer.Option(help="Run seed (the same decks for every bot).")] = 0,
    variant: Annotated[
        Variant, typer.Option(help="special: the special-station rule.")
    ] = Variant.standard,
    scale: Annotated[
        bool, typer.Option(help="Measure the shipped cities for the difficulty scale.")
    ] = True,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (0: one per core).")] = 1,
    format: Annotated[
        ReportFormat, typer.Option("--format", "-f", help="text, json or html.")
    ] = ReportFormat.text,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")
    ] = None,
) -> None:
    """Is MAP skilful, tense and fair? Skill ladder and luck share, decisions, tension,
    line races and difficulty, every figure with a 95 % interval.

    Exit 0: done; 1: the map cannot be loaded; 2: usage problem.
    """
    import os

    from mapkit.atomic import OutputError, check_writable, write_text

    if games < 2 or tension_games < 1 or decision_games < 1:
        fail("--games must be at least 2, --tension-games and --decision-games at least 1", 2)
    if not 1 <= players <= 6:
        fail("--players must be 1 to 6", 2)
    if jobs < 0:
        fail("--jobs must be 0 (one per core) or more", 2)
    (path,) = map_paths([map])
    if output is not None:
        try:
            check_writable(output, [path])
        except OutputError as exc:
            fail(str(exc), 2)
    if format is ReportFormat.html:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail("--format html needs matplotlib: pip install 'mapkit[report]'", 2)
    city = load_or_fail(path, check_paper="a4")

    from mapkit.design.report import ReportConfig, design_report

    cfg = ReportConfig(
        games=games,
        seed=seed,
        players=players,
        tension_games=tension_games,
        decision_games=decision_games,
        threshold=threshold,
        special=variant is Variant.special,
        difficulty=scale,
        jobs=jobs or os.cpu_count() or 1,
    )
    rep = design_report(city, cfg, progress=_say if sys.stderr.isatty() else None)
    if format is ReportFormat.html:
        from mapkit.design.html import to_html

        text = to_html(rep)
    elif format is ReportFormat.json:
        text = rep.to_json()
    else:
        text = rep.to_text()
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_text(output, text, [path])


def register(app: typer.Typer) -> None:
    app.command()(report)
