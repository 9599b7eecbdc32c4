"""Shared fixtures: a tiny valid map document and the benchmark maps."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import typer.main
import typer.testing

pytest_plugins = ("tests.studio_browser",)  # the browser tests' ``browser`` and ``studio``

ROOT = Path(__file__).resolve().parent.parent
BENCHMARK_MAPS = ROOT / "benchmarks" / "maps"

TINY = {
    "$schema": "../schemas/map.schema.json",
    "format": "mapkit-map/1",
    "id": "tiny",
    "name": "Tiny",
    "stations": [
        {"id": "a", "x": 0, "y": 0, "name": "Alpha"},
        {"id": "b", "x": 2, "y": 0},
        {"id": "c", "x": 4, "y": 0},
        {"id": "d", "x": 2, "y": 2, "special": True},
    ],
    "lines": [
        {
            "id": "A",
            "color": "#d11e29",
            "windows": 2,
            "points": {"first": 3, "others": 1},
            "depot": {"x": -2, "y": 0},
            "stops": ["a", "b", "c"],
        },
        {
            "id": "B",
            "color": "#1f5fbf",
            "windows": 1,
            "points": {"first": 2, "others": 1},
            "depot": {"x": 2, "y": 4},
            "stops": ["d", "b"],
        },
    ],
}


_COMMANDS: dict[typer.Typer, object] = {}


def _command(app: typer.Typer) -> object:
    """The click command of ``app``, built once: ``CliRunner.invoke`` would rebuild mapkit's
    whole command tree (every option of every command, from the type hints) on each call,
    30 ms that added up to about 21 s of the suite's 144 s of CPU; the tree never changes."""
    if app not in _COMMANDS:
        _COMMANDS[app] = typer.main.get_command(app)
    return _COMMANDS[app]


typer.testing._get_command = _command  # what CliRunner.invoke calls for each invocation


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """One worker per core by default (``-n auto``) when pytest-xdist is loaded; so
    ``-p no:xdist`` runs in one process and ``-n 0``/``-n 2`` still choose."""
    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("xdist"):
        return
    if config.option.numprocesses is None and not config.option.collectonly:
        config.option.numprocesses = "auto"
        if config.option.dist == "no":  # an idle worker takes tests queued for a busy one
            config.option.dist = "worksteal"


@pytest.fixture
def tiny_doc() -> dict:
    return copy.deepcopy(TINY)


def dumps(doc: object) -> str:
    return json.dumps(doc, indent=2)


@pytest.fixture
def benchmark_maps() -> Path:
    """The published Metro X sheets, copied into the repository (benchmarks/maps/README.md)."""
    return BENCHMARK_MAPS
