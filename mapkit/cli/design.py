"""``mapkit report``, ``mapkit tune`` and ``mapkit compare``: design analysis of maps."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from mapkit import formats
from mapkit.cli import options
from mapkit.cli.common import (
    Paper,
    RulesetOption,
    Variant,
    distinct_outputs,
    fail,
    load_or_fail,
    loaded_or_fail,
    map_paths,
    not_a_map,
    write_output,
)
from mapkit.signals import limit_time

ReportFormat = formats.choices("report")
CompareFormat = formats.choices("compare")


def _say(what: str) -> None:
    typer.echo(f"mapkit: measuring {what}...", err=True)


def _scaled(
    ctx: typer.Context, city, counts: dict[str, tuple[str, int, int]]
) -> tuple[int, dict[str, int], dict[str, object]]:  # type: ignore[no-untyped-def]
    """(the map's size factor, the counts, what changed) with every count left at its default
    scaled to the map's size (``mapkit.design.scale``); ``counts``: parameter name ->
    (option, value, least)."""
    from mapkit.design import scale

    f = scale.factor(city)
    out: dict[str, int] = {}
    changed: dict[str, object] = {}
    for name, (option, value, least) in counts.items():
        if f > 1 and value and _is_default(ctx, name):
            new = scale.scaled(value, f, least)
            if new != value:
                changed[option] = new
            value = new
        out[name] = value
    return f, out, changed


def _is_default(ctx: typer.Context, name: str) -> bool:
    """True when option ``name`` was not given (Typer's and Click's enums differ: by name)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "DEFAULT"


def report(
    ctx: typer.Context,
    map: Annotated[str, typer.Argument(help="A map file or shipped city name.")],
    games: Annotated[
        int, typer.Option("--games", "-n", help="Decks per bot (skill, difficulty), race games.")
    ] = 200,
    players: Annotated[int, typer.Option(help="Seats for tension and races (1: solo).")] = 3,
    tension_games: Annotated[int, typer.Option(help="Games for the tension figures.")] = 60,
    decision_games: Annotated[int, typer.Option(help="Games for the decision figures.")] = 6,
    threshold: Annotated[float, typer.Option(help="Points by which a choice must matter.")] = 1.0,
    seed: Annotated[int, typer.Option(help="Run seed (the same decks for every bot).")] = 0,
    variant: Annotated[
        Variant, typer.Option(help="special: the special-station rule.")
    ] = Variant.standard,
    scale: Annotated[
        bool, typer.Option(help="Measure the shipped cities for the difficulty scale.")
    ] = True,
    mixed_games: Annotated[
        int, typer.Option(help="Games with one lookahead among greedy players (0: skip).")
    ] = 60,
    sensitivity: Annotated[
        bool, typer.Option(help="Measure every line's windows and first bonus +-1.")
    ] = True,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (0: one per core).")] = 1,
    format: Annotated[
        ReportFormat, typer.Option("--format", "-f", help="text, json or html.")
    ] = ReportFormat.text,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(help="Stop after this many seconds (exit 1, nothing written)."),
    ] = None,
    ruleset: RulesetOption = None,
    allow_invalid: Annotated[
        bool,
        typer.Option("--allow-invalid", help="Report on a map with validation errors (a warning)."),
    ] = False,
) -> None:
    """Is MAP skilful, tense and fair? Skill ladder and luck share, decisions, tension,
    line races and difficulty, every figure with a 95 % interval.

    Exit 0: done; 1: the map cannot be loaded or does not validate (unless --allow-invalid);
    2: usage problem.
    """
    from mapkit.atomic import OutputError, check_writable

    if games < 2 or tension_games < 1 or decision_games < 1 or mixed_games < 0:
        fail(
            "--games must be at least 2, --tension-games and --decision-games at least 1, "
            "--mixed-games at least 0",
            2,
        )
    options.games(games, "--games", 2)
    options.games(tension_games, "--tension-games")
    options.games(decision_games, "--decision-games")
    options.games(mixed_games, "--mixed-games", 0)
    options.number(threshold, "--threshold", 0, 1000)
    options.time_limit(time_limit)
    jobs = options.jobs(jobs)
    (path,) = map_paths([map])
    if output is not None:
        try:
            check_writable(output, [path])
        except OutputError as exc:
            fail(str(exc), 2)
        conflict = formats.suffix_conflict(output, format)
        if conflict:
            fail(conflict, 2)
        not_a_map(output, "a report")
    if format == "html":
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail("--format html needs matplotlib: pip install 'mapkit[report]'", 2)
    loaded = loaded_or_fail(path, check_paper="a4", ruleset=ruleset, refuse=not allow_invalid)
    options.seats(loaded.map, players)

    from mapkit.design import scale as sizes
    from mapkit.design.report import ReportConfig, design_report

    f, n, changed = _scaled(ctx, loaded.map, {
        "games": ("--games", games, 2), "tension_games": ("--tension-games", tension_games, 1),
        "decision_games": ("--decision-games", decision_games, 1),
        "mixed_games": ("--mixed-games", mixed_games, 1),
    })  # fmt: skip
    if f > 1 and sensitivity and _is_default(ctx, "sensitivity"):
        sensitivity = False
        changed["--no-sensitivity"] = True
    if changed:
        typer.echo(sizes.note(loaded.map, changed), err=True)
    cfg = ReportConfig(
        games=n["games"],
        seed=seed,
        players=players,
        tension_games=n["tension_games"],
        decision_games=n["decision_games"],
        threshold=threshold,
        special=variant is Variant.special,
        difficulty=scale,
        mixed_games=n["mixed_games"],
        sensitivity=sensitivity,
        jobs=jobs,
        scale=f,
    )
    say = _say if sys.stderr.isatty() or f > 1 else None
    limit_time(time_limit)
    rep = design_report(loaded.map, cfg, progress=say, doc=loaded.doc)
    text = formats.write("report", rep, format)
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_output(output, text, [path])


