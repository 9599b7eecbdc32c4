"""The ``mapkit`` command line: thin Typer commands over the library.

Each submodule registers its commands; heavy libraries are imported inside the
commands so that ``mapkit --help`` stays fast.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="mapkit",
    help="Design, validate, render and simulate city maps for the subway game Voll verplant.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        from mapkit import __version__

        typer.echo(f"mapkit {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Design, validate, render and simulate city maps for the subway game Voll verplant."""


def _register() -> None:
    import importlib

    for name in ("maps", "render", "play", "simulate", "design", "layout", "importers", "studio"):
        importlib.import_module(f"mapkit.cli.{name}").register(app)


_register()


def main() -> None:
    import sys

    from mapkit.signals import Interrupted, finished, install, received

    install()
    try:
        app()
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
