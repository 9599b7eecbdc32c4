"""Layout regressions: element positions of the fixture sheet against a committed summary.

The summary (tests/golden/fixture-city.layout.json) lists, in mm, every station
mark, line route, wagon and window box, panel row, scoring box and label, plus
how many elements of each class the SVG has. A change of more than 0.05 mm, or
of any count, fails. When a layout change is intended, look at the sheet, then
refresh the file:

    MAPKIT_REFRESH_GOLDEN=1 python -m pytest tests/test_render_golden.py
"""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest

from mapkit.render.svg import sheet_svg
from tests.test_render_common import GOLDEN, fixture_city, parse

GOLDEN_FILE = GOLDEN / "fixture-city.layout.json"
TOL = 0.05


def _r(v):
    if isinstance(v, float):
        return round(v, 3)
    if isinstance(v, list | tuple):
        return [_r(x) for x in v]
    if isinstance(v, dict):
        return {k: _r(x) for k, x in v.items()}
    return v


def _rect(r):
    return [r.x, r.y, r.w, r.h]


def summary() -> dict:
    res = sheet_svg(fixture_city(), labels=True)
    lay = res.layout
    counts = Counter()
    for el in parse(res.svg).iter():
        for c in (el.get("class") or "").split():
            counts[c] += 1
    return _r(
        {
            "paper": [lay.width, lay.height],
            "map_area": _rect(lay.map_area),
            "scale": lay.scale,
            "stations": {
                s: [*lay.station_mark(s)[0], *lay.station_mark(s)[1]] for s in lay.stations
            },
            "routes": {k: [list(p) for p in v] for k, v in lay.drawn_routes.items()},
            "wagons": {
                k: {"rect": _rect(w.rect), "boxes": [_rect(b) for b in w.boxes]}
                for k, w in lay.wagons.items()
            },
            "panel_rows": {
                r.line_id: [*r.letter, *r.diamond, r.diamond_size, *_rect(r.square)]
                for r in lay.panel_rows
            },
            "score_boxes": {k: _rect(v) for k, v in lay.score_boxes.items()},
            "labels": {lb.station_id: [lb.text, lb.x, lb.baseline] for lb in res.labels.labels},
            "counts": dict(sorted(counts.items())),
        }
    )


def _compare(got, want, path="") -> list[str]:
    if isinstance(want, dict) and isinstance(got, dict):
        diffs = [f"{path}/{k}: missing" for k in want if k not in got]
        diffs += [f"{path}/{k}: unexpected" for k in got if k not in want]
        for k in want:
            if k in got:
                diffs += _compare(got[k], want[k], f"{path}/{k}")
        return diffs
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return [f"{path}: {len(got)} items, golden has {len(want)}"]
        return [d for i, (g, w) in enumerate(zip(got, want, strict=True))
                for d in _compare(g, w, f"{path}[{i}]")]  # fmt: skip
    if isinstance(want, float | int) and isinstance(got, float | int):
        if isinstance(want, int) and isinstance(got, int) and path.startswith("/counts"):
            return [] if want == got else [f"{path}: {got} != {want}"]
        return [] if abs(got - want) <= TOL else [f"{path}: {got} != {want}"]
    return [] if got == want else [f"{path}: {got!r} != {want!r}"]


def test_layout_matches_golden():
    got = summary()
    if os.environ.get("MAPKIT_REFRESH_GOLDEN"):
        GOLDEN_FILE.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", "utf-8")
        pytest.skip("golden file refreshed")
    if not GOLDEN_FILE.exists():
        pytest.fail(f"{GOLDEN_FILE.name} is missing; see this module's docstring to create it")
    want = json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))
    diffs = _compare(got, want)
    assert not diffs, "layout changed:\n" + "\n".join(diffs[:30])


def test_compare_catches_a_moved_element():
    want = {"a": [1.0, 2.0], "counts": {"station": 3}}
    assert _compare({"a": [1.04, 2.0], "counts": {"station": 3}}, want) == []
    assert _compare({"a": [1.2, 2.0], "counts": {"station": 3}}, want) == ["/a[0]: 1.2 != 1.0"]
    assert _compare({"a": [1.0, 2.0], "counts": {"station": 4}}, want) == [
        "/counts/station: 4 != 3"
    ]
