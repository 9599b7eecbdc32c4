"""``mapkit studio``: edit a map in the browser with the checks live (mapkit.studio)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mapkit.cli.common import fail


def _map_path(map: str | None) -> tuple[Path, bool]:
    """The file to edit (a new one may not exist yet), and whether it is a shipped city,
    opened read-only."""
    from mapkit.resources import resolve_map

    path = resolve_map(map) if map else Path("new-city.json")
    readonly = map is not None and path != Path(map)  # a shipped city named, not a path
    if path.is_dir():
        fail(f"{map} is a folder; name a map file (e.g. {map}/my-city.json)", 2)
    if path.exists() and not path.is_file():
        fail(f"{map} is not a regular file (a device or a pipe?); name a map file", 2)
    if not path.exists() and not path.parent.resolve().is_dir():
        fail(f"the folder {path.parent} does not exist", 2)
    return path, readonly


def studio(
    map: Annotated[
        str | None,
        typer.Argument(
            help="A map file (a new one if it does not exist yet) or a shipped city name "
            "(opened read-only: use save as)."
        ),
    ] = None,
    port: Annotated[
        int | None,
        typer.Option(
            help="Port on 127.0.0.1 (0: any free one). Default: a port derived from the map's "
            "path when free (so the browser's autosave finds the map again), else a free one.",
            show_default=False,
        ),
    ] = None,
    browser: Annotated[
        bool, typer.Option("--browser/--no-browser", help="Open the page in the default browser.")
    ] = True,
    root: Annotated[
        str | None,
        typer.Option(
            help='The folder "Save as" writes in (default: the map\'s folder; for a shipped '
            "city the current folder).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Design a map in the browser: draw, see every problem live, play-test, save.

    Serves one map on http://127.0.0.1:PORT/?token=... until Ctrl+C (the token keeps other
    programs and users out). Nothing is written until you save; a new map is written where
    MAP says, "save as" only inside the map's folder (or --root).
    """
    import os

    path, readonly = _map_path(map)
    if port is not None and not 0 <= port <= 65535:
        fail("--port must be 0 (a free port) up to 65535", 2)
    if root is not None and not os.path.isdir(root):
        fail(f"--root {root}: no such folder", 2)

    from mapkit.studio.session import Session

    try:
        session = Session(path, readonly=readonly, root=Path(root) if root else None)
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}", 2)
    except ValueError as exc:
        fail(
            f"cannot open {path}: {exc}; fix it in a text editor first "
            f"(`mapkit validate {path}` shows every problem)",
            1,
        )

    from mapkit.studio.serve import Server, listen

    try:
        sock = listen(path, port)
    except OSError as exc:
        fail(f"cannot serve on port {port}: {exc.strerror}", 2)
    served = Server(session, sock)
    url = served.url
    state = "read-only (use save as)" if readonly else "new: nothing written until you save"
    note = "" if path.exists() and not readonly else f" [{state}]"
    typer.echo(f"mapkit studio: {path}{note}\n  {url}  (Ctrl+C to stop)", err=True)
    if browser:
        import threading
        import webbrowser

        threading.Timer(0.3, webbrowser.open, args=(url,)).start()
    served.run()


def register(app: typer.Typer) -> None:
    app.command()(studio)
