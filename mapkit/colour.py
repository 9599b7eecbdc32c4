"""sRGB colours as numbers: the one decoding, linearisation and luminance of ``#rrggbb``.

The design checks (CIELAB, colour-vision simulation: :mod:`mapkit.checks.colour`) and the
renderer (text and casing contrast, grayscale: :mod:`mapkit.render.style`) both read colours
through this module, so they agree on what a colour is.
"""

from __future__ import annotations

RGB = tuple[float, float, float]

SRGB_LINEAR_KNEE = 0.04045
"""Where the sRGB transfer curve turns from linear to the power law (IEC 61966-2-1)."""


def hex_to_rgb(color: str) -> RGB:
    """``#rrggbb`` -> sRGB components in 0..1."""
    c = color.lstrip("#")
    return (int(c[0:2], 16) / 255, int(c[2:4], 16) / 255, int(c[4:6], 16) / 255)


def to_linear(c: float) -> float:
    """An sRGB component (0..1) as linear light."""
    return c / 12.92 if c <= SRGB_LINEAR_KNEE else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(color: str) -> float:
    """WCAG relative luminance, 0 (black) .. 1 (white)."""
    r, g, b = (to_linear(c) for c in hex_to_rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG contrast ratio, 1 (same luminance) .. 21 (black on white)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
