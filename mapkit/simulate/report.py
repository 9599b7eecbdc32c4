"""The simulation report as JSON (stable keys, rounded) and as aligned text."""

from __future__ import annotations

import json
import math
from typing import Any

from mapkit.simulate.stats import Report

DIGITS = 4


def _r(x: float | None) -> float | None:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    return round(x, DIGITS)


def to_dict(report: Report) -> dict[str, Any]:
    return {
        "map": report.map_id,
        "games": report.games,
        "players": len(report.seats),
        "variant": report.variant,
        "seed": report.seed,
        "engine": report.engine or None,
        "seats": [
            {
                "bot": s.bot,
                "mean": _r(s.mean),
                "sd": _r(s.sd),
                "se": _r(s.se),
                "p10": _r(s.p10),
                "p50": _r(s.p50),
                "p90": _r(s.p90),
                "win_rate": _r(s.win_rate),
                "partial_win_rate": _r(s.partial_win_rate),
            }
            for s in report.seats
        ],
        "balance": _r(report.balance),
        "rounds": {
            "mean": _r(report.rounds_mean),
            "min": report.rounds_min,
            "max": report.rounds_max,
        },
        "lines": [
            {
                "line": ln.id,
                "completion_rate": _r(ln.completion_rate),
                "mean_round": _r(ln.mean_round),
                "first_rate": _r(ln.first_rate),
                "points": _r(ln.points),
                "difficulty": _r(ln.difficulty),
                "printed": {"first": ln.first, "others": ln.others},
                "suggested": {"first": ln.suggested_first, "others": ln.suggested_others},
            }
            for ln in report.lines
        ],
        "stations": [
            {
                "station": st.id,
                "lines": st.lines,
                "empty_rate": _r(st.empty_rate),
                "interchange_rate": _r(st.interchange_rate),
            }
            for st in report.stations
        ],
        **report.extra,
    }


def to_json(report: Report) -> str:
    return json.dumps(to_dict(report), indent=2, ensure_ascii=False) + "\n"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, fmt: str = ".2f") -> str:
    return "-" if x is None else format(x, fmt)


def _table(header: list[str], rows: list[list[str]], left: int = 1) -> list[str]:
    """Aligned columns: the first ``left`` to the left, the figures to the right."""
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)
    ]
    fmt = [f"{{:<{w}}}" if i < left else f"{{:>{w}}}" for i, w in enumerate(widths)]
    out = ["  ".join(f.format(h) for f, h in zip(fmt, header, strict=True)).rstrip()]
    out += ["  ".join(f.format(c) for f, c in zip(fmt, r, strict=True)).rstrip() for r in rows]
    return out


def to_text(report: Report, stations: int = 10) -> str:
    """A readable report; ``stations`` limits the per-station table to the most often empty."""
    n = len(report.seats)
    mode = "solo" if n == 1 else f"{n} players"
    engine = f", {report.engine} engine" if report.engine else ""
    out = [
        f"{report.map_name} ({report.map_id}): {report.games} games, {mode}, "
        f"variant {report.variant}, seed {report.seed}{engine}",
        "",
        "Seats",
    ]
    out += _table(
        ["seat", "bot", "mean", "sd", "±se", "p10", "p50", "p90", "win"],
        [
            [
                str(i + 1), s.bot, _num(s.mean), _num(s.sd), _num(s.se),
                _num(s.p10, "g"), _num(s.p50, "g"), _num(s.p90, "g"), _pct(s.win_rate),
            ]
            for i, s in enumerate(report.seats)
        ],
        left=2,
    )  # fmt: skip
    bal = "- (solo)" if report.balance is None else f"{report.balance:.3f}"
    out += [
        "",
        f"Balance (Ludii, 1 = all seats equal): {bal}",
        f"Rounds: mean {report.rounds_mean:.2f}, min {report.rounds_min}, max {report.rounds_max}",
        "",
        "Lines",
    ]
    out += _table(
        ["line", "done", "round", "first", "pts/game", "difficulty", "printed", "suggested"],
        [
            [
                ln.id, _pct(ln.completion_rate), _num(ln.mean_round, ".1f"), _pct(ln.first_rate),
                _num(ln.points), _num(ln.difficulty, ".3f"), f"{ln.first}/{ln.others}",
                f"{ln.suggested_first}/{ln.suggested_others}",
            ]
            for ln in report.lines
        ],
    )  # fmt: skip
    worst = sorted(report.stations, key=lambda s: (-s.empty_rate, s.id))[:stations]
    out += ["", f"Stations most often left empty (top {len(worst)} of {len(report.stations)})"]
    out += _table(
        ["station", "lines", "empty", "interchange"],
        [[s.id, str(s.lines), _pct(s.empty_rate), _pct(s.interchange_rate)] for s in worst],
    )
    busiest = sorted(report.stations, key=lambda s: (-s.interchange_rate, s.id))[:stations]
    busiest = [s for s in busiest if s.interchange_rate > 0]
    if busiest:
        out += ["", "Stations most often carrying an interchange number"]
        out += _table(
            ["station", "lines", "empty", "interchange"],
            [[s.id, str(s.lines), _pct(s.empty_rate), _pct(s.interchange_rate)] for s in busiest],
        )
    return "\n".join(out) + "\n"
