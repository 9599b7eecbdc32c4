"""Big legal maps in bounded time (issue 21): defaults scaled to the map's size, a clairvoyant
bot that plans a long game a few times rather than at every round."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit.cli import app
from mapkit.design import scale
from mapkit.mapfile import load_map, load_source

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bounds_map import bounds_map, legal_map

runner = CliRunner()


@pytest.fixture(scope="module")
def bounds():  # type: ignore[no-untyped-def]
    """The map at every schema bound (208 windows: factor 8)."""
    return load_source(json.dumps(bounds_map())).map


@pytest.fixture
def wide(tmp_path) -> Path:
    """Berlin with 5 windows a line: 50 windows, factor 2 (and quick to validate)."""
    doc = json.loads(Path("maps/berlin.json").read_text())
    for ln in doc["lines"]:
        ln["windows"] = 5
    doc.pop("$schema", None)
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(doc))
    return path


def test_the_factor_is_windows_over_24_or_stations_over_72_and_1_for_every_shipped_city(bounds):
    assert scale.factor(bounds) == 208 // 24 == 8
    legal = load_source(json.dumps(legal_map())).map  # 42 windows, 231 stations
    assert scale.factor(legal) == 231 // 72 == 3
    for path in [*Path("maps").glob("*.json"), *Path("benchmarks/maps").glob("*.json")]:
        assert scale.factor(load_map(path)) == 1, path
    assert [scale.scaled(200, 8, 2), scale.scaled(6, 8), scale.scaled(3, 8, 2)] == [25, 1, 2]


class _Stop(Exception):
    pass


@pytest.fixture
def configs(monkeypatch) -> list:
    """The ReportConfig each report would measure with (it stops there)."""
    import mapkit.design.report

    seen: list = []

    def stop(city, cfg, progress=None, doc=None):  # type: ignore[no-untyped-def]
        seen.append(cfg)
        if progress:
            progress("skill")
        raise _Stop

    monkeypatch.setattr(mapkit.design.report, "design_report", stop)
    return seen


def test_report_scales_the_defaults_it_was_not_given_and_says_so(wide, configs):
    res = runner.invoke(app, ["report", str(wide), "--decision-games", "6", "--allow-invalid"])
    assert isinstance(res.exception, _Stop)
    (cfg,) = configs
    assert (cfg.games, cfg.tension_games, cfg.decision_games, cfg.mixed_games) == (100, 30, 6, 30)
    assert (cfg.sensitivity, cfg.scale) == (False, 2)
    note = next(x for x in res.stderr.splitlines() if "defaults scaled" in x)
    assert note == (
        "mapkit: a map of 50 windows and 71 stations (2x a shipped city): defaults scaled to "
        "--games 100, "
        "--tension-games 30, --mixed-games 30, --no-sensitivity (give an option to set it)"
    )
    assert "mapkit: measuring skill..." in res.stderr  # progress, though stderr is no terminal


def test_report_on_a_shipped_city_keeps_its_defaults(configs):
    res = runner.invoke(app, ["report", "berlin", "--allow-invalid"])
    assert isinstance(res.exception, _Stop)
    (cfg,) = configs
    assert (cfg.games, cfg.tension_games, cfg.decision_games, cfg.mixed_games) == (200, 60, 6, 60)
    assert (cfg.sensitivity, cfg.scale) == (True, 1)
    assert "defaults scaled" not in res.stderr and "measuring" not in res.stderr


def test_the_clairvoyant_bot_plans_a_long_game_twice_not_every_round(bounds, monkeypatch):
    from mapkit.bots import clairvoyant
    from mapkit.design.skill import solo_scores

    calls = []
    plan = clairvoyant.ClairvoyantBot.plan
    monkeypatch.setattr(
        clairvoyant.ClairvoyantBot, "plan", lambda self, s: calls.append(s.round()) or plan(self, s)
    )
    assert solo_scores(bounds, "clairvoyant", 1, 0) == [2693]
    assert calls == [0, 217]  # the first plan reaches round 217 (no sheet of it was full)
