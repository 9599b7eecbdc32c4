"""The four shipped cities and the two examples: game proportions, and validate is clean.

Proportions follow the published game (../shared/facts.md): 9 or 10 lines A, B, C, ...,
1 to 4 windows each, 20 to 26 in all, about 60 to 80 stations, real hubs of 3 to 5 lines,
Berlin's Ring and Madrid's line 6 as loops, special stations in Paris and Madrid.
"""

from __future__ import annotations

import json
import string
from collections import Counter
from pathlib import Path

import pytest

from mapkit.checks import validate_path
from mapkit.mapfile import load_map
from mapkit.notices import Severity

ROOT = Path(__file__).resolve().parents[1]
CITIES = ("amsterdam", "berlin", "paris", "madrid")
EXAMPLES = ("minimal", "tutorial")
AMSTERDAM_BONUSES = {
    "A": (5, 3), "B": (4, 2), "C": (7, 5), "D": (6, 4), "E": (6, 4),
    "F": (3, 2), "G": (3, 2), "H": (4, 2), "I": (4, 2), "J": (2, 1),
}  # fmt: skip
LOOPS = {"amsterdam": set(), "berlin": {"C"}, "paris": set(), "madrid": {"J"}}
SPECIALS = {"amsterdam": False, "berlin": False, "paris": True, "madrid": True}


def _path(name: str) -> Path:
    return ROOT / "maps" / f"{name}.json"


def _difficulty(city) -> float:
    """Mean over lines of (own stops + half the shared stops) per window."""
    loads = []
    for ln in city.lines:
        shared = sum(city.intersection_count(s) > 1 for s in ln.stops)
        loads.append((len(ln.stops) - shared + 0.5 * shared) / ln.windows)
    return sum(loads) / len(loads)


@pytest.fixture(scope="module", params=CITIES)
def city(request):
    return request.param, load_map(_path(request.param))


def test_document_header(city) -> None:
    name, _ = city
    doc = json.loads(_path(name).read_text(encoding="utf-8"))
    assert doc["$schema"] == "../schemas/map.schema.json"
    assert doc["format"] == "mapkit-map/1"
    assert doc["id"] == name
    assert doc["name"] == name.capitalize()
    assert all(s.get("name") for s in doc["stations"])
    assert all(ln.get("name") for ln in doc["lines"])


def test_lines_and_windows(city) -> None:
    _, m = city
    ids = [ln.id for ln in m.lines]
    assert len(ids) in (9, 10)
    assert ids == list(string.ascii_uppercase[: len(ids)])
    assert all(1 <= ln.windows <= 4 for ln in m.lines)
    assert 20 <= m.total_windows <= 26
    assert all(ln.first >= ln.others for ln in m.lines)


def test_stations_and_hubs(city) -> None:
    _, m = city
    assert 60 <= len(m.stations) <= 80
    hist = Counter(m.intersections.values())
    assert max(hist) <= 5
    assert sum(n for k, n in hist.items() if k >= 3) >= 5, hist
    assert hist[2] >= 10, hist
    assert sum(n for k, n in hist.items() if k >= 4) >= 1, hist


def test_loops_and_specials(city) -> None:
    name, m = city
    assert {ln.id for ln in m.lines if ln.loop} == LOOPS[name]
    specials = m.special_stations
    if SPECIALS[name]:
        assert 3 <= len(specials) <= 5
        served = {s for ln in m.lines for s in ln.stops}
        assert all(s.id in served for s in specials)
    else:
        assert specials == ()


def test_sheet_colours_differ() -> None:
    colours = {load_map(_path(n)).sheet_color for n in CITIES}
    assert len(colours) == len(CITIES)
    assert "#ffffff" not in colours


def test_amsterdam_uses_the_published_bonuses() -> None:
    m = load_map(_path("amsterdam"))
    for ln in m.lines:
        assert (ln.first, ln.others) == AMSTERDAM_BONUSES[ln.id], ln.id
    longest = max(m.lines, key=lambda ln: len(ln.stops))
    assert longest.id == "C"


def test_difficulty_grows_from_amsterdam_to_madrid() -> None:
    scores = [_difficulty(load_map(_path(n))) for n in CITIES]
    assert scores == sorted(scores)
    assert len(set(scores)) == len(scores)


@pytest.mark.parametrize(
    "path",
    [f"maps/{n}.json" for n in CITIES] + [f"examples/{n}.json" for n in EXAMPLES],
)
def test_validate_reports_no_errors_and_no_warnings(path: str) -> None:
    report = validate_path(ROOT / path)
    bad = [d for d in report.diagnostics if d.severity is not Severity.INFO]
    assert bad == [], [f"{d.code} {d.message}" for d in bad]


def test_tutorial_shows_every_feature() -> None:
    m = load_map(ROOT / "examples" / "tutorial.json")
    assert 4 <= len(m.lines) <= 5
    assert any(ln.loop for ln in m.lines)
    assert any(ln.shape for ln in m.lines)
    assert m.special_stations


def test_minimal_is_small() -> None:
    m = load_map(ROOT / "examples" / "minimal.json")
    assert 2 <= len(m.lines) <= 3
