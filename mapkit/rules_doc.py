"""The rules page, from the notice registry: ``mapkit rules CODE`` and ``docs/rules.md``.

Every rule's title, severity, layer, description, example and fix live in
:mod:`mapkit.notices`; the page's own prose (how validate runs, drafts, the palette) lives
here. ``mapkit rules --markdown > docs/rules.md`` regenerates the page, and a test fails
when the committed page differs from :func:`markdown`.
"""

from __future__ import annotations

import math
import re
import textwrap
from itertools import combinations

from mapkit.notices import NOTICES, Notice

INTRO = """\
# Validation rules

<!-- Generated from mapkit/notices.py by `mapkit rules --markdown > docs/rules.md`: edit the
registry (or mapkit/rules_doc.py for this page's prose), not this file. -->

`mapkit validate` runs six layers in order: **syntax** (JSON), **schema**, **references** and \
identity, then, on the model, **topology** (networkx), **geometry** at print scale (shapely, on \
`mapkit.sheet.layout`, A4 landscape unless `--paper letter`) and game **design**. An error in \
the first three layers stops the file (there is no model to check); topology, geometry and \
design all run, so a designer sees every remaining problem at once.

Every code below can be selected or silenced: `mapkit validate --select GEO,DES003 map.json`, \
`--ignore DES005`. Severity: **error** (exit 1), **warning** (exit 1 only with `--strict`), \
**info**. Each code has a small map that triggers it in `examples/broken/<CODE>.json`, built \
on `examples/broken/_base.json` (except GEO003, GEO004 and SCH007, which no map triggers \
today, and JSON006, whose example is a file of more than 1 MiB that the tests make rather \
than store). `mapkit rules CODE` prints one rule in the terminal (`mapkit rules GEO` every \
geometry rule).

## Drafts

`mapkit validate --draft` (in Python `validate_source(text, draft=True)` or
`validate_path(path, draft=True)`; what `mapkit studio` shows while you draw) checks a map that
is still being drawn for what it has, not for what it lacks:

- `lines` may be missing or empty, and there may be fewer than two stations: no SCH002/SCH005
  for that. Stations are still checked for spacing (GEO002) and for the print area (GEO003);
  with no lines at all, topology (TOP001-TOP003) is not checked, so a stations-only draft is
  not full of "station with no line". Once a line exists, stations on no line are reported.
- A line may lack `windows` and `points`. It is drawn and checked with one window (the smallest
  wagon, so GEO004-GEO006 never fire only because of the stand-in) and is left out of DES001,
  DES002 and DES005, which judge windows and points. Everything else about the line (stops,
  depot, colour, shape) is checked as usual.
- Everything else is the same as without `--draft`: a wrong type, an unknown stop or a station
  too close to another is reported with the same code, message, pointer and position.

A finished map gives the same report with and without `--draft`.
"""

REAL_PAIRS = """\
The shipped cities keep their real networks' colours where they can and move a colour only
where two lines that meet fell below the figure (issue 9) or a press could not print it
(issue 19): for example Berlin U1 light green `#89c459` against U7 sky blue under
deuteranopia became `#22cc88`, and then, 8.6 beyond what a press prints, `#77cc99`.

Pairs from the real networks that warn (for reference): Metro X orange `#f2801e` and green
`#83c143` (deuteranopia ΔE00 4.7), green `#83c143` and yellow `#fbb418` (protanopia 3.0);
Berlin U3 green `#16683d` and U5 brown `#7e5330` (protanopia 3.3); Paris 2 `#003ca6` and 14
`#62259d` (protanopia 2.2). Where such lines meet, shift one of them (lighter or darker) rather
than changing its hue.
"""


def anchor(notice: Notice) -> str:
    """GitHub's anchor of the rule's heading ``## CODE: Title``."""
    heading = f"{notice.code}: {notice.title}".lower()
    return re.sub(r"[^a-z0-9 -]", "", heading).replace(" ", "-")


