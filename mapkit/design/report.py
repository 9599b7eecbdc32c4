"""``mapkit report``: skill, decisions, tension, line races and difficulty of one map.

``design_report(city, ReportConfig(...))`` measures everything; ``to_dict`` / ``to_text`` print
it and ``mapkit.design.html.to_html`` draws it. Every figure carries a 95 % interval.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from mapkit.design.decisions import Decisions, measure_decisions
from mapkit.design.difficulty import Difficulty, measure_difficulty
from mapkit.design.races import LineRace, measure_races
from mapkit.design.skill import SKILL_BOTS, Skill, measure_skill
from mapkit.design.tension import Tension, measure_tension
from mapkit.mapfile.model import CityMap


@dataclass(frozen=True)
class ReportConfig:
    games: int = 200
    """Decks per bot for skill and difficulty, and games for the line races."""
    seed: int = 0
    players: int = 3
    """Seats for tension and the line races (greedy in every seat)."""
    tension_games: int = 100
    decision_games: int = 6
    threshold: float = 1.0
    special: bool = False
    skill_bots: tuple[str, ...] = SKILL_BOTS
    difficulty: bool = True
    """Measure the shipped cities too (the scale); off for quick runs and tests."""
    jobs: int = 1


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
    extra: dict[str, object] = field(default_factory=dict)

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
            **self.extra,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def to_text(self) -> str:
        c = self.config
        s = self.skill
        out = [
            f"{self.map_name} ({self.map_id}): design report, seed {c.seed}, "
            f"variant {'special' if c.special else 'standard'} (95 % intervals in brackets)",
            "",
            f"Skill (solo, the same {s.games} decks per bot)",
        ]
        out += [f"  {b:<12} mean {e.text()}" for b, e in s.means.items()]
        out += [
            f"  luck share  {s.luck_share.text('.3f')}   skill share {s.skill_share.text('.3f')}"
            "  (two-way ANOVA, decks x bots)",
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
                f"Tension ({t.players} greedy players, {t.games} games)",
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
            half = next((i + 1 for i, x in enumerate(r.curve) if x >= r.completion.value / 2), 0)
            out.append(
                f"  {r.line:<6}{f'{r.first}/{r.others}':>8}{r.completion.text('.3f'):>22}"
                f"{r.first_share.text('.3f'):>22}{r.expected.text():>22}  {half or '-'}"
            )
        if self.difficulty:
            d = self.difficulty
            out += [
                "",
                f"Difficulty (greedy solo mean {d.mean.text()}): {d.between}, "
                f"index {d.index:.2f} (0 = easiest shipped city, 1 = hardest)",
            ]
            out += [f"  {name:<12} {e.text()}" for name, e in d.cities.items()]
        return "\n".join(out) + "\n"


def design_report(
    city: CityMap, cfg: ReportConfig, progress: Callable[[str], None] | None = None
) -> DesignReport:
    def step(what: str) -> None:
        if progress:
            progress(what)

    step("skill")
    skill = measure_skill(city, cfg.games, cfg.seed, cfg.skill_bots, cfg.special, cfg.jobs)
    step("decisions")
    decisions = measure_decisions(
        city, cfg.decision_games, cfg.seed, threshold=cfg.threshold, special=cfg.special
    )
    tension = None
    if cfg.players > 1:
        step("tension")
        tension = measure_tension(city, cfg.players, cfg.tension_games, cfg.seed, cfg.special)
    step("line races")
    races = measure_races(city, cfg.players, cfg.games, cfg.seed, cfg.special, cfg.jobs)
    difficulty = None
    if cfg.difficulty:
        step("difficulty scale")
        difficulty = measure_difficulty(city, cfg.games, cfg.seed, cfg.special, cfg.jobs)
    return DesignReport(city.id, city.name, cfg, skill, decisions, tension, races, difficulty)
