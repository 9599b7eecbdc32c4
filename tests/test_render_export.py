"""PDF and PNG: page count, exact page size, embedded fonts, and a missing cairo."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from mapkit.render.svg import sheet_svg
from tests.test_render_common import fixture_city, need

A4 = "841.89 x 595.276"
LETTER = "792 x 612"


@pytest.fixture(scope="module")
def svgs():
    city = fixture_city()
    return {p: sheet_svg(city, paper=p, labels=True).svg for p in ("a4", "letter")}


def _pdfinfo(path) -> dict[str, str]:
    out = subprocess.run(
        [need("pdfinfo"), "-f", "1", "-l", "999", str(path)],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)


def test_pad_has_one_page_per_copy_at_exact_size(tmp_path, svgs):
    from mapkit.render.export import svgs_to_pdf

    path = tmp_path / "pad.pdf"
    path.write_bytes(svgs_to_pdf([svgs["a4"]] * 3 + [svgs["letter"]], title="Fixture"))
    info = _pdfinfo(path)
    assert info["Pages"].strip() == "4"
    sizes = [v.strip() for k, v in info.items() if re.fullmatch(r"Page\s+\d+ size", k)]
    assert [s.split(" pts")[0] for s in sizes] == [A4, A4, A4, LETTER]
    assert info["Title"].strip() == "Fixture"


def test_pdf_pages_without_poppler(svgs):
    """The same facts read from the PDF bytes, for machines without pdfinfo."""
    from mapkit.render.export import svgs_to_pdf

    data = svgs_to_pdf([svgs["a4"]] * 2).decode("latin-1")
    assert len(re.findall(r"/Type\s*/Page\b", data)) == 2
    boxes = re.findall(r"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert boxes and all(abs(float(w) - 841.89) < 0.01 and abs(float(h) - 595.28) < 0.01
                         for w, h in boxes)  # fmt: skip


def test_every_font_embedded(tmp_path, svgs):
    from mapkit.render.export import svgs_to_pdf

    path = tmp_path / "s.pdf"
    path.write_bytes(svgs_to_pdf([svgs["a4"]]))
    out = subprocess.run([need("pdffonts"), str(path)], capture_output=True, text=True).stdout
    rows = out.splitlines()[2:]
    assert rows, out
    for row in rows:
        assert "DejaVuSans" in row
        cols = row.split()
        assert cols[-5] == "yes", row  # the "emb" column


def test_png_size_follows_dpi(svgs):
    import struct

    from mapkit.render.export import svg_to_png

    data = svg_to_png(svgs["a4"], dpi=50)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", data[16:24])
    assert (w, h) == (round(297 / 25.4 * 50), round(210 / 25.4 * 50))


def test_missing_cairo_is_a_clear_message(monkeypatch, svgs):
    from mapkit.render import export

    monkeypatch.setitem(sys.modules, "cairosvg", None)
    with pytest.raises(export.ExportError, match="apt-get install libcairo2"):
        export.svg_to_png(svgs["a4"])
