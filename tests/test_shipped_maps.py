"""The four shipped cities and the two examples: game proportions, and validate is clean.

Proportions follow the published game (docs/authoring.md): 9 or 10 lines A, B, C, ...,
1 to 4 windows each, 20 to 26 in all, about 60 to 80 stations, real hubs of 3 to 5 lines,
Berlin's Ring and Madrid's line 6 as loops, special stations in Paris and Madrid.
Difficulty is measured by play: the greedy bot's solo mean falls from Amsterdam to Madrid.
"""

from __future__ import annotations

import itertools
import json
import statistics
import string
from collections import Counter
from pathlib import Path

import pytest

from mapkit.checks import validate_path
from mapkit.mapfile import load_map

ROOT = Path(__file__).resolve().parents[1]
CITIES = ("amsterdam", "berlin", "paris", "madrid")
EXAMPLES = ("minimal", "tutorial")
AMSTERDAM_BONUSES = {
    "A": (5, 3), "B": (4, 2), "C": (7, 5), "D": (6, 4), "E": (6, 4),
    "F": (3, 2), "G": (3, 2), "H": (4, 2), "I": (4, 2), "J": (2, 1),
}  # fmt: skip
LOOPS = {"amsterdam": set(), "berlin": {"C"}, "paris": set(), "madrid": {"J"}}
SPECIALS = {"amsterdam": False, "berlin": False, "paris": True, "madrid": True}
SIM_GAMES = 300
SIM_SEED = 1
MIN_STEP = 2.0  # points of greedy solo mean between neighbouring cities (1000 games: 4 to 5)


def _path(name: str) -> Path:
    return ROOT / "maps" / f"{name}.json"


def _greedy_solo_mean(name: str) -> float:
    """Mean solo score of the greedy bot over a fixed set of seeded decks (deterministic)."""
    from mapkit.simulate import RunConfig, simulate

    cfg = RunConfig(bots=("greedy",), games=SIM_GAMES, seed=SIM_SEED)
    outcomes = simulate(load_map(_path(name)), cfg)
    return statistics.fmean(g.seats[0].score for g in outcomes)


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
    means = {n: _greedy_solo_mean(n) for n in CITIES}
    steps = [means[a] - means[b] for a, b in itertools.pairwise(CITIES)]
    assert all(step >= MIN_STEP for step in steps), means


@pytest.mark.parametrize(
    "path",
    [f"maps/{n}.json" for n in CITIES] + [f"examples/{n}.json" for n in EXAMPLES],
)
def test_validate_reports_nothing(path: str) -> None:
    """No errors, no warnings and no infos: bonuses fit length and difficulty (DES005), every
    line runs on the eight directions with even stop spacing (DES006)."""
    report = validate_path(ROOT / path)
    assert report.diagnostics == [], [f"{d.code} {d.message}" for d in report.diagnostics]


def test_tutorial_shows_every_feature() -> None:
    m = load_map(ROOT / "examples" / "tutorial.json")
    assert 4 <= len(m.lines) <= 5
    assert any(ln.loop for ln in m.lines)
    assert any(ln.shape for ln in m.lines)
    assert m.special_stations


def test_minimal_is_small() -> None:
    m = load_map(ROOT / "examples" / "minimal.json")
    assert 2 <= len(m.lines) <= 3
