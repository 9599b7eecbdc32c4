"""PDF and PNG from the SVG sheets, through cairosvg (imported only here).

cairosvg writes one PDF per SVG; a pad (``--copies``) or several maps need
one PDF with many pages. So each distinct sheet is drawn once by cairosvg's own
surface class into a cairo recording surface, and every page replays its
recording onto one shared cairo PDF surface (``show_page`` between pages): the
drawing stays vector, fonts stay embedded, and copies cost almost nothing.

cairo writes only a MediaBox and knows nothing of duplex, so the finished PDF is
passed through pypdf (pure Python, 0.3 MB; imported only here, ~0.1 s) to set each
page's TrimBox and BleedBox (from the ``data-trim-box`` and ``data-bleed-box`` the
drawing records on its root, in mm) and the viewer preferences a printer reads:
``PrintScaling None`` (actual size) and, for a duplex pad, ``Duplex``. pikepdf
would do the same through qpdf's C++ library at twenty times the install size.
``--cmyk`` hands cairo's PDF to Ghostscript (:func:`to_cmyk`) before that step.

Text is drawn with unhinted metrics: by default cairo rounds each glyph's
advance to whole device pixels (at 96 dpi for the PDF recording), which makes a
2.6 mm label up to 13% wider or narrower than DejaVu Sans says. Unhinted, the
printed width is the font's own, the width :mod:`mapkit.render.fontmetrics`
measures label boxes with. (SVG's ``text-rendering="geometricPrecision"`` would
ask for the same, but cairosvg then also picks an antialias mode that garbles
small text in PNGs.)
"""

from __future__ import annotations

import io
import math
import re
import shutil
import struct
import subprocess
import tempfile
import warnings
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

CAIRO_HINT = (
    "PDF and PNG output need the cairo graphics library, which was not found. "
    "Install it (Debian/Ubuntu: `apt-get install libcairo2`; Fedora: `dnf install cairo`; "
    "macOS: `brew install cairo`), or render SVG (the default)."
)


class ExportError(Exception):
    """PDF/PNG output is unavailable or failed; the message says what to do."""


class UndrawableText(UserWarning):
    """Text held characters cairo refuses; they were drawn as U+FFFD."""


_UNDRAWABLE = re.compile(
    "[\ud800-\udfff\ufdd0-\ufdef"
    + "".join(f"\\U{p:04x}fffe\\U{p:04x}ffff" for p in range(17))
    + "]"
)
"""Lone surrogates and the 66 Unicode noncharacters: valid in a map (JSON carries them), but
cairo refuses a string holding one (CAIRO_STATUS_INVALID_STRING)."""


def cairo_safe(text: str) -> str:
    """``text`` with every character cairo refuses replaced by U+FFFD, and a warning
    (:class:`UndrawableText`) saying how many; the one place text goes to cairo."""
    found = _UNDRAWABLE.findall(text)
    if not found:
        return text
    shown = ", ".join(sorted({f"U+{ord(c):04X}" for c in found}))
    warnings.warn(
        f"{len(found)} character(s) cairo cannot draw ({shown}: Unicode noncharacters or"
        " lone surrogates) drawn as U+FFFD",
        UndrawableText,
        stacklevel=3,
    )
    return _UNDRAWABLE.sub("\ufffd", text)


def _cairosvg():
    try:
        import cairosvg
        import cairosvg.surface
    except (ImportError, OSError) as exc:
        raise ExportError(CAIRO_HINT) from exc
    return cairosvg


def _unhinted(base: type) -> type:
    """A cairosvg surface class whose drawing context never hints glyph metrics."""
    import cairocffi

    class UnhintedContext(cairocffi.Context):
        def set_font_options(self, options) -> None:
            options.set_hint_metrics(cairocffi.HINT_METRICS_OFF)
            options.set_hint_style(cairocffi.HINT_STYLE_NONE)
            super().set_font_options(options)

    class Unhinted(base):
        @property
        def context(self):
            return self._unhinted_context

        @context.setter
        def context(self, ctx) -> None:
            self._unhinted_context = UnhintedContext(ctx.get_target())

    return Unhinted


PT_PER_MM = 72 / 25.4
DUPLEX = {"long": "/DuplexFlipLongEdge", "short": "/DuplexFlipShortEdge"}
GS_HINT = (
    "--cmyk needs Ghostscript (`gs`), which was not found: install it "
    "(Debian/Ubuntu: `apt-get install ghostscript`; macOS: `brew install ghostscript`)"
)


