"""A map's quick profile: what ``tune`` optimises and ``compare`` sets side by side.

Kernel-played only (fast): greedy and random solo scores on the same decks (their paired gap is
the **skill headroom**, what competent play earns over random play), with ``luck_games`` also
lookahead solo scores on the first of those decks (the luck share among competent bots,
``skill.shares`` over greedy and lookahead), and per line, from greedy games with ``players``
seats, completions, bonus points paid and the measured difficulty of ``mapkit simulate``
(``summarize``). Decisions are slower and measured on demand.
"""

from __future__ import annotations

from dataclasses import dataclass

from mapkit.design.intervals import (
    Estimate,
    jackknife_ci,
    mean_ci,
    paired_difference_ci,
    proportion_ci,
)
from mapkit.design.skill import luck_share, solo_scores
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
    lookahead: list[int] | None = None
    """Lookahead solo scores on the first decks (``luck_games``), or None: not measured."""

    @property
    def mean(self) -> Estimate:
        return mean_ci(self.greedy)

    @property
    def headroom(self) -> Estimate:
        """Greedy minus random on the same decks (paired): what competent play earns."""
        return paired_difference_ci(self.random, self.greedy)

    def _competent(self) -> list[tuple[int, int]]:
        if self.lookahead is None:
            raise ValueError("the luck share needs lookahead scores (luck_games)")
        return list(zip(self.greedy, self.lookahead, strict=False))

    @property
    def luck(self) -> float:
        """Deck share of the score variance among greedy and lookahead (``skill.shares``)."""
        return luck_share(self._competent())

    def luck_ci(self) -> Estimate:
        return jackknife_ci(self._competent(), luck_share, share=True)


def check_seats(city: CityMap, players: int) -> None:
    """ValueError unless ``city``'s ruleset is played by ``players`` and solo: every design
    measure (a profile, the report, compare, tune) plays solo games besides its tables."""
    city.ruleset.check_players(players)
    try:
        city.ruleset.check_players(1)
    except ValueError as exc:
        raise ValueError(f"{exc} (the design measures play solo games too)") from None


def profile(
    city: CityMap,
    games: int,
    seed: int,
    players: int = 1,
    special: bool = False,
    jobs: int = 1,
    luck_games: int = 0,
) -> Profile:
    from mapkit.simulate import RunConfig, simulate, summarize

    check_seats(city, players)
    random = solo_scores(city, "random", games, seed, special, jobs)
    cfg = RunConfig(("greedy",) * players, games, seed, special_stations=special)
    played = simulate(city, cfg, jobs)
    if players == 1:
        greedy = [o.seats[0].score for o in played]
    else:
        greedy = solo_scores(city, "greedy", games, seed, special, jobs)
    rep = summarize(city, played, seed=seed)
    n = games * players
    lines = {}
    for unit, stats in zip(city.units, rep.lines, strict=True):  # lines and branches
        uid = unit.label
        pts = [s.completed.get(uid, (0, 0))[1] for o in played for s in o.seats]
        done = sum(1 for o in played for s in o.seats if uid in s.completed)
        lines[uid] = LineProfile(
            uid,
            city.lines[unit.line].windows,
            unit.first,
            unit.others,
            proportion_ci(done, n),
            mean_ci(pts),
            stats.difficulty,
            pts,
        )
    lookahead = None
    if luck_games:
        lookahead = solo_scores(city, "lookahead", min(games, luck_games), seed, special, jobs)
    return Profile(city.id, games, players, greedy, random, lines, lookahead)
