"""``mapkit play`` (a human against bots in the terminal) and ``mapkit replay`` (check a record)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from mapkit.cli.common import (
    TextOrJson,
    Variant,
    fail,
    load_or_fail,
    map_paths,
    output_path,
    read_record,
    record_failure,
    record_map,
)
from mapkit.signals import Interrupted


def replay(
    record: Annotated[Path, typer.Argument(help="A game record (mapkit-game/1 JSON).")],
    map: Annotated[
        str | None,
        typer.Option(
            "--map",
            "-m",
            help="The map file (default: the map the record names, beside the record"
            " as ID.json or maps/ID.json, else the shipped city).",
        ),
    ] = None,
    format: Annotated[
        TextOrJson, typer.Option("--format", "-f", help="Output format.")
    ] = TextOrJson.text,
) -> None:
    """Verify every card and move of a game record and print the scores.

    Exit 0: legal record; 1: illegal or malformed record (nothing is scored); 2: usage.
    """
    from mapkit.engine.record import RecordError, result, result_text
    from mapkit.engine.record import replay as run_replay

    doc = read_record(record)
    path = record_map(record, doc, map, "--map MAP")
    city = load_or_fail(path)
    try:
        rep = run_replay(city, doc)
    except RecordError as exc:
        record_failure(record, exc)
    if format is TextOrJson.json:
        typer.echo(json.dumps(result(rep), indent=2, ensure_ascii=False))
    else:
        typer.echo(result_text(rep), nl=False)


def play(
    map: Annotated[
        str | None,
        typer.Argument(help="A map file or shipped city name (with --resume: the record's map)."),
    ] = None,
    bots: Annotated[
        str, typer.Option(help="Bots to play against, comma-separated (random, greedy, ...).")
    ] = "",
    no_human: Annotated[bool, typer.Option("--no-human", help="Bots only.")] = False,
    seed: Annotated[int | None, typer.Option(help="Seed for the cards and the bots.")] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Write the game record here (JSON), also when you quit early; an existing"
            " file needs --force."
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --record.")] = False,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Continue the unfinished game of this record (written back to it, or to --record)."
        ),
    ] = None,
    variant: Annotated[
        Variant, typer.Option(help="'special': the special-station variant.")
    ] = Variant.standard,
    name: Annotated[str, typer.Option(help="Your name in the record.")] = "you",
) -> None:
    """Play a game in the terminal: you against up to 5 bots (or bots alone with --no-human).

    Quitting (quit, end of input, Ctrl-C) with --record saves the rounds played so far;
    --resume RECORD continues them.
    """
    from mapkit import play as playing
    from mapkit.engine.record import result_text

    try:
        playing.recordable(name, seed)
        if resume is not None:
            given = [opt for opt, on in [("--bots", bots), ("--no-human", no_human),
                     ("--seed", seed is not None), ("--variant", variant is not Variant.standard),
                     ("--name", name != "you")] if on]  # fmt: skip
            if given:
                fail(
                    f"--resume plays on the record's game as it was set up;"
                    f" leave out {', '.join(given)}",
                    2,
                )
            path, session, record = _resumed(map, resume, record, force)
        else:
            if map is None:
                fail("name a map to play on (a map file or a shipped city), or --resume RECORD", 2)
            (path,) = map_paths([map])
            special = variant is Variant.special
            city = load_or_fail(path)
            session = playing.new_session(city, bots, not no_human, seed, special, name)
            if record is not None:
                output_path(record, [path], overwrite=force, trial=True)
    except playing.PlayError as exc:
        fail(str(exc), exc.code)
    again = " (resumed)" if session.resumed else ""
    typer.echo(
        f"{session.game.city.name}: {', '.join(session.names)} (seed {session.seed}){again}."
        " Type ? for help."
    )
    try:
        playing.play(session, _ask, typer.echo)
    except (playing.Quit, KeyboardInterrupt, Interrupted) as exc:
        code = exc.exit_code if isinstance(exc, Interrupted) else 130
        _save_partial(session, path, record)
        raise typer.Exit(0 if isinstance(exc, playing.Quit) else code) from None
    typer.echo("")
    typer.echo(result_text(playing.replayed(session)).replace("; record OK", ""), nl=False)
    if record is not None:
        _write_record(playing.record(session), path, record)
        typer.echo(f"record written to {record}")


def _ask(prompt: str) -> str:
    """A line typed at the prompt; a piped answer is shown as if typed (the log then reads
    like a session)."""
    text = input(prompt)
    if not sys.stdin.isatty():
        typer.echo(text)
    return text


def _resumed(map: str | None, resume: Path, record: Path | None, force: bool) -> tuple:
    """(map file, session, record file) of ``--resume``: the record goes back to itself
    unless ``--record`` names another file."""
    from mapkit.engine.record import RecordError
    from mapkit.play import PlayError, resume_session

    doc = read_record(resume)
    path = record_map(resume, doc, map, "the MAP")
    city = load_or_fail(path)
    try:
        session = resume_session(city, doc)
    except RecordError as exc:
        record_failure(resume, exc)
    except PlayError as exc:
        fail(f"{resume}: {exc}", exc.code)
    out = record if record is not None else resume
    output_path(out, [path], trial=True, overwrite=force or out == resume)
    return path, session, out


def _write_record(doc: dict, path: Path, record: Path) -> None:
    from mapkit.atomic import OutputError, write_text
    from mapkit.engine.record import to_json

    try:
        write_text(record, to_json(doc), inputs=[path])
    except OutputError as exc:
        fail(str(exc), 2)
    except OSError as exc:
        from mapkit.atomic import path_problem

        fail(f"cannot write the record {path_problem(exc, record)}", 1)


def _save_partial(session, path: Path, record: Path | None) -> None:  # type: ignore[no-untyped-def]
    """On quitting: the rounds every player finished go to the record."""
    from mapkit import play as playing

    if record is None:
        typer.echo(f"\nGame abandoned in round {session.state.round() + 1}; no record written.")
        return
    doc, rounds = playing.saved_record(session)
    _write_record(doc, path, record)
    typer.echo(
        f"\nGame saved after {rounds} complete round(s) in {record};"
        f" continue it with: mapkit play --resume {record}"
    )


def register(app: typer.Typer) -> None:
    app.command()(play)
    app.command()(replay)
