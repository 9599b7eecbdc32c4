"""One table of output formats (``mapkit.formats``) behind every command's ``--format``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit import formats
from mapkit.cli import app
from mapkit.intersections import intersections
from mapkit.mapfile import load_map
from mapkit.resources import resolve_map

runner = CliRunner()


@pytest.mark.parametrize("kind", sorted(formats.WRITERS))
def test_every_command_offers_exactly_the_formats_of_its_report(kind):
    shown = "|".join(formats.WRITERS[kind])
    res = runner.invoke(app, [kind, "--help"], terminal_width=200)
    assert f"-f, --format <{shown}>" in res.output
    assert next(iter(formats.WRITERS[kind])) == "text"


def test_a_format_the_report_lacks_is_a_usage_error():
    res = runner.invoke(app, ["simulate", "berlin", "-f", "csv"])
    assert res.exit_code == 2 and "'csv' is not one of 'text', 'json'" in res.output


@pytest.mark.parametrize(
    "kind, fmt", [(k, f) for k, table in formats.WRITERS.items() for f in table]
)
def test_every_writer_is_a_function(kind, fmt):
    assert callable(formats.writer(kind, fmt))


def test_the_formats_a_report_lacks_are_refused():
    with pytest.raises(KeyError):
        formats.writer("simulate", "csv")
    with pytest.raises(ValueError):
        formats.writer("simulate", "yaml")


def test_text_options_reach_the_text_writer_only():
    report = intersections(load_map(resolve_map("berlin")))
    assert formats.write("intersections", report, "json") == (
        json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"
    )
    with pytest.raises(TypeError):  # the intersections table takes no options
        formats.write("intersections", report, "text", color=True)
    assert formats.write("intersections", report, "csv", color=True).startswith(
        "id,name,count,lines\n"
    )


@pytest.mark.parametrize(
    "name, fmt, message",
    [
        ("r.json", "text", "-o r.json names a json file but the format is text"),
        ("r.HTM", "json", "-o r.HTM names a html file but the format is json"),
        ("r.htm", "html", None),
        ("r.out", "json", None),
        ("report", "html", None),
    ],
)
def test_an_output_suffix_must_not_name_another_format(name, fmt, message):
    assert formats.suffix_conflict(Path(name), fmt) == message
