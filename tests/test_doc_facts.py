"""Figures in README and docs that are facts of the code, checked against their source.

Print sizes come from ``mapkit.sheet.METRICS``, bounds from the schemas and the reader's
limits, thresholds from the checks. A figure that changes in the code fails here until the
text says the new one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mapkit.checks import design
from mapkit.engine.actions import MAX_ROUTES
from mapkit.mapfile import MAX_FILE_BYTES
from mapkit.mapfile.jsonpos import MAX_DEPTH
from mapkit.mapfile.model import MAX_UNITS
from mapkit.notices import NOTICES
from mapkit.sheet import METRICS as M

ROOT = Path(__file__).resolve().parent.parent
MAP_SCHEMA = json.loads((ROOT / "schemas" / "map.schema.json").read_text(encoding="utf-8"))
GAME_SCHEMA = json.loads((ROOT / "schemas" / "game.schema.json").read_text(encoding="utf-8"))


def g(value: float) -> str:
    """A figure as the docs write it: no trailing zeros (``5``, ``6.6``, ``3.175``)."""
    return f"{round(value, 3):g}"


def thousands(value: float) -> str:
    return f"{value:,.0f}"


def pct(value: float) -> str:
    return f"{value * 100:g}%"


def _schema(*path: str) -> dict:
    node = MAP_SCHEMA
    for key in path:
        node = node[key]
    return node


STATIONS = _schema("properties", "stations")
LINES = _schema("properties", "lines")
LINE = _schema("definitions", "line", "properties")
COORD = _schema("definitions", "coordinate")
POINTS = LINE["points"]["properties"]["first"]
ROUNDS = GAME_SCHEMA["properties"]["rounds"]
BOUNDS = (
    f"{STATIONS['maxItems']} stations, {LINES['maxItems']} lines, "
    f"{LINE['stops']['maxItems']} stops and {LINE['shape']['maxItems']} shape points a line"
)
MIB = MAX_FILE_BYTES / (1 << 20)
WORDS = {2: "two", 3: "three", 4: "four", 8: "eight"}

FACTS: list[tuple[str, str]] = [
    (
        "README.md",
        f"windows leave {g(M.window_inside)} mm and station circles {g(M.station_inside)} mm "
        f"to write in, lines that run together are drawn {g(M.parallel_step)} mm apart in one "
        f"order, nothing lies within {g(M.margin)} mm of the edge",
    ),
    ("README.md", f"colour to a {g(M.bleed)} mm bleed"),
    (
        "README.md",
        f"({BOUNDS}, coordinates within ±{thousands(COORD['maximum'])}, points up to "
        f"{POINTS['maximum']}, {ROUNDS['maxItems']} rounds",
    ),
    ("README.md", f"a map or record is read up to {g(MIB)} MiB"),
    (
        "docs/rendering.md",
        f"| window box | {g(M.box)} mm cell, **{g(M.window_inside)} mm clear inside** its "
        f"{g(M.window_stroke)} mm outline (at least {g(M.min_window_inside)} mm: `GEO006`) |",
    ),
    (
        "docs/rendering.md",
        f"| station circle | {g(2 * M.station_r)} mm across, **{g(M.station_inside)} mm clear "
        f"inside** the {g(M.interchange_stroke)} mm ring of an interchange "
        f"({2 * M.station_r - M.station_stroke:.1f} mm inside a plain {g(M.station_stroke)} mm "
        f"ring; at least {g(M.min_station_inside)} mm) |",
    ),
    ("docs/rendering.md", f"| line | {g(M.line_w)} mm stroke |"),
    ("README.md", f"a map of more than {MAX_UNITS} scoring units"),
    ("docs/rules-notes.md", f"most {MAX_UNITS} scoring units (a line, or each branch)"),
    ("docs/map-format.md", f"a map has at most {MAX_UNITS} scoring units"),
    ("docs/rules-notes.md", f"Two to {WORDS[MAX_ROUTES]} branches"),
    ("docs/map-format.md", f"two to {WORDS[MAX_ROUTES]} branches"),
    ("README.md", f"each of its two to {WORDS[MAX_ROUTES]} branches"),
    (
        "docs/rendering.md",
        f"neighbouring lines **{g(M.parallel_step)} mm** apart, centre to centre (stroke + "
        f"{g(M.parallel_gap)} mm gap)",
    ),
    ("docs/rendering.md", f"nothing printed within **{g(M.margin)} mm** of the paper edge"),
    (
        "docs/rendering.md",
        f"{g(M.bleed)} mm of colour beyond the trim; with crop marks, {g(M.crop_mark)} mm long",
    ),
    (
        "docs/rendering.md",
        f"{g(M.parallel_step)} mm between neighbouring centres (so {g(M.parallel_gap)} mm of "
        f"paper between {g(M.line_w)} mm strokes)",
    ),
    ("docs/authoring.md", f"leaving {g(M.station_inside)} mm inside for a felt-tip cross"),
    ("docs/authoring.md", f"side by side, {g(M.parallel_step)} mm apart"),
    (
        "docs/authoring.md",
        f"one {g(M.box)} mm box per window ({g(M.window_inside)} mm to write in",
    ),
    (
        "docs/map-format.md",
        f"| file | at most {g(MIB)} MiB ({thousands(MAX_FILE_BYTES)} bytes); mapkit reads no "
        "more (JSON006) |",
    ),
    ("docs/map-format.md", f"| nesting | at most {MAX_DEPTH} levels (JSON005) |"),
    ("docs/map-format.md", f"| `stations` | {STATIONS['minItems']} to {STATIONS['maxItems']} |"),
    ("docs/map-format.md", f"| `lines` | {LINES['minItems']} to {LINES['maxItems']} |"),
    (
        "docs/map-format.md",
        f"| `stops` of a line | {LINE['stops']['minItems']} to {LINE['stops']['maxItems']} (ids "
        f"of at most {LINE['stops']['items']['maxLength']} characters) |",
    ),
    (
        "docs/map-format.md",
        f"| `shape` of a line | {LINE['shape']['minItems']} to {LINE['shape']['maxItems']} "
        "points |",
    ),
    (
        "docs/map-format.md",
        f"| coordinates (`x`, `y`, depot, shape points) | {thousands(COORD['minimum'])} to "
        f"{thousands(COORD['maximum'])} map units |",
    ),
    (
        "docs/map-format.md",
        f"| `windows` | {LINE['windows']['minimum']} to {LINE['windows']['maximum']} |",
    ),
    (
        "docs/map-format.md",
        f"| `points.first`, `points.others` | {POINTS['minimum']} to {POINTS['maximum']} |",
    ),
]

RULES: list[tuple[str, str]] = [
    ("JSON005", f"nested more than {MAX_DEPTH} levels deep"),
    ("JSON006", f"more than {g(MIB)} MiB ({thousands(MAX_FILE_BYTES)} bytes)"),
    ("JSON006", f"The schema bounds every list ({BOUNDS})"),
    ("GEO001", f"circle radius ({g(M.station_r)} mm) + half the line width ({g(M.line_w / 2)} mm)"),
    (
        "GEO002",
        f"(2 x {g(M.station_r)} mm + {g(M.station_clearance)} mm clearance = "
        f"{g(M.min_station_distance)} mm, centre to centre; the radius {g(M.station_r)} mm "
        f"leaves the {g(M.station_inside)} mm writing room",
    ),
    ("GEO006", f"`Metrics.min_window_inside` ({g(M.min_window_inside)} mm"),
    (
        "GEO006",
        f"plus a {g(M.window_inset)} mm inset on each side and the {g(M.window_stroke)} mm "
        f"outline, so at least {g(M.min_box)} mm",
    ),
    ("GEO006", f"letter {g(M.letter_w)} mm + windows x {g(M.min_box)} mm + padding"),
    ("GEO007", f"`metrics.near_line` ({g(M.near_line)} mm)"),
    ("GEO009", f"`metrics.min_panel_row_h` ({g(M.min_panel_row_h)} mm)"),
    ("DES002", f"is below **{pct(design.MIN_CHANCE)}**"),
    ("DES003", f"printed lines come within {g(design.MEET_MM)} mm"),
    (
        "DES003",
        f"ΔE00 < **{g(design.MIN_DE_NORMAL)}** under normal vision, or < "
        f"**{g(design.MIN_DE_CVD)}** under any of the three dichromacies",
    ),
    (
        "DES003",
        f"below **{g(design.MIN_DE_NORMAL_APART)}** (normal) or **{g(design.MIN_DE_CVD_APART)}**",
    ),
    (
        "DES004",
        f"< **{g(design.MIN_SHEET_DE_NORMAL)}** under normal vision, or < "
        f"**{g(design.MIN_SHEET_DE_CVD)}** under any simulated dichromacy, or CIELAB lightness "
        f"L* > **{g(design.MAX_LIGHTNESS)}**",
    ),
    ("DES005", f"at least {g(design.BONUS_MIN_CHANCE_GAP * 100)} points lower"),
    ("REF013", f"the rules engine plays at most {MAX_UNITS} on a map"),
    (
        "DES006",
        f"more than **{g(design.OCTILINEAR_TOL)}°** from a multiple of 45°, when above "
        f"**{pct(design.MAX_OFF_OCTILINEAR)}**, or a stop spacing whose longest gap is more than "
        f"**{g(design.MAX_SPACING_RATIO)}** times its shortest",
    ),
]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize(("doc", "fact"), FACTS)
def test_docs_state_the_figures_of_the_code(doc: str, fact: str) -> None:
    assert _flat(fact) in _flat((ROOT / doc).read_text(encoding="utf-8")), (doc, fact)


@pytest.mark.parametrize(("code", "fact"), RULES)
def test_rule_texts_state_the_figures_of_the_checks(code: str, fact: str) -> None:
    assert fact in _flat(NOTICES[code].about), (code, fact)
