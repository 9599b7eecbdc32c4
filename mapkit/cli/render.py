"""``mapkit render``: printable sheets (SVG, PDF, PNG), blank or filled from a game record."""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from mapkit.cli.common import (
    FORMATS,
    Paper,
    RulesetOption,
    drawing_warnings,
    fail,
    load_or_fail,
    map_paths,
    not_a_map,
    output_path,
    read_record,
    record_failure,
    record_map,
)


class Background(StrEnum):
    home = "home"
    full = "full"


class Flip(StrEnum):
    long = "long"
    short = "short"


def _default_dir(arg: str, path: Path) -> Path:
    """Beside the map file; a shipped map named by its id goes to the current folder."""
    return path.parent if os.path.exists(arg) else Path.cwd()


def output_format(output: str | None, pdf: bool, png: bool) -> str:
    """``svg``, ``pdf`` or ``png``: from --pdf/--png, else from the name given to -o.

    A name whose suffix says another format than the flag is refused: the file would
    lie about what it holds.
    """
    if pdf and png:
        fail("choose one of --pdf and --png", 2)
    flag = "pdf" if pdf else "png" if png else None
    named = FORMATS.get(Path(output).suffix.lower()) if output else None
    if flag and named and flag != named:
        fail(f"-o {output} names a {named.upper()} file but --{flag} asks for {flag.upper()}", 2)
    return flag or named or "svg"


def _paper_sheet(city, record_path: Path, record: dict, player: str, round_: int | None):
    """The player's sheet after ``round_`` (default: the end), from the rules engine."""
    from mapkit.engine.paper import sheet_after
    from mapkit.engine.record import RecordError

    if record["map"] != city.id:
        fail(f"{record_path} is a game on map {record['map']!r}, not {city.id!r}", 1)
    if player not in record["players"]:
        names = ", ".join(record["players"])
        fail(f"no player {player!r} in {record_path} (players: {names})", 1)
    try:
        return sheet_after(city, record, player, round=round_)
    except RecordError as exc:
        record_failure(record_path, exc)
    except ValueError as exc:  # a round past the end of the record
        fail(f"{record_path}: {exc}", 1)


