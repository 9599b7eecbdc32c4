"""Station names measured as drawn (issue 9, point 7): whole, clear of everything, reported."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mapkit.mapfile import load_map
from mapkit.render.svg import sheet_svg
from tests.test_render_common import SVG_NS, parse, with_class

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def paris():
    city = load_map(ROOT / "maps" / "paris.json")
    return city, sheet_svg(city, labels=True)


def test_placed_names_touch_no_circle_line_or_other_name(paris):
    from shapely import LineString, Point, box

    _, res = paris
    lay, m = res.layout, res.layout.metrics
    boxes = [box(lb.box.x, lb.box.y, lb.box.right, lb.box.bottom) for lb in res.labels.labels]
    marks = []
    for sid in lay.stations:
        a, b = lay.station_mark(sid)
        marks.append((LineString([a, b]) if a != b else Point(a)).buffer(m.station_r))
    lines = [LineString(p).buffer(m.line_w / 2) for p in lay.drawn_routes.values()]
    for i, (lb, bx) in enumerate(zip(res.labels.labels, boxes, strict=True)):
        assert lay.map_area.contains(lb.box)
        assert not any(bx.intersects(o) for o in marks + lines), lb.text
        assert not any(bx.intersects(o) for o in boxes[i + 1 :]), lb.text


def test_names_are_whole_or_left_out(paris):
    city, res = paris
    root = parse(res.svg)
    names = {s.id: s.name for s in city.stations}
    drawn = with_class(root, "label", "text")
    assert len(drawn) == res.labels.placed
    for el in drawn:
        words = "".join(el.itertext()).replace(" ", "")
        assert words == names[el.get("data-station")].replace(" ", "")
        assert "…" not in words
    placed = {lb.station_id for lb in res.labels.labels}
    assert placed.isdisjoint(res.labels.skipped)
    assert placed | set(res.labels.skipped) == set(names)


def test_label_ink_stays_in_its_measured_box(paris):
    """Rasterised with the embedded font (cairo, unhinted, as in the PDF): no ink outside a box."""
    import numpy as np
    from PIL import Image

    from mapkit.render.export import svg_to_png

    _, res = paris
    root = ET.fromstring(res.svg)
    sheet = root.find(f"{SVG_NS}g")
    for child in list(sheet):
        if child.get("id") != "labels":
            sheet.remove(child)
    dpi = 300
    png = svg_to_png(ET.tostring(root, encoding="unicode"), dpi=dpi)
    ink = np.asarray(Image.open(io.BytesIO(png)).convert("LA"))[:, :, 1] > 40
    allowed = np.zeros_like(ink)
    px = dpi / 25.4
    for lb in res.labels.labels:
        b = lb.box
        allowed[
            int((b.y - 0.1) * px) : int((b.bottom + 0.1) * px) + 1,
            int((b.x - 0.1) * px) : int((b.right + 0.1) * px) + 1,
        ] = True
    assert ink.sum() > 1000  # the labels were drawn
    assert not (ink & ~allowed).any()


def test_cli_names_the_names_left_out(tmp_path):
    from typer.testing import CliRunner

    from mapkit.cli import app

    res = CliRunner().invoke(app, ["render", "paris", "--labels", "-o", str(tmp_path / "p.svg")])
    assert res.exit_code == 0, res.output
    city = load_map(ROOT / "maps" / "paris.json")
    skipped = sheet_svg(city, labels=True).labels.skipped
    assert skipped
    line = next(ln for ln in res.output.splitlines() if "station names placed" in ln)
    assert f"{len(skipped)} left out for lack of room: " in line
    assert line.endswith(", ".join(city.station(s).label for s in skipped))


def test_a_name_goes_where_the_designer_put_it_when_that_spot_is_free():
    """A station's ``label`` (dragged in the studio) is tried first; blocked, the usual order."""
    import copy

    from mapkit.mapfile.model import build_map
    from tests.conftest import TINY

    def placed(at: str | None):
        doc = copy.deepcopy(TINY)
        if at:
            doc["stations"][0]["label"] = at
        res = sheet_svg(build_map(doc), labels=True)
        (lb,) = res.labels.labels
        (text,) = with_class(parse(res.svg), "label", "text")
        assert text.get("data-station") == "a" and text.get("data-at") == lb.at
        return lb, res.layout.stations["a"]

    assert placed(None)[0].at == "ne"  # east is the line to b, west the wagon
    lb, (x, y) = placed("s")
    assert lb.at == "s" and lb.box.y > y and lb.box.x < x < lb.box.right
    lb, (x, y) = placed("nw")
    assert lb.at == "nw" and lb.box.bottom < y and lb.box.right < x
    assert placed("e")[0].at == "ne"  # the line runs there: the first free spot instead
