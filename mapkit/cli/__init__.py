"""The ``mapkit`` command line: thin Typer commands over the library.

Each submodule registers its commands, and a run builds only the one it needs; heavy
libraries are imported inside the commands so that ``mapkit --help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Iterable

import typer

COMMANDS: dict[str, str] = {
    "validate": "maps", "rules": "maps", "intersections": "maps", "schema": "maps",
    "render": "render", "play": "play", "replay": "play", "simulate": "simulate",
    "report": "design", "tune": "design", "compare": "design", "layout": "layout",
    "import": "importers", "studio": "studio",
}  # fmt: skip
"""Each command's module in this package (its ``register`` adds it): a run imports and builds
only the module of the command it names (the whole tree cost ~40 ms of CPU at start-up);
``tests/test_cli_maps.py`` holds this table to what the modules register."""


def _version(value: bool) -> None:
    if value:
        from mapkit import __version__

        typer.echo(f"mapkit {__version__}")
        raise typer.Exit()


def _options(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Design, validate, render and simulate city maps for the subway game Voll verplant."""


def build(modules: Iterable[str] | None = None) -> typer.Typer:
    """The command line with the commands of ``modules`` (default: every command)."""
    import importlib

    app = typer.Typer(
        name="mapkit",
        help="Design, validate, render and simulate city maps for the subway game Voll verplant.",
        no_args_is_help=True,
        add_completion=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    app.callback()(_options)
    for name in dict.fromkeys(COMMANDS.values()) if modules is None else modules:
        importlib.import_module(f"mapkit.cli.{name}").register(app)
    return app


def __getattr__(name: str) -> typer.Typer:
    """``app``: the whole command line, built on first use (for tests and notebooks)."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    app = globals()["app"] = build()
    return app


def _for(argv: list[str]) -> typer.Typer:
    """The command line a run needs: only the named command's module when the first argument
    names a command, the whole one for anything else (help, --version, a typo, completion)."""
    import os

    module = COMMANDS.get(argv[0]) if argv else None
    if module is None or any(k.startswith("_MAPKIT_COMPLETE") for k in os.environ):
        return __getattr__("app")
    return build([module])


def main() -> None:
    import sys

    from mapkit.signals import Interrupted, finished, install, received

    install()
    try:
        _for(sys.argv[1:])()
    except Interrupted as exc:
        typer.echo(f"\nmapkit: {exc.message}", err=True)
        sys.exit(exc.exit_code)
    except Exception:
        signum = received()
        if signum is None:
            raise
        stop = Interrupted(signum)
        typer.echo(f"\nmapkit: {stop.message}", err=True)
        sys.exit(stop.exit_code)
    finally:
        finished()
