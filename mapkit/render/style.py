"""Colours, line styles and number formatting shared by the sheet and heatmap drawings."""

from __future__ import annotations

import re
from dataclasses import dataclass

INK = "#1d2433"
PAPER_WHITE = "#ffffff"
PEN = "#14296e"
SPECIAL_FILL = "#f2b705"

Rgb = tuple[float, float, float]


def fmt_points(points) -> list[tuple[str, str]]:
    """Points as SVG coordinate strings (for polygons and polylines)."""
    return [(fmt(x), fmt(y)) for x, y in points]


def rgb(color: str) -> Rgb:
    c = color.lstrip("#")
    return (int(c[0:2], 16) / 255, int(c[2:4], 16) / 255, int(c[4:6], 16) / 255)


def hex_color(c: Rgb) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02x}" for v in c)


def luminance(color: str) -> float:
    """WCAG relative luminance: decides dark or light text and casings."""

    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(fill: str) -> str:
    """Ink or white, whichever reads better on ``fill``."""
    return INK if contrast(fill, INK) >= contrast(fill, PAPER_WHITE) else PAPER_WHITE


def gray(color: str) -> str:
    level = luminance(color) ** (1 / 2.2)
    return hex_color((level, level, level))


@dataclass(frozen=True)
class LineStyle:
    """How one line is stroked: colour, dash pattern (mm) and an optional hollow casing."""

    color: str
    dash: tuple[float, ...] = ()
    hollow: bool = False
    casing: str | None = None


# Patterns for black-and-white printing: each line gets its own, so that two
# lines are told apart without colour even when they run side by side.
_GRAY_PATTERNS: tuple[LineStyle, ...] = (
    LineStyle("#000000"),
    LineStyle("#000000", (4.0, 1.6)),
    LineStyle("#000000", hollow=True),
    LineStyle("#000000", (0.01, 2.2)),
    LineStyle("#000000", (4.0, 1.2, 0.01, 1.2)),
    LineStyle("#8a8a8a"),
    LineStyle("#8a8a8a", (1.6, 1.2)),
    LineStyle("#8a8a8a", hollow=True),
    LineStyle("#000000", (1.6, 1.2)),
    LineStyle("#8a8a8a", (4.0, 1.2, 0.01, 1.2)),
    LineStyle("#000000", (7.0, 1.2, 0.01, 1.2, 0.01, 1.2)),
    LineStyle("#8a8a8a", (0.01, 2.2)),
)


def line_style(color: str, index: int, sheet_color: str, grayscale: bool) -> LineStyle:
    if grayscale:
        return _GRAY_PATTERNS[index % len(_GRAY_PATTERNS)]
    casing = INK if contrast(color, sheet_color) < 1.6 else None
    return LineStyle(color, casing=casing)


# Yellow -> orange -> dark red: readable on paper, dark end for the high values.
_SCALE: tuple[Rgb, ...] = tuple(
    rgb(c) for c in ("#ffffcc", "#fed976", "#fd8d3c", "#e31a1c", "#800026")
)


def scale_color(t: float) -> str:
    """Colour for ``t`` in [0, 1] on the heatmap scale."""
    t = max(0.0, min(1.0, t))
    pos = t * (len(_SCALE) - 1)
    i = min(int(pos), len(_SCALE) - 2)
    f = pos - i
    a, b = _SCALE[i], _SCALE[i + 1]
    return hex_color(tuple(a[k] + (b[k] - a[k]) * f for k in range(3)))  # type: ignore[arg-type]


def fmt(v: float) -> str:
    """Short coordinate text: two decimals, no trailing zeros."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("", "-0") else s


_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


def clean_text(s: str) -> str:
    """Drop characters XML 1.0 cannot carry (control codes), so any name gives a valid SVG."""
    return _XML_BAD.sub("", s)
