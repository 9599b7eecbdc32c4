"""What the report says is wrong, and what to do: a registry of findings, in the validator's style.

Every finding the report can make is a registered :class:`Finding` with a code, a severity, a
title, what triggers it and the edit it suggests (``docs/design.md`` lists them; a test checks
the list against this registry). :func:`findings` reads a finished report and returns the
:class:`Found` items, each naming the line (or the map) it concerns and its evidence. A finding
fires only when the figure's 95 % interval is past the threshold, not its estimate alone.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mapkit.notices import Severity

if TYPE_CHECKING:
    from mapkit.design.report import DesignReport

RATE_FACTOR = 3.0
"""A line pays "several times the others" per window above this multiple of the median line."""
RARE = 0.10
DOMINANCE = 3.0
LATE_SHARE = 0.70
LUCK = 0.5
CUTS = 0.5
"""A station "cuts a run in most games" when it does in more than this share of player-games."""


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    severity: Severity
    title: str
    trigger: str
    edit: str


@dataclass(frozen=True, slots=True)
class Found:
    """One finding on one map: what it concerns (``line X`` or ``map``) and the evidence."""

    code: str
    subject: str
    evidence: str

    @property
    def finding(self) -> Finding:
        return FINDINGS[self.code]

    def to_dict(self) -> dict[str, str]:
        f = self.finding
        return {
            "code": self.code,
            "severity": str(f.severity),
            "title": f.title,
            "subject": self.subject,
            "evidence": self.evidence,
            "edit": f.edit,
        }

    def text(self) -> str:
        f = self.finding
        head = f"{f.severity} {self.code} {self.subject}: {f.title}: {self.evidence}"
        return f"{head}\n    edit: {f.edit}"


_W, _I = Severity.WARNING, Severity.INFO

FINDINGS: dict[str, Finding] = {
    f.code: f
    for f in [
        Finding(
            "RPT001",
            _W,
            "Line pays several times the others per window",
            f"a line's bonus per window (points paid per player-game over its windows) is more "
            f"than {RATE_FACTOR:g} times the median line's, beyond its interval",
            "Lower its bonus or give it more windows (`mapkit tune --per-line` does it).",
        ),
        Finding(
            "RPT002",
            _W,
            "Line hardly ever completed",
            f"a line is completed in under {RARE:.0%} of player-games (its whole interval)",
            "Give it a window, shorten it, or let more lines share its stations.",
        ),
        Finding(
            "RPT003",
            _W,
            "Dominant line",
            f"a line pays more than {DOMINANCE:g} times the mean line's points per player-game",
            "Lower its bonus; players who take it win regardless of the rest of the map.",
        ),
        Finding(
            "RPT004",
            _I,
            "Bonus points arrive late",
            f"more than {LATE_SHARE:.0%} of the bonus points are paid in the last quarter of the "
            "rounds",
            "Shorten a long line or give one a window, so that some lines complete mid-game.",
        ),
        Finding(
            "RPT005",
            _W,
            "First-seat advantage",
            "with identical bots in every seat, the first seat wins more than its even share",
            "Look for a rule or tie-break that favours the first player; the map alone rarely "
            "does this.",
        ),
        Finding(
            "RPT006",
            _I,
            "Skill does not win at the table",
            "one lookahead player among greedy ones wins no more than an even share",
            "Give the lines more distinct payoffs (windows, bonuses) so that planning pays.",
        ),
        Finding(
            "RPT007",
            _I,
            "Points per turn outside the shipped cities'",
            "the greedy solo mean per window is outside the shipped cities' range",
            "Raise or lower the bonuses (`mapkit tune --per-line` brings it inside).",
        ),
        Finding(
            "RPT008",
            _W,
            "Luck dominates",
            f"the luck share among competent bots is above {LUCK:g}",
            "Give the lines more windows or longer runs, so the order of the cards matters less.",
        ),
        Finding(
            "RPT009",
            _I,
            "Station cuts a run in most games",
            f"a run stops at the station, marked through another line, in more than {CUTS:.0%} "
            "of player-games (its whole interval)",
            "Take the stop off one of its lines or move it along one, or give the line it cuts "
            "a window: a run that reaches a marked stop forfeits the rest of the card.",
        ),
    ]
}


def findings(report: DesignReport) -> list[Found]:
    """The findings a report's figures trigger, in registry order, then by line."""
    out: list[Found] = []
    races = report.races
    rates = {r.line: r.expected.value / r.windows for r in races}
    for r in races:
        others = [v for k, v in rates.items() if k != r.line]
        median = statistics.median(others) if others else 0.0
        lo = r.expected.lo / r.windows
        if median > 0 and lo > RATE_FACTOR * median:
            out.append(
                Found(
                    "RPT001",
                    f"line {r.line}",
                    f"{rates[r.line]:.2f} bonus points per window, "
                    f"{rates[r.line] / median:.1f}x the median line's {median:.2f}",
                )
            )
    for r in races:
        if r.completion.hi < RARE:
            out.append(
                Found(
                    "RPT002",
                    f"line {r.line}",
                    f"completed in {r.completion.text('.3f')} of player-games",
                )
            )
    mean_pts = statistics.fmean(r.expected.value for r in races) if races else 0.0
    for r in races:
        if mean_pts > 0 and r.expected.lo > DOMINANCE * mean_pts:
            out.append(
                Found(
                    "RPT003",
                    f"line {r.line}",
                    f"pays {r.expected.value:.2f} points per player-game, "
                    f"{r.expected.value / mean_pts:.1f}x the mean line's {mean_pts:.2f}",
                )
            )
    pace = report.pacing
    if pace is not None and pace.late.lo > LATE_SHARE:
        out.append(
            Found(
                "RPT004",
                "map",
                f"{pace.late.text('.2f')} of the bonus points paid in the last quarter; half of "
                f"them by round {pace.half_round}",
            )
        )
    if pace is not None and pace.seat_wins and pace.seat_wins[0].lo > 1 / pace.players:
        out.append(
            Found(
                "RPT005",
                "map",
                f"seat 1 wins {pace.seat_wins[0].text('.3f')} of {pace.games} games "
                f"against an even {1 / pace.players:.3f}",
            )
        )
    mixed = report.mixed
    if mixed is not None and mixed.win_share.lo <= mixed.even:
        out.append(
            Found(
                "RPT006",
                "map",
                f"the lookahead player wins {mixed.win_share.text('.3f')} of {mixed.games} games "
                f"against an even {mixed.even:.3f}",
            )
        )
    band = report.band
    if band is not None:
        m = report.skill.means.get("greedy")
        windows = sum(r.windows for r in races)
        if m is not None and (m.hi / windows < band.mean.lo or m.lo / windows > band.mean.hi):
            out.append(
                Found(
                    "RPT007",
                    "map",
                    f"{m.value / windows:.2f} points per window (greedy solo), the cities "
                    f"{band.mean.text()}",
                )
            )
    luck = report.skill.luck_share
    if luck is not None and luck.lo > LUCK:
        out.append(Found("RPT008", "map", f"luck share {luck.text('.3f')}"))
    out += _station_findings(report)
    order = list(FINDINGS)
    return sorted(out, key=lambda f: order.index(f.code))


def _station_findings(report: DesignReport) -> list[Found]:
    st = report.stations
    if st is None:
        return []
    out = []
    for x in st.stations:
        if x.cut.lo > CUTS:
            runs = sum(x.cut_lines.values())
            lines = ", ".join(f"{lid} {n / runs:.0%}" for lid, n in x.cut_lines.items())
            out.append(
                Found(
                    "RPT009",
                    f"station {x.station}",
                    f"cuts a run in {x.cut.text('.3f')} of player-games, {x.lost.value:.2f} "
                    f"crosses lost per player-game; the runs it cuts: {lines}",
                )
            )
    return out
