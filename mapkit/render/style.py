"""Colours, line styles and number formatting shared by the sheet and heatmap drawings."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mapkit.colour import RGB, contrast_ratio, hex_to_rgb, relative_luminance

# Pure black: a CMYK conversion makes it black ink alone (K), so thin text and outlines
# print sharp, with no colour plates to misregister (and a home inkjet uses its black).
INK = "#000000"
PAPER_WHITE = "#ffffff"
PEN = "#14296e"
SPECIAL_FILL = "#f2b705"


def fmt_points(points) -> list[tuple[str, str]]:
    """Points as SVG coordinate strings (for polygons and polylines)."""
    return [(fmt(x), fmt(y)) for x, y in points]


def hex_color(c: RGB) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02x}" for v in c)


def text_on(fill: str) -> str:
    """Ink or white, whichever reads better on ``fill``."""
    return INK if contrast_ratio(fill, INK) >= contrast_ratio(fill, PAPER_WHITE) else PAPER_WHITE


def gray(color: str) -> str:
    level = relative_luminance(color) ** (1 / 2.2)
    return hex_color((level, level, level))


@dataclass(frozen=True)
class LineStyle:
    """How one line is stroked: colour, dash pattern (mm), hollow, casing, centre stripe.

    ``hollow`` draws the line as an outline with a white core (dashed when
    ``dash`` is set: a ladder); ``centre`` draws a thin stripe of that colour
    along the middle.
    """

    color: str
    dash: tuple[float, ...] = ()
    hollow: bool = False
    casing: str | None = None
    centre: str | None = None


BLACK = "#000000"
MID_GRAY = "#6e6e6e"

# Patterns for black-and-white printing, for grayscale's 1.1 mm lines with butt caps: every
# dash, dot and gap is at least 1.2 mm, so a laser printer keeps them open, and no two patterns
# share a shape (``pattern_shape``): grey is a second cue, never the only one. The most
# different ones come first, since most cities have ten lines or fewer.
GRAY_PATTERNS: tuple[LineStyle, ...] = (
    LineStyle(BLACK),
    LineStyle(BLACK, (6.0, 1.6)),
    LineStyle(BLACK, hollow=True),
    LineStyle(BLACK, (1.2, 1.4)),
    LineStyle(MID_GRAY, (6.0, 1.4, 1.2, 1.4)),
    LineStyle(BLACK, (2.0, 1.4), hollow=True),
    LineStyle(MID_GRAY, centre=BLACK),
    LineStyle(BLACK, (6.0, 1.4, 1.2, 1.4, 1.2, 1.4)),
    LineStyle(MID_GRAY, (1.2, 1.4), centre=BLACK),
    LineStyle(BLACK, (3.0, 3.0)),
    LineStyle(MID_GRAY, (1.2, 1.4, 1.2, 3.6)),
    LineStyle(MID_GRAY, (6.0, 4.5)),
)


@dataclass(frozen=True)
class PatternShape:
    """What the eye tells grayscale patterns apart by, colour aside."""

    kind: tuple[bool, bool, bool]  # dashed, hollow, centre stripe
    dashes: int  # dashes per period
    longest: float  # longest dash (mm)
    duty: float  # share of the period inked


# Two patterns of one kind and dash count look different when their longest dashes differ by
# this much, or their inked shares by ``MIN_DUTY_STEP``.
MIN_DASH_STEP = 1.5
MIN_DUTY_STEP = 0.2


def pattern_shape(st: LineStyle) -> PatternShape:
    dashes = st.dash[0::2]
    period = sum(st.dash)
    return PatternShape(
        kind=(bool(st.dash), st.hollow, st.centre is not None),
        dashes=len(dashes),
        longest=max(dashes, default=0.0),
        duty=sum(dashes) / period if period else 1.0,
    )


def shapes_differ(a: LineStyle, b: LineStyle) -> bool:
    """Whether two patterns can be told apart on a black-and-white print without the grey."""
    sa, sb = pattern_shape(a), pattern_shape(b)
    if sa.kind != sb.kind or sa.dashes != sb.dashes:
        return True
    return abs(sa.longest - sb.longest) >= MIN_DASH_STEP or abs(sa.duty - sb.duty) >= MIN_DUTY_STEP


def gray_styles(line_ids: list[str], neighbours: dict[str, set[str]]) -> dict[str, LineStyle]:
    """A pattern per line: each its own while patterns last, then any its neighbours lack."""
    out: dict[str, LineStyle] = {}
    used: set[int] = set()
    for lid in line_ids:
        taken = {GRAY_PATTERNS.index(out[n]) for n in neighbours.get(lid, ()) if n in out}
        free = [i for i in range(len(GRAY_PATTERNS)) if i not in used and i not in taken]
        free = free or [i for i in range(len(GRAY_PATTERNS)) if i not in taken] or [0]
        used.add(free[0])
        out[lid] = GRAY_PATTERNS[free[0]]
    return out


def colour_style(color: str, sheet_color: str) -> LineStyle:
    """A coloured line, with a dark casing when it would vanish into the sheet colour."""
    casing = INK if contrast_ratio(color, sheet_color) < 1.6 else None
    return LineStyle(color, casing=casing)


# Yellow -> orange -> dark red: readable on paper, dark end for the high values.
_SCALE: tuple[RGB, ...] = tuple(
    hex_to_rgb(c) for c in ("#ffffcc", "#fed976", "#fd8d3c", "#e31a1c", "#800026")
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
