"""``mapkit report``: skill, decisions, tension, line races, pacing, mixed skill, sensitivity,
difficulty and the findings they trigger, for one map.

``design_report(city, ReportConfig(...), doc)`` measures everything; ``to_dict`` / ``to_text``
print it and ``mapkit.design.html.to_html`` draws it. Every figure carries a 95 % interval.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from mapkit.design.band import ShippedBand
from mapkit.design.decisions import Decisions, measure_decisions
from mapkit.design.difficulty import Difficulty, measure_difficulty
from mapkit.design.findings import Found, findings
from mapkit.design.mixed import Mixed, measure_mixed
from mapkit.design.pacing import Pacing, pacing
from mapkit.design.profile import check_seats
from mapkit.design.races import LineRace, races_of
from mapkit.design.sensitivity import Sensitivity, measure_sensitivity
from mapkit.design.skill import COMPETENT, SKILL_BOTS, Skill, skill_of, solo_scores
from mapkit.design.stations import Stations, stations_of
from mapkit.design.tension import Tension, measure_tension
from mapkit.mapfile.model import CityMap

STATIONS_SHOWN = 10
"""Stations listed in the text report (most cutting first; JSON lists every one)."""


@dataclass(frozen=True)
class ReportConfig:
    games: int = 200
    """Decks per bot for skill and difficulty, and games for the line races."""
    seed: int = 0
    players: int = 3
    """Seats for tension and the line races (greedy in every seat)."""
    tension_games: int = 60
    decision_games: int = 6
    threshold: float = 1.0
    special: bool = False
    skill_bots: tuple[str, ...] = SKILL_BOTS
    difficulty: bool = True
    """Measure the shipped cities too (the scale and the band); off for quick runs and tests."""
    mixed_games: int = 60
    """Games with one lookahead among greedy players (0: skip; needs players > 1)."""
    sensitivity: bool = True
    """Profile every line's windows +-1 and first +-1 (needs the map document)."""
    paper: str = "a4"
    jobs: int = 1
    scale: int = 1
    """The map's size factor (``mapkit.design.scale``): decisions valued every ``scale``-th
    turn, tension evaluated every ``2 * scale`` rounds."""