@dataclass(frozen=True)
class PdfPage:
    """One PDF page: its SVG, and whether it is printed turned by 180° (the back of a
    sheet that is flipped over its long edge)."""

    svg: str
    turned: bool = False


def duplex_pages(fronts: Sequence[str], backs: Sequence[str], flip: str) -> list[PdfPage]:
    """Front, back, front, back: each back turned as a printer flipping on ``flip`` needs
    (:func:`mapkit.sheet.back_turned`)."""
    from mapkit.sheet import back_turned

    turned = back_turned(flip)
    return [
        page
        for front, back in zip(fronts, backs, strict=True)
        for page in (PdfPage(front), PdfPage(back, turned))
    ]


def _add_phys(png: bytes, dpi: int) -> bytes:
    """The PNG with a pHYs chunk right after IHDR, so it prints at true size."""
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    end_of_ihdr = 8 + 4 + 4 + 13 + 4
    return png[:end_of_ihdr] + chunk + png[end_of_ihdr:]


def svg_to_png(svg: str, dpi: int = 150) -> bytes:
    """One sheet as PNG at ``dpi`` (the SVG is sized in mm, so dpi fixes the pixel size),
    its resolution recorded in the file."""
    cairosvg = _cairosvg()
    surface = _unhinted(cairosvg.surface.PNGSurface)
    return _add_phys(surface.convert(bytestring=cairo_safe(svg).encode("utf-8"), dpi=dpi), dpi)


def drawing_file(svg: str, fmt: str, *, title: str | None = None, dpi: int = 150) -> bytes:
    """One drawing as the bytes of a file in ``fmt`` (svg, pdf or png): the one place a
    drawing's file format is chosen (a sheet, a heatmap); ``title``: the PDF's."""
    if fmt == "pdf":
        return svgs_to_pdf([svg], title=title)
    if fmt == "png":
        return svg_to_png(svg, dpi=dpi)
    if fmt == "svg":
        return svg.encode("utf-8")
    from mapkit.formats import DRAWINGS

    raise ValueError(f"no drawing format {fmt!r}; known: {', '.join(DRAWINGS.values())}")


_BOX = re.compile(r'data-(trim|bleed)-box="([-\d. ]+)"')


def _boxes_mm(svg: str) -> dict[str, tuple[float, ...]]:
    """The boxes a drawing records on its root element (x y w h in mm)."""
    head = svg[: svg.find(">", svg.find("<svg")) + 1]
    return {k: tuple(float(v) for v in vals.split()) for k, vals in _BOX.findall(head)}


def _pdf_box(box: tuple[float, ...], page_w: float, page_h: float, turned: bool):
    """A box in mm from the page's top-left corner, as PDF points from the bottom left."""
    from pypdf.generic import RectangleObject

    x, y, w, h = box
    if turned:
        x, y = page_w - x - w, page_h - y - h
    k = PT_PER_MM
    return RectangleObject([x * k, (page_h - y - h) * k, (x + w) * k, (page_h - y) * k])