def render(
    maps: Annotated[
        list[str] | None,
        typer.Argument(
            help="Map files or shipped city names (with --record: default the record's map).",
            metavar="MAP...",
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option(
            "-o",
            "--output",
            help="Output file (its suffix .svg/.pdf/.png sets the format), or an existing"
            " folder for several files.",
        ),
    ] = None,
    pdf: Annotated[bool, typer.Option("--pdf", help="Write PDF (several maps: one PDF).")] = False,
    png: Annotated[bool, typer.Option("--png", help="Write PNG (see --dpi).")] = False,
    dpi: Annotated[int, typer.Option(min=30, max=1200, help="PNG resolution.")] = 150,
    paper: Annotated[Paper, typer.Option(help="Paper size (landscape).")] = Paper.a4,
    copies: Annotated[int, typer.Option(min=1, max=500, help="PDF pad: sheets per map.")] = 1,
    grayscale: Annotated[
        bool, typer.Option(help="Black-and-white print: lines told apart by dash pattern.")
    ] = False,
    labels: Annotated[bool, typer.Option(help="Print station names where they fit.")] = False,
    background: Annotated[
        Background | None,
        typer.Option(
            help="home (default): white page, city colour in the title band and panel;"
            " full: colour to a 3 mm bleed with crop marks, for a print shop.",
            show_default=False,
        ),
    ] = None,
    back: Annotated[
        bool,
        typer.Option(
            "--back",
            help="PDF: a rules summary behind every sheet (front, back, ... for duplex).",
        ),
    ] = False,
    cards: Annotated[
        bool,
        typer.Option(
            "--cards",
            help="PDF: add the deck of the map's ruleset (14 cards in Voll verplant) to cut out.",
        ),
    ] = False,
    bleed: Annotated[
        bool,
        typer.Option(
            "--bleed",
            help="Colour to a 3 mm bleed without crop marks (implies --background full).",
        ),
    ] = False,
    cmyk: Annotated[
        bool,
        typer.Option("--cmyk", help="PDF: colours in CMYK, black text in black ink only (gs)."),
    ] = False,
    pad: Annotated[
        bool,
        typer.Option(
            "--pad", help="PDF: two maps, the first on the front and the second on the back."
        ),
    ] = False,
    flip: Annotated[
        Flip,
        typer.Option(
            help="Duplex: the edge your printer turns the sheet over (backs are turned to match)."
        ),
    ] = Flip.long,
    card_size: Annotated[
        str,
        typer.Option(help="--cards: poker (63x88 mm), bridge, tarot, or WxH in mm."),
    ] = "poker",
    solo: Annotated[
        bool,
        typer.Option(
            help="Score boxes captioned for a solo game (empty stations not halved);"
            " with --record, follows the record's player count."
        ),
    ] = False,
    record: Annotated[
        Path | None, typer.Option(help="A game record: draw a player's filled sheet.")
    ] = None,
    player: Annotated[str | None, typer.Option(help="Whose sheet (with --record).")] = None,
    round_: Annotated[
        int | None,
        typer.Option("--round", min=0, help="The sheet after this round (default: the end)."),
    ] = None,
    ruleset: RulesetOption = None,
) -> None:
    """Draw printable sheets: SVG by default, --pdf or --png (or as -o's suffix says).

    Without -o the file goes beside the map, named after it (a shipped city
    named by its id goes to the current folder). An existing output file is
    replaced; a device, pipe or symlink is written through.
    """
    from mapkit.render.pad import PadOptions, SheetStyle, draw_sheets

    if (pad or cmyk) and png:
        fail(f"--{'pad' if pad else 'cmyk'} makes a PDF: drop --png", 2)
    fmt = output_format(output, pdf or pad or cmyk, png)
    _check_pdf_options(fmt, maps, copies=copies, back=back, cards=cards, pad=pad, record=record)
    if bleed and background is Background.home:
        fail("--bleed is for a full-colour page: drop --background home", 2)
    if cmyk:
        _need_ghostscript()
    options = PadOptions(copies=copies, backs=back, pair=pad, flip=flip.value, cmyk=cmyk,
                         deck=_deck(paper.value, card_size) if cards else None)  # fmt: skip
    _check_record_options(maps, record, player, round_)
    doc = read_record(record) if record is not None else None
    if record is not None:
        paths = [record_map(record, doc, maps[0] if maps else None, "the MAP")]
        maps = maps or [doc["map"]]
    else:
        assert maps
        paths = map_paths(maps)
    inputs = [*paths, *([record] if record else [])]
    targets = _targets(maps, paths, fmt, output, _record_suffix(player, round_), inputs)

    cities = [load_or_fail(p, check_paper=paper.value, ruleset=ruleset) for p in paths]
    filled = None
    if doc is not None:
        assert player is not None and record is not None
        filled = _paper_sheet(cities[0], record, doc, player, round_)
        solo = _solo(record, doc, solo)
    style = SheetStyle(
        paper=paper.value,
        grayscale=grayscale,
        labels=labels,
        solo=solo,
        background=(Background.full if bleed else background or Background.home).value,
        crop_marks=not bleed,
    )
    drawn = draw_sheets(cities, style, backs=back, filled=filled)
    for city, path, placed in zip(cities, paths, drawn.labels, strict=True):
        if placed is not None:
            typer.echo(_labels_note(city, path, placed), err=True)
    _write(targets, inputs, fmt, cities, drawn, options, style, dpi)


def _record_suffix(player: str | None, round_: int | None) -> str:
    """What a filled sheet's file name adds to the map's: whose, and after which round."""
    if player is None:
        return ""
    return f"-{player}" + (f"-round{round_}" if round_ is not None else "")


def _solo(record: Path, doc: dict, solo: bool) -> bool:
    """A record's sheet is captioned for its own player count (--solo must agree)."""
    seats = len(doc["players"])
    if solo and seats > 1:
        fail(f"--solo, but {record} is a game of {seats} players", 2)
    return seats == 1


def _check_pdf_options(
    fmt: str, maps: list[str] | None, *, copies: int, back: bool, cards: bool, pad: bool,
    record: Path | None,
) -> None:  # fmt: skip
    """Refuse PDF-only options without a PDF, and --pad with what it cannot take."""
    if copies > 1 and fmt != "pdf":
        fail("--copies makes a PDF pad: add --pdf", 2)
    if (back or cards) and fmt != "pdf":
        fail("--back and --cards add PDF pages: add --pdf", 2)
    if pad and (maps is None or len(maps) != 2):
        fail("--pad prints one map on the front and another on the back: give exactly two", 2)
    if pad and back:
        fail("--pad prints the second map on the back: it cannot also take --back", 2)
    if pad and record is not None:
        fail("--pad draws blank sheets: it cannot take --record", 2)


def _need_ghostscript() -> None:
    import shutil

    from mapkit.render.export import GS_HINT

    if shutil.which("gs") is None:
        fail(GS_HINT, 2)


def _check_record_options(
    maps: list[str] | None, record: Path | None, player: str | None, round_: int | None
) -> None:
    if (record is None) != (player is None):
        fail("--record and --player go together", 2)
    if round_ is not None and record is None:
        fail("--round needs --record and --player", 2)
    if record is not None and maps and len(maps) != 1:
        fail("--record draws one map: give exactly one MAP", 2)
    if not maps and record is None:
        fail("name a map to draw (a map file or a shipped city)", 2)


def _deck(paper: str, spec: str) -> tuple[float, float]:
    """The --card-size asked for, when a deck of it fits on ``paper``."""
    from mapkit.render.cards import rule_size
    from mapkit.sheet import card_grid, card_size

    try:
        size = card_size(spec)
        card_grid(paper, size)
        rule_size(size)
    except ValueError as exc:
        fail(str(exc), 2)
    return size


def _file_names(stems: list[str], fmt: str, suffix: str) -> list[tuple[str, list[int]]]:
    """Each file's name and the maps it holds: one PDF of all, or one file per map."""
    ext = "." + fmt
    if fmt != "pdf":
        return [(stem + suffix + ext, [i]) for i, stem in enumerate(stems)]
    if len(stems) == 1:
        return [(stems[0] + suffix + ext, [0])]
    name = "-".join(stems[:4])
    if len(stems) > 4:
        name += f"-and-{len(stems) - 4}-more"
    return [(name + ext, list(range(len(stems))))]


def _targets(
    maps: list[str], paths: list[Path], fmt: str, output: str | None, suffix: str,
    inputs: list[Path],
) -> list[tuple[Path, list[int]]]:  # fmt: skip
    """Where each file goes (-o a file, a folder, or beside the map), checked before any
    drawing: no input overwritten, no map file replaced, no two maps on one file."""
    jobs = _file_names([p.stem for p in paths], fmt, suffix)
    out_dir = output is not None and not output.endswith("/") and os.path.isdir(output)
    if output is not None and not out_dir and len(jobs) > 1:
        fail(
            f"{len(jobs)} files to write but -o {output} is not a folder"
            " (name an existing folder, or use --pdf for one multi-page PDF)",
            2,
        )
    targets: list[tuple[Path, list[int]]] = []
    seen: set[Path] = set()
    for name, idx in jobs:
        if output is None:
            shown = _default_dir(maps[idx[0]], paths[idx[0]]) / name
        elif out_dir:
            shown = Path(output) / name
        else:
            shown = output  # type: ignore[assignment]  # as given: "./x.svg" stays so
        target = output_path(shown, inputs, trial=True)
        ext = Path(shown).suffix.lower()
        if ext and ext not in FORMATS:
            fail(f"-o {shown}: a sheet is a .svg, .pdf or .png file, not {ext}", 2)
        not_a_map(target, f"a {fmt.upper()} sheet")
        if target.resolve() in seen:
            fail(
                f"two maps would both be written to {shown}: render them one at a time,"
                " or use --pdf for one multi-page PDF",
                2,
            )
        seen.add(target.resolve())
        targets.append((Path(shown), idx))
    return targets


def _labels_note(city, path: Path, placed) -> str:
    """How many station names --labels placed, and which it left out."""
    msg = f"{path.name}: {placed.placed} of {placed.wanted} station names placed"
    if placed.skipped:
        names = ", ".join(city.station(sid).label for sid in placed.skipped)
        msg += f"; {len(placed.skipped)} left out for lack of room: {names}"
    return msg


def _write(targets, inputs, fmt, cities, drawn, options, style, dpi) -> None:
    """Each file made and written in place of what was there, atomically; Ctrl-C waits for
    a page to end, and a file is never left half-written."""
    from mapkit.atomic import OutputError, path_problem, write_bytes
    from mapkit.render.export import ExportError
    from mapkit.render.pad import sheet_file
    from mapkit.signals import deferred

    try:
        for target, idx in targets:
            with drawing_warnings(), deferred() as held:  # cairo calls back into Python
                blob = sheet_file(fmt, cities, drawn, idx, pad=options, style=style, dpi=dpi,
                                  check=held.check)  # fmt: skip
            try:
                write_bytes(target, blob, inputs=inputs)
            except OSError as exc:
                fail(f"cannot write {path_problem(exc, target)}", 1)
            typer.echo(f"wrote {target}")
    except OutputError as exc:
        fail(str(exc), 2)
    except ExportError as exc:
        fail(str(exc), 1)


def register(app: typer.Typer) -> None:
    app.command()(render)
