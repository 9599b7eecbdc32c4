"""A sheet with each station coloured by a number (``mapkit simulate --heatmap``).

The simulation passes per-station figures (how often a station stays empty,
how often it carries an interchange number); the sheet's own geometry places
them, so the picture lines up with the printed map a designer knows.
"""

from __future__ import annotations

from collections.abc import Mapping

from mapkit.mapfile.model import CityMap
from mapkit.render.style import INK, PAPER_WHITE, fmt, scale_color, text_on
from mapkit.render.svg import SheetDrawing

MISSING = "–"


def _value_text(v: float, percent: bool) -> str:
    if percent:
        return f"{round(v * 100)}"
    if abs(v) >= 10 or float(v).is_integer():
        return f"{round(v)}"
    return f"{v:.1f}"


def heatmap_svg(
    city: CityMap,
    values: Mapping[str, float],
    *,
    title: str,
    legend: str,
    paper: str = "a4",
    percent: bool = True,
) -> str:
    """The sheet with stations filled on a yellow-to-red scale and their value printed.

    ``values`` maps station ids to numbers (fractions 0..1 when ``percent``,
    printed as whole percentages). Stations without a value stay white with a dash.
    The scale runs from 0 (or the smallest negative value) to the largest value.
    """
    known = {k: float(v) for k, v in values.items() if city.has_station(k)}
    lo = min([0.0, *known.values()])
    hi = max([lo, *known.values()])
    span = (hi - lo) or 1.0
    fills = {sid: scale_color((v - lo) / span) for sid, v in known.items()}

    d = SheetDrawing(city, paper)
    d.draw_background()
    d.draw_header(title=f"{city.name} · {title}")
    d.draw_lines()
    d.draw_stations(fills=fills)
    d.draw_loop_arrows()
    d.draw_wagons()
    g = d.group("heat-values", id="heat-values")
    for st in city.stations:
        v = known.get(st.id)
        text = MISSING if v is None else _value_text(v, percent)
        size = 2.4 if len(text) <= 2 else 1.9
        d.text(
            g,
            text,
            *d.lay.stations[st.id],
            size,
            anchor="middle",
            bold=True,
            middle=True,
            fill=text_on(fills.get(st.id, PAPER_WHITE)),
            cls="heat-value",
            **{"data-station": st.id},
        )
    _legend(d, lo, hi, legend, percent)
    d.draw_footer("heatmap")
    return d.tostring()


SIMULATION_HEATMAPS = {
    "empty": ("empty_rate", "stations left empty", "left empty"),
    "interchange": ("interchange_rate", "interchange numbers", "carries an interchange number"),
}
"""What ``mapkit simulate --heatmap-of`` and the studio can show: the report's station
field, the title and the legend."""


def simulation_heatmap_svg(
    city: CityMap, rates: Mapping[str, float], of: str = "empty", paper: str = "a4"
) -> str:
    """The heatmap of a simulation report's per-station rate ``of`` (station id -> rate,
    from the report field ``SIMULATION_HEATMAPS[of][0]``)."""
    _field, title, legend = SIMULATION_HEATMAPS[of]
    return heatmap_svg(city, rates, title=title, legend=legend, paper=paper, percent=True)


def _legend(d: SheetDrawing, lo: float, hi: float, legend: str, percent: bool) -> None:
    panel = d.lay.panel
    g = d.group("legend", id="legend")
    y = panel.y + 4.0
    words = legend.split()
    line = ""
    rows = []
    for w in words:
        cand = f"{line} {w}".strip()
        if len(cand) > 22 and line:
            rows.append(line)
            line = w
        else:
            line = cand
    if line:
        rows.append(line)
    for row in rows[:6]:
        d.text(g, row, panel.x, y, 3.0, cls="legend-text")
        y += 4.0
    if percent:
        d.text(g, "(per cent of games)", panel.x, y, 2.4)
        y += 3.5
    bar_x, bar_w = panel.x + 2.0, 8.0
    top = y + 3.0
    bar_h = min(90.0, panel.bottom - top - 10.0)
    steps = 40
    for i in range(steps):
        t = 1 - i / (steps - 1)
        g.add(
            d.dwg.rect(
                (fmt(bar_x), fmt(top + i * bar_h / steps)),
                (fmt(bar_w), fmt(bar_h / steps + 0.05)),
                fill=scale_color(t),
                stroke="none",
            )
        )
    g.add(
        d.dwg.rect(
            (fmt(bar_x), fmt(top)),
            (fmt(bar_w), fmt(bar_h)),
            fill="none",
            stroke=INK,
            stroke_width=0.3,
            **{"class": "legend-bar"},
        )
    )
    for t in (0.0, 0.5, 1.0):
        v = lo + (hi - lo) * t
        ty = top + bar_h * (1 - t)
        g.add(
            d.dwg.line(
                (fmt(bar_x + bar_w), fmt(ty)),
                (fmt(bar_x + bar_w + 1.5), fmt(ty)),
                stroke=INK,
                stroke_width=0.3,
            )
        )
        d.text(
            g,
            _value_text(v, percent) + ("%" if percent else ""),
            bar_x + bar_w + 2.5,
            ty,
            3.0,
            middle=True,
            cls="legend-tick",
        )
    d.text(g, f"{MISSING} no figure", panel.x, top + bar_h + 6.0, 2.6)
