"""``mapkit render``: printable sheets (SVG, PDF, PNG), blank or filled from a game record."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from mapkit.cli.common import Paper, fail, load_or_fail, map_paths, read_record


class Background(StrEnum):
    home = "home"
    full = "full"


def _default_dir(arg: str, path: Path) -> Path:
    """Beside the map file; a shipped map named by its id goes to the current folder."""
    return path.parent if Path(arg).exists() else Path.cwd()


def _paper_sheet(city, record_path: Path, player: str, round_: int | None):
    """The player's sheet after ``round_`` (default: the end), from the rules engine."""
    record = read_record(record_path)
    if not isinstance(record, dict):
        fail(f"{record_path} is not a game record (expected a JSON object)", 1)
    if record.get("map") not in (None, city.id):
        fail(f"{record_path} is a game on map {record.get('map')!r}, not {city.id!r}", 1)
    players = record.get("players")
    if isinstance(players, list) and player not in players:
        names = ", ".join(str(p) for p in players)
        fail(f"no player {player!r} in {record_path} (players: {names})", 1)
    try:
        from mapkit.engine.paper import sheet_after
    except ImportError:
        fail("filled sheets need the rules engine (mapkit.engine.paper), missing here", 1)
    try:
        return sheet_after(city, record, player, round=round_)
    except Exception as exc:  # the engine's verdict on a bad record, shown as one line
        fail(f"{record_path}: {exc}", 1)


def render(
    maps: Annotated[
        list[str], typer.Argument(help="Map files or shipped city names.", metavar="MAP...")
    ],
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="Output file, or a folder for several files."),
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
        Background,
        typer.Option(
            help="home: white page, city colour in the title band and panel;"
            " full: colour to a 3 mm bleed with crop marks, for a print shop."
        ),
    ] = Background.home,
    back: Annotated[
        bool,
        typer.Option(
            "--back",
            help="PDF: a rules summary behind every sheet (front, back, ... for duplex).",
        ),
    ] = False,
    cards: Annotated[
        bool, typer.Option("--cards", help="PDF: add a page with the 14 cards to cut out.")
    ] = False,
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
) -> None:
    """Draw printable sheets: SVG by default, --pdf or --png.

    Without -o the file goes beside the map, named after it (a shipped city
    named by its id goes to the current folder).
    """
    from mapkit.atomic import OutputError, write_bytes

    if pdf and png:
        fail("choose one of --pdf and --png", 2)
    if copies > 1 and not pdf:
        fail("--copies makes a PDF pad: add --pdf", 2)
    if (back or cards) and not pdf:
        fail("--back and --cards add PDF pages: add --pdf", 2)
    if (record is None) != (player is None):
        fail("--record and --player go together", 2)
    if round_ is not None and record is None:
        fail("--round needs --record and --player", 2)
    if record is not None and len(maps) != 1:
        fail("--record draws one map: give exactly one MAP", 2)
    if record is not None and not record.is_file():
        fail(f"no such game record: {record}", 2)

    paths = map_paths(maps)
    cities = [load_or_fail(p, check_paper=paper.value) for p in paths]
    filled = None
    if record is not None:
        assert player is not None
        filled = _paper_sheet(cities[0], record, player, round_)
        seats = len(read_record(record).get("players") or ())
        if solo and seats > 1:
            fail(f"--solo, but {record} is a game of {seats} players", 2)
        solo = seats == 1

    from mapkit.render.back import back_svg, cards_svg
    from mapkit.render.svg import sheet_svg

    ext = ".pdf" if pdf else ".png" if png else ".svg"
    svgs = []
    backs = []
    for city, path in zip(cities, paths, strict=True):
        if back:
            backs.append(back_svg(city, paper=paper.value, grayscale=grayscale, solo=solo))
        res = sheet_svg(
            city,
            paper=paper.value,
            grayscale=grayscale,
            labels=labels,
            filled=filled,
            solo=solo,
            background=background.value,
        )
        svgs.append(res.svg)
        if res.labels is not None:
            lr = res.labels
            msg = f"{path.name}: {lr.placed} of {lr.wanted} station names placed"
            if lr.skipped:
                names = ", ".join(city.station(sid).label for sid in lr.skipped)
                msg += f"; {len(lr.skipped)} left out for lack of room: {names}"
            typer.echo(msg, err=True)

    def stem(i: int) -> str:
        s = paths[i].stem
        if filled is not None:
            s += f"-{player}" + (f"-round{round_}" if round_ is not None else "")
        return s

    if pdf:
        name = "-".join(p.stem for p in paths[:4])
        if len(paths) > 4:
            name += f"-and-{len(paths) - 4}-more"
        if len(paths) == 1:
            name = stem(0)
        jobs = [(name + ext, list(range(len(paths))))]
    else:
        jobs = [(stem(i) + ext, [i]) for i in range(len(paths))]

    if output is not None and not output.is_dir() and len(jobs) > 1:
        fail(
            f"{len(jobs)} files to write but -o {output} is not a folder"
            " (name an existing folder, or use --pdf for one multi-page PDF)",
            2,
        )
    targets = []
    for name, idx in jobs:
        if output is None:
            target = _default_dir(maps[idx[0]], paths[idx[0]]) / name
        elif output.is_dir():
            target = output / name
        else:
            target = output
        targets.append((target, idx))
    seen: set[Path] = set()
    for target, _idx in targets:
        if target.resolve() in seen:
            fail(
                f"two maps would both be written to {target}: render them one at a time,"
                " or use --pdf for one multi-page PDF",
                2,
            )
        seen.add(target.resolve())

    from mapkit.render.export import ExportError, svg_to_png, svgs_to_pdf

    inputs = [*paths, *([record] if record else [])]
    try:
        blobs = []
        for _target, idx in targets:
            if pdf:
                pages = [
                    page
                    for i in idx
                    for _ in range(copies)
                    for page in ([svgs[i], backs[i]] if back else [svgs[i]])
                ]
                if cards:
                    pages.append(cards_svg(paper.value))
                title = ", ".join(c.name for c in (cities[i] for i in idx))
                blobs.append(svgs_to_pdf(pages, title=title))
            elif png:
                blobs.append(svg_to_png(svgs[idx[0]], dpi=dpi))
            else:
                blobs.append(svgs[idx[0]].encode("utf-8"))
        for (target, _idx), blob in zip(targets, blobs, strict=True):
            write_bytes(target, blob, inputs=inputs)
            typer.echo(f"wrote {target}")
    except OutputError as exc:
        fail(str(exc), 2)
    except ExportError as exc:
        fail(str(exc), 1)
    except OSError as exc:
        fail(f"cannot write {exc.filename or 'the output'}: {exc.strerror}", 1)


def register(app: typer.Typer) -> None:
    app.command()(render)