def finish_pdf(
    data: bytes, pages: Sequence[PdfPage], title: str | None, duplex: str | None
) -> bytes:
    """Page boxes, actual-size printing and duplex for the printer; the title for viewers."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    for written, page in zip(writer.pages, pages, strict=True):
        boxes = _boxes_mm(page.svg)
        w = float(written.mediabox.width) / PT_PER_MM
        h = float(written.mediabox.height) / PT_PER_MM
        trim = boxes.get("trim", (0.0, 0.0, w, h))
        written.trimbox = _pdf_box(trim, w, h, page.turned)
        written.bleedbox = _pdf_box(boxes.get("bleed", trim), w, h, page.turned)
    prefs = writer.create_viewer_preferences()
    prefs.print_scaling = NameObject("/None")
    if duplex is not None:
        prefs.duplex = NameObject(DUPLEX[duplex])
    writer.add_metadata({"/Creator": "mapkit", **({"/Title": title} if title else {})})
    writer.pdf_header = b"%PDF-1.7"  # ViewerPreferences Duplex is PDF 1.7
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _ghostscript_cmyk(data: bytes) -> bytes:
    """``data`` converted by Ghostscript to DeviceCMYK through its colour management (sRGB
    to its default CMYK profile, relative colorimetric)."""
    gs = shutil.which("gs")
    if gs is None:
        raise ExportError(GS_HINT)
    with tempfile.TemporaryDirectory(prefix="mapkit-cmyk-") as tmp:
        src, dst = Path(tmp, "rgb.pdf"), Path(tmp, "cmyk.pdf")
        src.write_bytes(data)
        cmd = [
            gs, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite",
            "-sColorConversionStrategy=CMYK", "-sProcessColorModel=DeviceCMYK",
            f"-sOutputFile={dst}", str(src),
        ]  # fmt: skip
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0 or not dst.exists():
            why = (done.stderr or done.stdout).strip().splitlines()
            raise ExportError(f"Ghostscript could not convert to CMYK: {why[-1] if why else '?'}")
        return dst.read_bytes()


_CMYK_OP = re.compile(rb"(?<![\d.])([\d.]+ [\d.]+ [\d.]+ [\d.]+) ([kK])(?=\s)")


@cache
def _press_black() -> bytes:
    """The four inks Ghostscript's colour management makes of pure black (cairo's ``0 0 0 rg``):
    found by converting a one-square page, so it follows the installed profile."""
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, NameObject

    writer = PdfWriter()
    page = writer.add_blank_page(10, 10)
    square = DecodedStreamObject()
    square.set_data(b"0 0 0 rg 0 0 10 10 re f")
    page[NameObject("/Contents")] = writer._add_object(square)
    probe = io.BytesIO()
    writer.write(probe)
    from pypdf import PdfReader

    content = PdfReader(io.BytesIO(_ghostscript_cmyk(probe.getvalue()))).pages[0]
    found = _CMYK_OP.search(content.get_contents().get_data())
    if found is None:
        raise ExportError("Ghostscript converted black to no CMYK colour")
    return found.group(1)


def to_cmyk(data: bytes) -> bytes:
    """The PDF with every colour in DeviceCMYK, through Ghostscript.

    Colours go through Ghostscript's colour management, so a press prints what the screen
    shows (within ΔE2000 6.7 for the shipped colours on its SWOP profile; the plain
    1 - RGB conversion this replaced was up to 24 off); pure black, which that makes a
    four-ink rich black, is then set to black ink alone, so text and outlines print sharp
    on a press whose plates are a little out of register.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject

    black = _press_black()
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(_ghostscript_cmyk(data))))
    for page in writer.pages:
        old = page.get_contents()
        if old is None:
            continue
        stream = DecodedStreamObject()
        stream.set_data(
            _CMYK_OP.sub(
                lambda m: b"0 0 0 1 " + m.group(2) if m.group(1) == black else m.group(0),
                old.get_data(),
            )
        )
        page.replace_contents(stream)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def svgs_to_pdf(
    pages: Sequence[str | PdfPage],
    title: str | None = None,
    *,
    duplex: str | None = None,
    cmyk: bool = False,
) -> bytes:
    """Several SVG pages as one PDF, each at its own size, with its print boxes.

    ``duplex`` (``long`` or ``short``): the edge a duplex printer flips the sheet over,
    written to the viewer preferences. ``cmyk``: colours converted by :func:`to_cmyk`.
    """
    if not pages:
        raise ExportError("nothing to write: no pages")
    if cmyk and shutil.which("gs") is None:
        raise ExportError(GS_HINT)
    cairosvg = _cairosvg()
    import cairocffi

    out = io.BytesIO()
    drawn: list = []

    class _Recording(_unhinted(cairosvg.surface.PDFSurface)):
        def _create_surface(self, width: float, height: float):
            rec = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, None)
            drawn.append((rec, width, height))
            return rec, width, height

    recordings: dict[str, tuple] = {}
    pdf = None
    done: list[PdfPage] = []
    for item in pages:
        page = item if isinstance(item, PdfPage) else PdfPage(item)
        svg = page.svg
        if svg not in recordings:
            tree = cairosvg.parser.Tree(bytestring=cairo_safe(svg).encode("utf-8"))
            _Recording(tree, None, 96)
            recordings[svg] = drawn[-1]
        rec, width, height = recordings[svg]
        if pdf is None:
            pdf = cairocffi.PDFSurface(out, width, height)
        else:
            pdf.set_size(width, height)
        ctx = cairocffi.Context(pdf)
        if page.turned:
            ctx.translate(width, height)
            ctx.rotate(math.pi)
        ctx.set_source_surface(rec, 0, 0)
        ctx.paint()
        pdf.show_page()
        done.append(page)
    pdf.finish()
    data = out.getvalue()
    if cmyk:
        data = to_cmyk(data)
    return finish_pdf(data, done, cairo_safe(title) if title else title, duplex)
