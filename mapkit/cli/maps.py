"""Commands about map files: validate, rules, intersections, schema."""

from __future__ import annotations

from typing import Annotated

import typer

from mapkit import formats
from mapkit.cli.common import Paper, fail, load_or_fail, map_paths, stdout_is_tty

ValidateFormat = formats.choices("validate")
IntersectionsFormat = formats.choices("intersections")


def _codes(values: list[str] | None) -> list[str]:
    return [c for v in values or [] for c in v.split(",") if c.strip()]


def validate(
    maps: Annotated[
        list[str] | None,
        typer.Argument(help="Map files or shipped city names; none: the shipped cities."),
    ] = None,
    format: Annotated[
        ValidateFormat, typer.Option("--format", "-f", help="Output format.")
    ] = ValidateFormat.text,
    paper: Annotated[
        Paper, typer.Option(help="Paper for the print-scale checks (landscape).")
    ] = Paper.a4,
    select: Annotated[
        list[str] | None,
        typer.Option(help="Only these codes or prefixes (comma-separated, repeatable)."),
    ] = None,
    ignore: Annotated[list[str] | None, typer.Option(help="Skip these codes or prefixes.")] = None,
    strict: Annotated[bool, typer.Option(help="Warnings also make the exit code 1.")] = False,
    draft: Annotated[
        bool,
        typer.Option(
            help="A map still being drawn: no lines yet, or lines without windows or points, "
            "is not an error; everything present is checked."
        ),
    ] = False,
) -> None:
    """Check maps: syntax, schema, references, topology, print geometry, game design.

    Exit 0: no errors; 1: errors (with --strict, warnings too); 2: usage problem.
    """
    from mapkit.checks import validate_path
    from mapkit.notices import unknown_codes

    sel, ign = _codes(select), _codes(ignore)
    bad = unknown_codes(sel + ign)
    if bad:
        fail(f"unknown rule code(s): {', '.join(bad)} (see `mapkit rules`)", 2)
    reports = []
    for path in map_paths(maps):
        try:
            reports.append(
                validate_path(path, paper=paper.value, select=sel, ignore=ign, draft=draft)
            )
        except OSError as exc:
            from mapkit.atomic import path_problem

            fail(f"cannot read {path_problem(exc, path)}", 2)
    text = formats.write("validate", reports, format, color=stdout_is_tty(), strict=strict)
    typer.echo(text, nl=False)
    failed = any(r.errors or (strict and r.warnings) for r in reports)
    raise typer.Exit(1 if failed else 0)


def rules(
    codes: Annotated[
        list[str] | None,
        typer.Argument(help="Rule codes or prefixes (GEO001, GEO); none: a table of every rule."),
    ] = None,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="The whole rules page (docs/rules.md) as Markdown.")
    ] = False,
) -> None:
    """Explain validation rules: what each finds, an example, and the fix."""
    from mapkit import rules_doc
    from mapkit.notices import unknown_codes

    wanted = _codes(codes)
    if markdown:
        if wanted:
            fail("--markdown prints the whole page; give no codes with it", 2)
        typer.echo(rules_doc.markdown(), nl=False)
        return
    bad = unknown_codes(wanted)
    if bad:
        fail(f"unknown rule code(s): {', '.join(bad)} (`mapkit rules` lists them)", 2)
    if not wanted:
        typer.echo(rules_doc.table_text(), nl=False)
        return
    typer.echo("\n".join(rules_doc.text(n) for n in rules_doc.select(wanted)), nl=False)


def intersections(
    map: Annotated[str, typer.Argument(help="A map file or shipped city name.")],
    format: Annotated[
        IntersectionsFormat, typer.Option("--format", "-f", help="Output format.")
    ] = IntersectionsFormat.text,
) -> None:
    """How many lines meet at each station (the number an Interchange card writes)."""
    from mapkit.intersections import intersections as count

    (path,) = map_paths([map])
    typer.echo(formats.write("intersections", count(load_or_fail(path)), format), nl=False)


def schema(
    kind: Annotated[str, typer.Argument(help="map or game (the game record schema).")] = "map",
) -> None:
    """Print a JSON Schema (for editors: see README's VS Code setting)."""
    from mapkit.resources import schema_path

    path = schema_path(kind)
    if not path.exists():
        fail(f"no schema named {kind!r}; try 'map' or 'game'", 2)
    typer.echo(path.read_text(encoding="utf-8"), nl=False)


def register(app: typer.Typer) -> None:
    app.command()(validate)
    app.command()(rules)
    app.command()(intersections)
    app.command()(schema)
