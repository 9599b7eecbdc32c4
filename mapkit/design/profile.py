"""A map's quick profile: what ``tune`` optimises and ``compare`` sets side by side.

Kernel-played only (fast): greedy solo scores and random solo scores on the same decks (for
the luck share of that two-bot ladder, ``skill.shares``), and per line, from greedy games with
``players`` seats, completions, bonus points paid and the measured difficulty of
``mapkit simulate`` (``summarize``). Decisions are slower and measured on demand.
"""

from __future__ import annotations

from dataclasses import dataclass

from mapkit.design.intervals import Estimate, bootstrap_ci, mean_ci, proportion_ci
from mapkit.design.skill import outcomes, shares, solo_scores
from mapkit.mapfile.model import CityMap


@dataclass
class LineProfile:
    line: str
    windows: int
    first: int
    others: int
    completion: Estimate
    points: Estimate
    difficulty: float
    points_list: list[int]


@dataclass
class Profile:
    map_id: str
    games: int
    players: int
    greedy: list[int]
    random: list[int]
    lines: dict[str, LineProfile]

    @property
    def mean(self) -> Estimate:
        return mean_ci(self.greedy)

    @property
    def luck(self) -> float:
        return shares(list(zip(self.random, self.greedy, strict=True)))[0]

    def luck_ci(self, seed: int) -> Estimate:
        rows = list(zip(self.random, self.greedy, strict=True))
        return bootstrap_ci(rows, lambda rs: shares(rs)[0], seed)


def profile(
    city: CityMap, games: int, seed: int, players: int = 1, special: bool = False, jobs: int = 1
) -> Profile:
    from mapkit.simulate import RunConfig, summarize

    random = solo_scores(city, "random", games, seed, special, jobs)
    cfg = RunConfig(("greedy",) * players, games, seed, special_stations=special)
    played = outcomes(city, cfg, jobs)
    if players == 1:
        greedy = [o.seats[0].score for o in played]
    else:
        greedy = solo_scores(city, "greedy", games, seed, special, jobs)
    rep = summarize(city, played, seed=seed)
    n = games * players
    lines = {}
    for line, stats in zip(city.lines, rep.lines, strict=True):
        pts = [s.completed.get(line.id, (0, 0))[1] for o in played for s in o.seats]
        done = sum(1 for o in played for s in o.seats if line.id in s.completed)
        lines[line.id] = LineProfile(
            line.id,
            line.windows,
            line.first,
            line.others,
            proportion_ci(done, n),
            mean_ci(pts),
            stats.difficulty,
            pts,
        )
    return Profile(city.id, games, players, greedy, random, lines)
