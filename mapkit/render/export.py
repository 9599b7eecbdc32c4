"""PDF and PNG from the SVG sheets, through cairosvg (imported only here).

cairosvg writes one PDF per SVG; a pad (``--copies``) or several maps need
one PDF with many pages. So each distinct sheet is drawn once by cairosvg's own
surface class into a cairo recording surface, and every page replays its
recording onto one shared cairo PDF surface (``show_page`` between pages): the
drawing stays vector, fonts stay embedded, and copies cost almost nothing.
No dependency beyond cairosvg and its cairocffi.

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
import re
import warnings
from collections.abc import Sequence

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


def svg_to_png(svg: str, dpi: int = 150) -> bytes:
    """One sheet as PNG at ``dpi`` (the SVG is sized in mm, so dpi fixes the pixel size)."""
    cairosvg = _cairosvg()
    surface = _unhinted(cairosvg.surface.PNGSurface)
    return surface.convert(bytestring=cairo_safe(svg).encode("utf-8"), dpi=dpi)


def svgs_to_pdf(pages: Sequence[str], title: str | None = None) -> bytes:
    """Several SVG sheets as one PDF, one page each, at each sheet's own size."""
    if not pages:
        raise ExportError("nothing to write: no pages")
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
    for svg in pages:
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
        ctx.set_source_surface(rec, 0, 0)
        ctx.paint()
        pdf.show_page()
    surface = pdf
    if title:
        try:
            surface.set_metadata(cairocffi.PDF_METADATA_TITLE, cairo_safe(title))
            surface.set_metadata(cairocffi.PDF_METADATA_CREATOR, "mapkit")
        except (AttributeError, cairocffi.CairoError):
            pass
    surface.finish()
    return out.getvalue()