def _rebase_schema(doc: dict, source: Path, output: Path) -> dict:
    """Keep a relative ``$schema`` pointing at the same file from the output's folder."""
    import os

    ref = doc.get("$schema")
    if not isinstance(ref, str) or "://" in ref or os.path.isabs(ref):
        return doc
    target = (source.parent / ref).resolve()
    if not target.exists():
        return doc
    rel = os.path.relpath(target, output.resolve().parent)
    return {**doc, "$schema": Path(rel).as_posix()}


def tune(
    ctx: typer.Context,
    map: Annotated[str, typer.Argument(help="A map file or shipped city name.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The tuned map (a new file).")],
    mean: Annotated[float | None, typer.Option(help="Target greedy solo mean score.")] = None,
    per_line: Annotated[
        bool,
        typer.Option(
            "--per-line",
            help="Every line inside the shipped cities' band (completion, bonus per window), "
            "bonuses following difficulty, the mean inside the shipped range.",
        ),
    ] = False,
    min_decisions: Annotated[
        float | None, typer.Option(help="Share of turns where the choice matters, at least.")
    ] = None,
    max_luck: Annotated[
        float | None,
        typer.Option(help="Luck share among competent bots (greedy, lookahead), at most."),
    ] = None,
    windows: Annotated[bool, typer.Option(help="Search the lines' windows.")] = True,
    points: Annotated[bool, typer.Option(help="Search the lines' points.")] = True,
    paper: Annotated[
        Paper, typer.Option(help="Every candidate must validate on this paper.")
    ] = Paper.a4,
    steps: Annotated[int, typer.Option(help="At most this many accepted edits.")] = 20,
    games: Annotated[int, typer.Option("--games", "-n", help="Decks per evaluation.")] = 300,
    decision_games: Annotated[
        int, typer.Option(help="Games for the decisions guard (0: skip it).")
    ] = 6,
    seed: Annotated[int, typer.Option(help="Run seed: the same decks for every candidate.")] = 0,
    variant: Annotated[
        Variant, typer.Option(help="special: the special-station rule.")
    ] = Variant.standard,
    partial: Annotated[
        bool, typer.Option("--partial", help="Write the closest map even when a target is missed.")
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Candidates at once: processes or Dask workers.")
    ] = 1,
    engine: Annotated[
        str, typer.Option(help="local (processes) or dask (needs the extra 'cluster').")
    ] = "local",
    cluster: Annotated[
        str | None, typer.Option(help="Dask scheduler address (implies --engine dask).")
    ] = None,
    report_out: Annotated[
        Path | None,
        typer.Option("--report", help="Also write the before/after comparison (JSON) here."),
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(help="Stop after this many seconds (exit 1, nothing written)."),
    ] = None,
) -> None:
    """Search MAP's windows and points towards the targets, every candidate a valid map; write
    the tuned map to -o and print a before/after comparison.

    Deterministic for a --seed. Exit 0: done; 1: the map cannot be loaded or does not
    validate, or a target was missed (nothing written unless --partial); 2: usage problem.
    """
    from mapkit.atomic import OutputError, check_writable

    _check_targets(mean, per_line, min_decisions, max_luck)
    _check_search(games, steps, decision_games)
    options.number(mean, "--mean", 0, options.MAX_SCORE)
    options.time_limit(time_limit)
    _check_changes(decision_games, min_decisions, windows, points, per_line)
    if cluster is not None:
        engine = "dask"
        cluster = options.cluster_address(cluster)
    if engine not in ("local", "dask"):
        fail(f"unknown --engine {engine!r}; known: local, dask", 2)
    jobs = jobs if cluster is not None and jobs > 0 else options.jobs(jobs)
    (path,) = map_paths([map])
    distinct_outputs({"-o": output, "--report": report_out})
    try:
        for out in (output, report_out):
            if out is not None:
                check_writable(out, [path])
    except OutputError as exc:
        fail(str(exc), 2)
    if report_out is not None:
        not_a_map(report_out, "a tuning report")
    loaded = loaded_or_fail(path)
    options.seats(loaded.map, 1, None)
    doc = loaded.doc

    from mapkit.design import scale as sizes
    from mapkit.design.compare import compare_profiles
    from mapkit.design.sweep import SweepError
    from mapkit.design.tune import Targets, TuneConfig, TuneError
    from mapkit.design.tune import tune as run_tune

    f, n, changed = _scaled(ctx, loaded.map, {
        "games": ("--games", games, 2), "decision_games": ("--decision-games", decision_games, 1),
    })  # fmt: skip
    if changed:
        typer.echo(sizes.note(loaded.map, changed), err=True)
    cfg = TuneConfig(
        games=n["games"],
        seed=seed,
        steps=steps,
        windows=windows,
        points=points,
        paper=paper.value,
        decision_games=n["decision_games"],
        scale=f,
        special=variant is Variant.special,
        jobs=jobs,
        engine=engine,
        cluster=cluster,
    )
    targets = Targets(mean, per_line, min_decisions, max_luck)
    limit_time(time_limit)
    try:
        result = run_tune(doc, targets, cfg, progress=lambda s: typer.echo(f"tune: {s}", err=True))
    except TuneError as exc:
        fail(f"{path}: {exc}", 1)
    except SweepError as exc:
        fail(str(exc), 2)
    missed = result.unmet
    if missed and not partial:
        fail(
            f"targets not met after {len(result.steps)} edits, nothing written: "
            + "; ".join(missed)
            + " (--partial writes the closest map)",
            1,
        )
    from mapkit.mapfile import writer

    tuned = _rebase_schema(result.doc, path, output)
    write_output(output, writer.dumps(tuned), [path])
    if missed:
        typer.echo(f"mapkit: warning: targets not met: {'; '.join(missed)}", err=True)
    cmp = compare_profiles(
        result.before,
        result.after,
        seed,
        result.decisions_before,
        result.decisions_after,
        names=(str(path), str(output)),
    )
    typer.echo(_tune_summary(result))
    typer.echo(cmp.to_text(), nl=False)
    if report_out is not None:
        write_output(report_out, _tune_report(result, cmp), [path])


