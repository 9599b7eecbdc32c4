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
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _register() -> None:
    import importlib

    for name in ("maps", "render", "play", "simulate", "design", "studio"):
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
