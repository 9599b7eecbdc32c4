"""Paper (issue 9, point 4): a home-printer page by default, full colour with bleed on request."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mapkit.cli import app
from mapkit.render.svg import sheet_svg
from mapkit.sheet import METRICS, PAPERS
from tests.test_render_common import fixture_city, parse, with_class


@pytest.fixture(scope="module")
def city():
    return fixture_city()


def _rect(el) -> tuple[float, float, float, float]:
    return tuple(float(el.get(k)) for k in ("x", "y", "width", "height"))  # type: ignore[return-value]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_full_colour_reaches_a_3mm_bleed_with_crop_marks_outside_it(city, paper):
    root = parse(sheet_svg(city, paper=paper, background="full").svg)
    w, h = PAPERS[paper]
    b = METRICS.bleed
    out = b + METRICS.crop_mark + 1.0
    assert root.get("width") == f"{w + 2 * out:g}mm"
    assert root.get("viewBox") == f"{-out:g} {-out:g} {w + 2 * out:g} {h + 2 * out:g}"
    bg = root.find(".//*[@id='background']")
    assert _rect(bg) == pytest.approx((-b, -b, w + 2 * b, h + 2 * b))
    assert bg.get("fill") == city.sheet_color
    marks = with_class(root, "crop-mark", "line")
    assert len(marks) == 8
    for mk in marks:
        x1, y1, x2, y2 = (float(mk.get(k)) for k in ("x1", "y1", "x2", "y2"))
        # on the extension of a trim edge, starting at the bleed's outer edge
        assert {x1, x2} <= {0.0, w} or {y1, y2} <= {0.0, h}
        starts = min(abs(v - e) for v in (x1, y1, x2, y2) for e in (0.0, w, h) if v != e)
        assert starts == pytest.approx(b)


def test_home_page_is_white_with_the_city_colour_inside_the_margins(city):
    res = sheet_svg(city)
    root = parse(res.svg)
    assert root.find(".//*[@id='background']").get("fill") == "#ffffff"
    tints = [el for el in with_class(root, "sheet-tint", "g")[0] if el.get("fill")]
    assert {el.get("fill") for el in tints} == {city.sheet_color}
    lay = res.layout
    area = sum(_rect(el)[2] * _rect(el)[3] for el in tints)
    assert area < 0.25 * lay.width * lay.height  # the page is not flooded
    m = METRICS.margin
    for el in tints:
        x, y, w, h = _rect(el)
        assert x >= m - 1e-9 and y >= m and x + w <= lay.width - m + 1e-9
        assert y + h <= lay.height - m + 1e-9


def test_margins_are_at_least_5mm(city):
    for paper, (w, h) in PAPERS.items():
        lay = sheet_svg(city, paper=paper).layout
        pr = lay.printable
        assert min(pr.x, pr.y, w - pr.right, h - pr.bottom) >= 5.0
        for wagon in lay.wagons.values():
            assert pr.contains(wagon.rect)
        assert all(pr.contains(bx) for bx in lay.score_boxes.values())


def test_cli_background_full_makes_a_larger_pdf_page(tmp_path):
    pytest.importorskip("cairosvg")
    out = tmp_path / "b.pdf"
    res = CliRunner().invoke(
        app, ["render", "berlin", "--pdf", "--background", "full", "-o", str(out)]
    )
    assert res.exit_code == 0, res.output
    import re

    boxes = re.findall(rb"/MediaBox \[ ?0 0 ([0-9.]+) ([0-9.]+) ?\]", out.read_bytes())
    w, h = PAPERS["a4"]
    extra = 2 * (METRICS.bleed + METRICS.crop_mark + 1.0)
    assert [(round(float(a) * 25.4 / 72, 1), round(float(b) * 25.4 / 72, 1)) for a, b in boxes] == [
        (w + extra, h + extra)
    ]
