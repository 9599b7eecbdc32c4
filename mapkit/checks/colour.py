"""Colour science for the design checks, in pure Python (no numpy).

Line colours are compared as a reader sees them: sRGB -> CIELAB (D65), distances
by CIEDE2000. Colour-vision deficiencies are simulated with the Machado, Oliveira
and Fernandes (2009) matrices at severity 1.0 (full dichromacy), applied to
linear RGB: a pair that passes for a dichromat passes for the milder, far more
common anomalous trichromats too.
"""

from __future__ import annotations

import math
from functools import lru_cache

from mapkit.colour import RGB, hex_to_rgb, to_linear

Lab = tuple[float, float, float]

VISIONS = ("normal", "protanopia", "deuteranopia", "tritanopia")

_MACHADO: dict[str, tuple[RGB, RGB, RGB]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}

_WHITE = (0.95047, 1.0, 1.08883)

# A palette in which every pair keeps CIEDE2000 >= 17 under normal vision and >= 11 under
# simulated protanopia, deuteranopia and tritanopia, so any two of its colours may meet
# (design check DES003); each stands out on white and on the pale sheet colours (DES004),
# and each lies inside the press hull below (press_excess 0: DES007), so a print shop's
# CMYK prints it as the screen shows it. Found by a max-min search over the sRGB grid of
# steps of 0x11, among the colours inside the hull, with black fixed and the most saturated
# set kept where several did as well.
PALETTE: dict[str, str] = {
    "black": "#333333",
    "navy": "#333377",
    "slate": "#6677aa",
    "sky": "#22aacc",
    "green": "#008844",
    "sage": "#88aa66",
    "gold": "#eebb00",
    "red": "#dd3322",
    "pink": "#dd7799",
    "magenta": "#bb3377",
    "brown": "#664433",
}

PALE_SHEETS: dict[str, str] = {
    "blue": "#dce9f5",
    "cream": "#f5ecd7",
    "green": "#e3f1e0",
    "peach": "#fdebd3",
}
"""Pale sheet colours (``sheet.color``) on which every colour of :data:`PALETTE` passes DES004."""


def _lab_f(t: float) -> float:
    return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116


def _linear_to_lab(r: float, g: float, b: float) -> Lab:
    x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b
    fx, fy, fz = _lab_f(x / _WHITE[0]), _lab_f(y / _WHITE[1]), _lab_f(z / _WHITE[2])
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


@lru_cache(maxsize=4096)
def lab(color: str, vision: str = "normal") -> Lab:
    """CIELAB of a ``#rrggbb`` colour as seen with ``vision`` (one of VISIONS)."""
    lin = [to_linear(c) for c in hex_to_rgb(color)]
    if vision != "normal":
        m = _MACHADO[vision]
        lin = [min(1.0, max(0.0, sum(m[i][k] * lin[k] for k in range(3)))) for i in range(3)]
    return _linear_to_lab(*lin)


def ciede2000(lab1: Lab, lab2: Lab) -> float:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005), kL = kC = kH = 1."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    cbar7 = ((c1 + c2) / 2) ** 7
    g = 0.5 * (1 - math.sqrt(cbar7 / (cbar7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp = l2 - l1
    dcp = c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    else:
        dhp = h2p - h1p
        if dhp > 180:
            dhp -= 360
        elif dhp < -180:
            dhp += 360
    dHp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbp = (l1 + l2) / 2
    cbp = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbp = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbp = (h1p + h2p + 360) / 2
    else:
        hbp = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbp - 30))
        + 0.24 * math.cos(math.radians(2 * hbp))
        + 0.32 * math.cos(math.radians(3 * hbp + 6))
        - 0.20 * math.cos(math.radians(4 * hbp - 63))
    )
    sl = 1 + 0.015 * (lbp - 50) ** 2 / math.sqrt(20 + (lbp - 50) ** 2)
    sc = 1 + 0.045 * cbp
    sh = 1 + 0.015 * cbp * t
    cbp7 = cbp**7
    rc = 2 * math.sqrt(cbp7 / (cbp7 + 25**7))
    rt = -math.sin(math.radians(2 * 30 * math.exp(-(((hbp - 275) / 25) ** 2)))) * rc
    return math.sqrt(
        (dlp / sl) ** 2 + (dcp / sc) ** 2 + (dHp / sh) ** 2 + rt * (dcp / sc) * (dHp / sh)
    )


@lru_cache(maxsize=8192)
def delta_e(a: str, b: str, vision: str = "normal") -> float:
    """CIEDE2000 between two ``#rrggbb`` colours as seen with ``vision``."""
    return ciede2000(lab(a, vision), lab(b, vision))


# The press gamut, as the Lab colours of ISO 12647-2 coated paper (FOGRA39): paper white,
# the six solid primaries and secondaries in hue order, and the four-colour black. Their
# hull (white and black joined to the ring of six) lies inside the real gamut, whose
# faces bulge outward: a colour inside it prints on any standard press.
PRESS_WHITE: Lab = (95.0, 0.0, -2.0)
PRESS_BLACK: Lab = (16.0, 0.0, 0.0)
PRESS_RING: tuple[Lab, ...] = (
    (55.0, -37.0, -50.0),  # cyan
    (50.0, -65.0, 27.0),  # green (cyan + yellow)
    (89.0, -5.0, 93.0),  # yellow
    (47.0, 68.0, 48.0),  # red (magenta + yellow)
    (48.0, 74.0, -3.0),  # magenta
    (24.0, 22.0, -46.0),  # blue (cyan + magenta)
)


def _sub(p: Lab, q: Lab) -> Lab:
    return (p[0] - q[0], p[1] - q[1], p[2] - q[2])


def _inside_press(p: Lab) -> bool:
    """Whether a Lab colour lies inside the press hull (on the inner side of every face)."""
    centre = (55.0, 0.0, 0.0)
    n = len(PRESS_RING)
    for apex in (PRESS_WHITE, PRESS_BLACK):
        for i in range(n):
            a, b = PRESS_RING[i], PRESS_RING[(i + 1) % n]
            u, v = _sub(a, apex), _sub(b, apex)
            normal = (
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            )

            def side(q: Lab, normal: Lab = normal, apex: Lab = apex) -> float:
                d = _sub(q, apex)
                return normal[0] * d[0] + normal[1] * d[1] + normal[2] * d[2]

            if side(p) * side(centre) < -1e-9:
                return False
    return True


@lru_cache(maxsize=1024)
def press_excess(color: str) -> float:
    """How far a colour lies outside the press gamut: CIEDE2000 to the colour of the same
    lightness and hue, its chroma cut until it prints (0 inside). Lightness outside the
    press's white-to-black range is cut first."""
    lum, a, b = lab(color)
    lum = min(max(lum, PRESS_BLACK[0] + 0.5), PRESS_WHITE[0] - 0.5)
    if _inside_press((lum, a, b)) and lum == lab(color)[0]:
        return 0.0
    lo, hi = 0.0, 1.0
    if _inside_press((lum, a, b)):
        lo = 1.0
    else:
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _inside_press((lum, a * mid, b * mid)) else (lo, mid)
    return ciede2000(lab(color), (lum, a * lo, b * lo))
