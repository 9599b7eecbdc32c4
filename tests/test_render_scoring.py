"""Scoring boxes that follow the rule that applies (issue 9, point 3).

The hand-worked games of examples/games/ are drawn as filled sheets; the values
written in the four boxes must be the engine's breakdown, and the empty-station
box must apply the rule its caption states to the empty stations the sheet shows.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mapkit.cli import app
from mapkit.engine.paper import sheet_after
from mapkit.render.panel import SCORE_TITLES, SOLO_SCORE_TITLES
from mapkit.render.svg import sheet_svg
from mapkit.rulesets import VOLL_VERPLANT
from tests.test_games import EXPECTED, GAMES, load
from tests.test_render_common import parse, with_class

BOXES = ("lines", "interchanges", "empty", "total")


def _filled(name: str, player: str):
    city, doc = load(name)
    solo = len(doc["players"]) == 1
    return city, sheet_svg(city, filled=sheet_after(city, doc, player), solo=solo), solo


def _written(root) -> dict[str, int]:
    return dict(zip(BOXES, (int(t) for t in texts_of(root, "pen-score")), strict=True))


def texts_of(root, cls: str) -> list[str]:
    return [t for el in with_class(root, cls, "text") for t in el.itertext()]


def _empty_on_sheet(root, city) -> int:
    """Stations with no pen mark: what a player counts for the third box."""
    marked = {el.get("data-station") for el in with_class(root, "pen-cross")}
    marked |= {el.get("data-station") for el in with_class(root, "pen-interchange")}
    return sum(s.id not in marked for s in city.stations)


@pytest.mark.parametrize(
    ("name", "player"),
    [(n, p["name"]) for n, game in sorted(EXPECTED.items()) for p in game["players"]],
)
def test_filled_boxes_match_the_engine_and_follow_their_caption(name, player):
    city, res, solo = _filled(name, player)
    root = parse(res.svg)
    want = next(p for p in EXPECTED[name]["players"] if p["name"] == player)
    got = _written(root)
    assert got == {
        "lines": want["line_points"],
        "interchanges": want["interchange_points"],
        "empty": want["penalty"],
        "total": want["score"],
    }
    empty = _empty_on_sheet(root, city)
    assert empty == want["empty_stations"]
    titles = texts_of(root, "score-title")
    assert titles == [(SOLO_SCORE_TITLES if solo else SCORE_TITLES)[b] for b in BOXES]
    # the caption's rule, applied to what the sheet shows, gives what is written
    assert got["empty"] == (empty if solo else empty // 2)
    assert got["lines"] + got["interchanges"] - got["empty"] == got["total"]
    (scoring,) = with_class(root, "scoring", "g")
    assert scoring.get("data-game") == ("solo" if solo else "multiplayer")


def test_captions_state_the_engines_rule():
    assert "not halved" in SOLO_SCORE_TITLES["empty"]
    assert "÷2, round down" in SCORE_TITLES["empty"]
    for n in range(12):
        assert VOLL_VERPLANT.penalty(n, 1) == n
        assert all(VOLL_VERPLANT.penalty(n, k) == n // 2 for k in (2, 3, 4))


def test_render_record_fills_the_solo_sheet(tmp_path):
    runner = CliRunner()
    out = tmp_path / "solo.svg"
    args = ["render", str(GAMES / "maps" / "ring.json"), "--record"]
    args += [str(GAMES / "03-solo-ring-loop.json"), "--player", "ana", "-o", str(out)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    root = parse(out.read_text(encoding="utf-8"))
    assert _written(root) == {"lines": 6, "interchanges": 2, "empty": 1, "total": 7}
    assert texts_of(root, "score-title")[2] == SOLO_SCORE_TITLES["empty"]
    duel = GAMES / "02-duel-mini-tie-race.json"
    args = ["render", str(GAMES / "maps" / "mini.json"), "--record", str(duel)]
    bad = runner.invoke(app, [*args, "--player", "ana", "--solo", "-o", str(tmp_path / "x.svg")])
    assert bad.exit_code == 2 and "game of 2 players" in bad.output


def test_blank_sheets_default_to_multiplayer_and_solo_on_request():
    city, _ = load("01-solo-mini")
    multi = texts_of(parse(sheet_svg(city).svg), "score-title")
    solo = texts_of(parse(sheet_svg(city, solo=True).svg), "score-title")
    assert multi[2] == SCORE_TITLES["empty"] and solo[2] == SOLO_SCORE_TITLES["empty"]