def _check_targets(
    mean: float | None, per_line: bool, min_decisions: float | None, max_luck: float | None
) -> None:
    """At least one target, each a finite number (the shares from 0 to 1)."""
    import math

    if mean is None and not per_line and max_luck is None and min_decisions is None:
        fail("set a target: --mean, --per-line, --min-decisions or --max-luck", 2)
    for name, value in (("--mean", mean), ("--min-decisions", min_decisions),
                        ("--max-luck", max_luck)):  # fmt: skip
        if value is not None and not math.isfinite(value):
            fail(f"{name} must be a finite number, not {value}", 2)
    for name, value in (("--min-decisions", min_decisions), ("--max-luck", max_luck)):
        if value is not None and not 0 <= value <= 1:
            fail(f"{name} is a share: 0 to 1, not {value:g}", 2)


def _check_search(games: int, steps: int, decision_games: int) -> None:
    """Games and steps within the bounds every command shares."""
    if games < 2 or steps < 0 or decision_games < 0:
        fail("--games must be at least 2, --steps and --decision-games at least 0", 2)
    options.games(games, "--games", 2)
    options.games(decision_games, "--decision-games", 0)
    if steps > options.MAX_STEPS:
        fail(f"--steps must be from 0 to {options.MAX_STEPS}", 2)