@dataclass
class DesignReport:
    map_id: str
    map_name: str
    config: ReportConfig
    skill: Skill
    decisions: Decisions
    tension: Tension | None
    races: list[LineRace]
    difficulty: Difficulty | None
    pacing: Pacing | None = None
    mixed: Mixed | None = None
    sensitivity: list[Sensitivity] = field(default_factory=list)
    band: ShippedBand | None = None
    stations: Stations | None = None
    found: list[Found] = field(default_factory=list)
    extra: dict[str, object] = field(default_factory=dict)
    engines: dict[str, list[str]] = field(default_factory=dict)
    """Per stage (``skill:greedy``, ``tension``, ...), the engines that played its games:
    ``kernel`` where it can play the seats, ``checked`` where it must (clairvoyant seats,
    positions played out from the middle of a game)."""

    def to_dict(self) -> dict[str, object]:
        c = self.config
        return {
            "map": self.map_id,
            "name": self.map_name,
            "seed": c.seed,
            "games": c.games,
            "players": c.players,
            "variant": "special" if c.special else "standard",
            "skill": self.skill.to_dict(),
            "decisions": self.decisions.to_dict(),
            "tension": self.tension.to_dict() if self.tension else None,
            "lines": [r.to_dict() for r in self.races],
            "difficulty": self.difficulty.to_dict() if self.difficulty else None,
            "pacing": self.pacing.to_dict() if self.pacing else None,
            "mixed": self.mixed.to_dict() if self.mixed else None,
            "sensitivity": [x.to_dict() for x in self.sensitivity],
            "band": self.band.to_dict() if self.band else None,
            "stations": self.stations.to_dict() if self.stations else None,
            "findings": [f.to_dict() for f in self.found],
            "engines": self.engines,
            **self.extra,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def _engines_text(self) -> list[str]:
        """``Games played by the checked engine (skill:clairvoyant, ...), the kernel (...)``."""
        stages: dict[str, list[str]] = {}
        for stage, used in self.engines.items():
            for engine in used:
                stages.setdefault(engine, []).append(stage)
        if not stages:
            return []
        named = {"kernel": "the kernel", "checked": "the checked engine"}
        return [
            "Games played by "
            + "; ".join(f"{named.get(e, e)} ({', '.join(st)})" for e, st in sorted(stages.items()))
        ]

    def to_text(self) -> str:
        c = self.config
        s = self.skill
        out = [
            f"{self.map_name} ({self.map_id}): design report, seed {c.seed}, "
            f"variant {'special' if c.special else 'standard'} (95 % intervals in brackets)",
            *self._engines_text(),
            "",
            f"Findings ({len(self.found) or 'none'})",
        ]
        out += [f"  {f.text()}" for f in self.found]
        out += ["", f"Skill (solo, the same {s.games} decks per bot)"]
        out += [f"  {b:<12} mean {e.text()}" for b, e in s.means.items()]
        if s.luck_share is not None and s.skill_share is not None:
            among = ", ".join(b for b in s.bots if b in COMPETENT)
            out.append(
                f"  luck share      {s.luck_share.text('.3f')}   skill share "
                f"{s.skill_share.text('.3f')}  (two-way ANOVA, decks x bots, among {among})"
            )
        if s.relative_skill is not None:
            out.append(
                f"  relative skill  {s.relative_skill.text('.3f')}   (Dreef et al. 2004: "
                "(lookahead - random) / (clairvoyant - random))"
            )
        if s.headroom is not None:
            out.append(
                f"  skill headroom  {s.headroom.text()} points (greedy - random, same decks)"
            )
        out += [
            "",
            f"Decisions (solo, {self.decisions.games} greedy games, {self.decisions.turns} turns)",
            f"  choice matters (> {self.decisions.threshold:g} pt) "
            f"{self.decisions.share.text('.3f')}",
            f"  regret of a random move       {self.decisions.regret.text()} points",
        ]
        if self.tension:
            t = self.tension
            out += [
                "",
                f"Tension ({t.players} greedy players, {t.games} games; on expected final scores)",
                f"  lead changes     {t.lead_changes.text()}",
                f"  drama (points)   {t.drama.text()}",
                f"  tie rate         {t.tie_rate.text('.3f')}",
                f"  decided at       {t.decided.text('.3f')} of the game, "
                f"round {t.decided_round.text('.1f')}",
            ]
        out += [
            "",
            f"Lines ({'solo' if c.players == 1 else f'{c.players} greedy players'}, "
            f"{c.games} games)",
            f"  {'line':<6}{'printed':>8}{'completed':>22}{'first taken':>22}{'pts/player':>22}"
            "  half-way round",
        ]
        for r in self.races:
            half = next(
                (
                    i + 1
                    for i, x in enumerate(r.curve)
                    if r.completion.value and x >= r.completion.value / 2
                ),
                0,
            )
            out.append(
                f"  {r.line:<6}{f'{r.first}/{r.others}':>8}{r.completion.text('.3f'):>22}"
                f"{r.first_share.text('.3f'):>22}{r.expected.text():>22}  {half or '-'}"
            )
        out += self._stations_text()
        out += self._pacing_text() + self._mixed_text() + self._sensitivity_text()
        if self.difficulty:
            d = self.difficulty
            out += [
                "",
                f"Difficulty (greedy solo mean {d.mean.text()}): {d.between}, "
                f"index {d.index.text()} (0 = easiest shipped city, 1 = hardest)",
            ]
            out += [f"  {name:<12} {e.text()}" for name, e in d.cities.items()]
        return "\n".join(out) + "\n"

    def _stations_text(self, shown: int = STATIONS_SHOWN) -> list[str]:
        st = self.stations
        if st is None:
            return []
        rows = [x for x in st.stations if x.cut.value > 0 or (x.contested and x.contested.value)]
        many = st.players > 1
        out = [
            "",
            f"Stations ({'solo' if not many else f'{st.players} greedy players'}, {st.games} "
            f"games): where a run stops at a stop another line marked",
            f"  {'station':<16}{'lines':<10}{'cuts a run':>22}{'crosses lost':>20}"
            + (f"{'contested':>22}" if many else "")
            + "  runs cut",
        ]
        for x in rows[:shown]:
            cut = ", ".join(f"{lid} {n}" for lid, n in x.cut_lines.items()) or "-"
            contested = f"{x.contested.text('.3f'):>22}" if x.contested else ""
            out.append(
                f"  {x.station:<16}{','.join(x.lines):<10}{x.cut.text('.3f'):>22}"
                f"{x.lost.text():>20}{contested}  {cut}"
            )
        if len(rows) > shown:
            out.append(f"  ... {len(rows) - shown} more stations in the JSON report")
        if not rows:
            out.append("  no run was cut")
        return out

    def _pacing_text(self) -> list[str]:
        p = self.pacing
        if p is None:
            return []
        paid = " ".join(f"{x:.1f}" for x in p.paid)
        out = [
            "",
            f"Pacing ({p.games} games): bonus points per player by round: {paid}",
            f"  half paid by round {p.half_round}; last quarter of the rounds "
            f"{p.late.text('.3f')} of them",
        ]
        if p.seat_wins:
            out.append(
                "  wins by seat (identical bots): "
                + ", ".join(f"{i + 1}: {e.text('.3f')}" for i, e in enumerate(p.seat_wins))
            )
        return out

    def _mixed_text(self) -> list[str]:
        m = self.mixed
        if m is None:
            return []
        return [
            "",
            f"Mixed skill ({m.games} games, one lookahead among {m.players - 1} greedy players)",
            f"  lookahead wins {m.win_share.text('.3f')} (even: {m.even:.3f}); "
            f"leads the greedy players by {m.lead.text()} points",
        ]

    def _sensitivity_text(self) -> list[str]:
        if not self.sensitivity:
            return []
        out = [
            "",
            f"Sensitivity (solo greedy, the same {self.config.games} decks): change of the mean "
            "and of the line's completion",
        ]
        by_line: dict[str, list[str]] = {}
        for x in self.sensitivity:
            cell = (
                f"{x.edit}: {x.mean.value:+.2f} / {x.completion:+.2f}"
                if x.mean is not None and x.completion is not None
                else f"{x.edit}: invalid"
            )
            by_line.setdefault(x.line, []).append(cell)
        out += [f"  {lid:<4} " + "   ".join(cells) for lid, cells in by_line.items()]
        return out


STAGE_ORDER = (
    "skill:clairvoyant", "tension", "sensitivity", "decisions", "skill:lookahead", "races",
    "difficulty", "band", "mixed", "skill:greedy", "skill:random",
)  # fmt: skip
"""The report's independent stages, slowest first (so ``jobs`` processes finish together)."""

_job: tuple[CityMap, ReportConfig, dict[str, Any] | None] | None = None
"""The map, settings and document of the report being measured, set before the stages' pool
forks (its workers read it, so only stage names cross the process boundary)."""


def _stages(cfg: ReportConfig, doc: dict[str, Any] | None) -> list[str]:
    want = {f"skill:{b}" for b in cfg.skill_bots} | {"decisions", "races"}
    if cfg.players > 1:
        want.add("tension")
        if cfg.mixed_games:
            want.add("mixed")
    if cfg.sensitivity and doc is not None:
        want.add("sensitivity")
    if cfg.difficulty:
        want |= {"difficulty", "band"}
    return [s for s in STAGE_ORDER if s in want]


def _stage(name: str) -> object:
    """One stage of the report in :data:`_job` (in this process: ``jobs`` is the stage's own)."""
    assert _job is not None
    city, cfg, doc = _job
    if name.startswith("skill:"):
        return solo_scores(city, name[6:], cfg.games, cfg.seed, cfg.special, cfg.jobs)
    if name == "decisions":
        return measure_decisions(
            city,
            cfg.decision_games,
            cfg.seed,
            threshold=cfg.threshold,
            special=cfg.special,
            stride=cfg.scale,
        )
    if name == "tension":
        return measure_tension(
            city, cfg.players, cfg.tension_games, cfg.seed, cfg.special, stride=2 * cfg.scale
        )
    if name == "races":
        return _races(city, cfg)
    if name == "mixed":
        return measure_mixed(city, cfg.players, cfg.mixed_games, cfg.seed, cfg.special)
    if name == "sensitivity":
        from mapkit.design.profile import profile

        assert doc is not None
        base = profile(city, cfg.games, cfg.seed, 1, cfg.special)
        return measure_sensitivity(doc, base, cfg.games, cfg.seed, cfg.paper, cfg.special)
    if name == "difficulty":
        return measure_difficulty(city, cfg.games, cfg.seed, cfg.special, cfg.jobs)
    if name == "band":
        from mapkit.design.band import shipped_band

        return shipped_band(cfg.games, cfg.seed, cfg.special)
    raise ValueError(f"unknown report stage {name!r}")


def _races(city: CityMap, cfg: ReportConfig) -> tuple[list[LineRace], Pacing, Stations]:
    """The line races, pacing and stations, all from the same greedy games."""
    from mapkit.engine import Game, GameOptions
    from mapkit.simulate import RunConfig, simulate

    run = RunConfig(
        ("greedy",) * cfg.players, cfg.games, cfg.seed, special_stations=cfg.special, records=True
    )
    played = simulate(city, run, cfg.jobs)
    game = Game(city, GameOptions(cfg.players, cfg.special))
    return races_of(city, played), pacing(played), stations_of(game, played)


def _played(name: str) -> tuple[object, list[str]]:
    """Stage ``name``'s result and the engines that played its games."""
    from mapkit.simulate.runner import engines_used

    with engines_used() as used:
        result = _stage(name)
    return result, sorted(used)


def _measure(
    names: list[str], jobs: int, progress: Callable[[str], None] | None
) -> dict[str, tuple[object, list[str]]]:
    """Every stage's result and engines (:func:`_played`): in this process, or side by side
    in ``jobs`` worker processes (each stage in one process; the same either way)."""
    if jobs <= 1 or len(names) < 2:
        out = {}
        for name in names:
            if progress:
                progress(name)
            out[name] = _played(name)
        return out
    from mapkit import workers

    jobs = min(jobs, len(names))
    if progress:
        progress(f"{len(names)} stages in {jobs} processes")
    pool = workers.pool(jobs)
    try:
        pending = {name: pool.apply_async(_played, (name,)) for name in names}
        return {name: pending[name].get() for name in names}
    finally:
        workers.stop(pool)


def design_report(
    city: CityMap,
    cfg: ReportConfig,
    progress: Callable[[str], None] | None = None,
    doc: dict[str, Any] | None = None,
) -> DesignReport:
    """Measure every figure of ``city``; ``doc``, its document, enables the sensitivity table.

    ``cfg.jobs`` > 1 runs the independent stages (each bot's solo games, decisions, tension,
    the races, mixed skill, sensitivity, difficulty, the band) side by side in that many
    processes, slowest first; one process runs them in turn (its games' own runs then use
    ``cfg.jobs`` processes, which is 1). The figures are the same for any ``jobs``.
    """
    global _job
    check_seats(city, cfg.players)
    names = _stages(cfg, doc)
    inner = replace(cfg, jobs=1) if cfg.jobs > 1 else cfg
    _job = (city, inner, doc)
    try:
        measured = _measure(names, cfg.jobs, progress)
    finally:
        _job = None
    got = {name: result for name, (result, _) in measured.items()}
    scores = {b: got[f"skill:{b}"] for b in cfg.skill_bots}
    skill = skill_of(scores, cfg.games)
    races, pace, stations = got["races"]  # type: ignore[misc]
    rep = DesignReport(
        city.id,
        city.name,
        cfg,
        skill,
        got["decisions"],  # type: ignore[arg-type]
        got.get("tension"),  # type: ignore[arg-type]
        races,
        got.get("difficulty"),  # type: ignore[arg-type]
        pace,
        got.get("mixed"),  # type: ignore[arg-type]
        got.get("sensitivity", []),  # type: ignore[arg-type]
        got.get("band"),  # type: ignore[arg-type]
        stations,
        engines={name: used for name, (_, used) in measured.items()},
    )
    rep.found = findings(rep)
    return rep