def _floor1(value: float) -> str:
    return f"{math.floor(value * 10) / 10:.1f}"


def palette_section() -> str:
    """The recommended palette, with the least differences it keeps, computed."""
    from mapkit.checks.colour import PALE_SHEETS, PALETTE, VISIONS, delta_e

    pairs = list(combinations(PALETTE.values(), 2))
    normal = min(delta_e(a, b) for a, b in pairs)
    dichromat = min(delta_e(a, b, v) for a, b in pairs for v in VISIONS[1:])
    sheets = ", ".join(f"`{hex}` ({name})" for name, hex in PALE_SHEETS.items())
    rows = "\n".join(f"| {name} | `{hex}` |" for name, hex in PALETTE.items())
    return f"""\
### Recommended palette

Recommended palette (`mapkit.checks.colour.PALETTE`): every pair below passes DES003 even
where the lines meet (CIEDE2000 >= {_floor1(normal)} under normal vision, >= {_floor1(dichromat)}
under simulated protanopia, deuteranopia and tritanopia), every colour passes DES004 on
white `#ffffff` and on the pale sheets {sheets}, and every colour lies inside the press
gamut of DES007 (0 beyond it), so a print shop prints it as the screen shows it. It was found
by a max-min search over an sRGB grid, among the colours a press prints; a screen's pure
blues and greens are not among them, and red, orange and light green cannot all be in such a
palette (they collapse under deuteranopia), so it has a red, a gold and a sage.

| colour | hex |
|---|---|
{rows}

{REAL_PAIRS}"""


EXTRA = {"DES003": palette_section}
"""Sections that follow a rule on the page (and in ``mapkit rules CODE``)."""


def _section(notice: Notice) -> str:
    extra = EXTRA.get(notice.code)
    return (
        f'<a id="{notice.code.lower()}"></a>\n\n'
        f"## {notice.code}: {notice.title}\n\n"
        f"Severity: **{notice.severity}**. Layer: {notice.layer}.\n\n"
        f"{notice.about}\n\n"
        f"Example:\n\n```json\n{notice.example}\n```\n\n"
        f"Fix: {notice.hint}\n" + (f"\n{extra()}" if extra else "")
    )


def markdown() -> str:
    """The whole page ``docs/rules.md``."""
    table = ["| code | severity | layer | title |", "|---|---|---|---|"]
    table += [
        f"| [{n.code}](#{anchor(n)}) | {n.severity} | {n.layer} | {n.title} |"
        for n in NOTICES.values()
    ]
    sections = "\n".join(_section(n) for n in NOTICES.values())
    return f"{INTRO}\n" + "\n".join(table) + f"\n\n{sections}"


def select(patterns: list[str]) -> list[Notice]:
    """The notices whose code starts with one of ``patterns`` (any case); all for none."""
    wanted = [p.strip().upper() for p in patterns if p.strip()]
    return [n for n in NOTICES.values() if not wanted or n.code.startswith(tuple(wanted))]


def text(notice: Notice, width: int = 88) -> str:
    """One rule for the terminal: the page's section without the Markdown furniture."""

    def para(s: str) -> str:
        return textwrap.fill(s, width, break_long_words=False, break_on_hyphens=False)

    example = textwrap.indent(notice.example, "    ")
    extra = EXTRA.get(notice.code)
    return (
        f"{notice.code}: {notice.title}\n"
        f"Severity: {notice.severity}. Layer: {notice.layer}.\n\n"
        f"{para(notice.about)}\n\nExample:\n{example}\n\n{para('Fix: ' + notice.hint)}\n"
        + (f"\n{extra()}" if extra else "")
    )


def table_text() -> str:
    """Every rule, one line each: code, severity, layer, title."""
    return "".join(
        f"{n.code:<8} {n.severity!s:<8} {n.layer:<11} {n.title}\n" for n in NOTICES.values()
    )