def _check_changes(
    decision_games: int, min_decisions: float | None, windows: bool, points: bool,
    per_line: bool,
) -> None:  # fmt: skip
    """Something to change, and the measurements the targets need."""
    if min_decisions is not None and not decision_games:
        fail("--min-decisions needs --decision-games above 0", 2)
    if not windows and not points:
        fail("--no-windows with --no-points leaves nothing to tune", 2)
    if per_line and not points:
        fail("--per-line needs --points: a line's bonus per window is set by its points", 2)


def _tune_summary(result) -> str:
    """The objective before and after, what the search measured, and each accepted edit."""
    head = (
        f"objective {result.objective_before:.4f} -> {result.objective_after:.4f} "
        f"in {len(result.steps)} edits; {result.measured} candidates, {result.moved} made "
        f"valid by placing wagons again, {result.rejected} rejected by the validator"
        + (f"; {len(result.undone)} undone by the decisions guard" if result.undone else "")
    )
    return "\n".join([head, *(f"  {s.move}" for s in result.steps), ""])


def _tune_report(result, cmp) -> str:
    """The --report file: the search and the before/after comparison, as JSON."""
    import json

    doc_out = {
        "objective": {"before": result.objective_before, "after": result.objective_after},
        "edits": [s.move for s in result.steps],
        "undone": result.undone,
        "unmet": result.unmet,
        "candidates": {"measured": result.measured, "rejected": result.rejected},
        "band": result.aim.band.to_dict(),
        "target_bonus_per_window": round(result.aim.rate, 4),
        **cmp.to_dict(),
    }
    return json.dumps(doc_out, indent=2) + "\n"


def compare(
    a: Annotated[str, typer.Argument(help="Map A (file or shipped city).")],
    b: Annotated[str, typer.Argument(help="Map B (file or shipped city).")],
    games: Annotated[
        int, typer.Option("--games", "-n", help="Decks (the same for A and B).")
    ] = 500,
    players: Annotated[int, typer.Option(help="Seats for the per-line figures.")] = 1,
    decision_games: Annotated[
        int, typer.Option(help="Games for the decision figures (0: skip).")
    ] = 0,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
    variant: Annotated[
        Variant, typer.Option(help="special: the special-station rule.")
    ] = Variant.standard,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (0: one per core).")] = 1,
    format: Annotated[
        CompareFormat, typer.Option("--format", "-f", help="Output format.")
    ] = CompareFormat.text,
    ruleset: RulesetOption = None,
) -> None:
    """Two versions of a map side by side on the same decks: figures with 95 % intervals,
    differences marked * when significant.

    Exit 0: done; 1: a map cannot be loaded; 2: usage problem.
    """
    if games < 2 or decision_games < 0:
        fail("--games at least 2, --decision-games at least 0", 2)
    options.games(games, "--games", 2)
    options.games(decision_games, "--decision-games", 0)
    jobs = options.jobs(jobs)
    pa, pb = map_paths([a, b])
    ca = load_or_fail(pa, check_paper="a4", ruleset=ruleset)
    cb = load_or_fail(pb, check_paper="a4", ruleset=ruleset)
    for city in (ca, cb):
        options.seats(city, players)

    from mapkit.design.compare import compare_maps

    cmp = compare_maps(
        ca,
        cb,
        games,
        seed,
        players,
        decision_games,
        variant is Variant.special,
        jobs,
        names=(str(pa), str(pb)),
    )
    typer.echo(formats.write("compare", cmp, format), nl=False)


def register(app: typer.Typer) -> None:
    app.command()(report)
    app.command()(tune)
    app.command()(compare)
