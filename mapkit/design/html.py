"""The design report as one self-contained HTML page with plots (matplotlib, PNG inlined).

matplotlib is the optional extra ``report`` (``pip install mapkit[report]``): it is imported
only here, so no other command pays its ~0.3 s import or its install size.
"""

from __future__ import annotations

import base64
import html
import io

from mapkit.design.report import DesignReport


def _png(fig) -> str:  # type: ignore[no-untyped-def]
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode()


def to_html(report: DesignReport) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figures = []
    s = report.skill
    fig, ax = plt.subplots(figsize=(6, 3))
    bots = list(s.means)
    vals = [s.means[b].value for b in bots]
    errs = [
        [s.means[b].value - s.means[b].lo for b in bots],
        [s.means[b].hi - s.means[b].value for b in bots],
    ]
    ax.bar(bots, vals, yerr=errs, capsize=4, color="#4c78a8")
    ax.set_ylabel("mean solo score")
    luck = f" (luck share {s.luck_share.value:.3f})" if s.luck_share is not None else ""
    ax.set_title(f"Skill ladder{luck}")
    figures.append(("Skill: mean score per bot, 95 % intervals", _png(fig)))
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    for r in report.races:
        ax.plot(range(1, len(r.curve) + 1), r.curve, label=f"{r.line} ({r.first}/{r.others})")
    ax.set_xlabel("round")
    ax.set_ylabel("completed by this round")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, ncol=2)
    ax.set_title("Line races")
    figures.append(("Per line: chance of completion by round", _png(fig)))
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 4))
    xs = [r.first for r in report.races]
    ys = [r.expected.value for r in report.races]
    ax.errorbar(
        xs,
        ys,
        yerr=[
            [y - r.expected.lo for y, r in zip(ys, report.races, strict=True)],
            [r.expected.hi - y for y, r in zip(ys, report.races, strict=True)],
        ],
        fmt="o",
        capsize=3,
    )
    for r, x, y in zip(report.races, xs, ys, strict=True):
        ax.annotate(r.line, (x, y), textcoords="offset points", xytext=(4, 2))
    top = max([*xs, *ys, 1]) + 1
    ax.plot([0, top], [0, top], ls=":", color="grey")
    ax.set_xlabel("printed first bonus")
    ax.set_ylabel("points paid per player-game")
    ax.set_title("Expected against printed points")
    figures.append(("Per line: what the bonus really pays", _png(fig)))
    plt.close(fig)

    if report.pacing is not None:
        fig, ax = plt.subplots(figsize=(6, 3))
        paid = report.pacing.paid
        ax.bar(range(1, len(paid) + 1), paid, color="#72b7b2")
        ax.set_xlabel("round")
        ax.set_ylabel("bonus points per player")
        ax.set_title(f"Pacing (half paid by round {report.pacing.half_round})")
        figures.append(("Pacing: bonus points paid by round", _png(fig)))
        plt.close(fig)

    cut = [x for x in report.stations.stations if x.cut.value > 0][:12] if report.stations else []
    if cut:
        fig, ax = plt.subplots(figsize=(6, 0.8 + 0.3 * len(cut)))
        names = [x.station for x in reversed(cut)]
        vals = [x.cut.value for x in reversed(cut)]
        errs = [[x.cut.value - x.cut.lo for x in reversed(cut)],
                [x.cut.hi - x.cut.value for x in reversed(cut)]]  # fmt: skip
        ax.barh(names, vals, xerr=errs, capsize=3, color="#f58518")
        ax.axvline(0.5, ls=":", color="grey")
        ax.set_xlim(0, 1)
        ax.set_xlabel("share of player-games in which it cuts a run")
        ax.set_title("Stations that cut runs")
        figures.append(("Stations: where a run stops at a stop another line marked", _png(fig)))
        plt.close(fig)

    if report.difficulty:
        d = report.difficulty
        fig, ax = plt.subplots(figsize=(6, 2.5))
        names = [*d.cities, f"{report.map_id} (this map)"]
        means = [*(e.value for e in d.cities.values()), d.mean.value]
        ax.barh(names, means, color=["#9ecae1"] * len(d.cities) + ["#e45756"])
        ax.set_xlabel("greedy solo mean (higher = easier)")
        ax.set_title("Difficulty among the shipped cities")
        figures.append(("Difficulty scale", _png(fig)))
        plt.close(fig)

    body = "\n".join(
        f'<figure><img alt="{html.escape(t)}" src="data:image/png;base64,{b}">'
        f"<figcaption>{html.escape(t)}</figcaption></figure>"
        for t, b in figures
    )
    title = html.escape(f"{report.map_name}: design report")
    items = "".join(
        f'<li class="{f.finding.severity}"><b>{html.escape(f.code)}</b> '
        f"{html.escape(f.subject)}: {html.escape(f.finding.title)}: {html.escape(f.evidence)}"
        f"<br><i>Edit:</i> {html.escape(f.finding.edit)}</li>"
        for f in report.found
    )
    found = f'<h2>Findings</h2>\n<ul class="findings">{items or "<li>none</li>"}</ul>\n'
    return (
        f"<!doctype html>\n<html lang=en><meta charset=utf-8><title>{title}</title>\n"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "pre{background:#f6f6f6;padding:1em;overflow:auto}figure{margin:1em 0}"
        ".findings li{margin:.5em 0}.warning{color:#8a4b00}</style>\n"
        f"<h1>{title}</h1>\n{found}<pre>{html.escape(report.to_text())}</pre>\n{body}\n</html>\n"
    )
