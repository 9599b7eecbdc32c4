"""Skill: the bot ladder on the same decks, and how much of the score spread is luck.

Method (a two-way analysis of variance without replication): the solo scores form a matrix
``S[deck, bot]``, every bot playing every deck (game ``i`` of a run uses the deck of
``game_seed(seed, i)`` whatever the bot). The total sum of squares about the grand mean splits
into a deck part ``B * sum_d (mean_d - m)^2`` (the cards), a bot part
``D * sum_b (mean_b - m)^2`` (skill) and the rest (deck-by-bot interaction: the cards decide
how much skill helps). ``luck_share`` is the deck part over the total, ``skill_share`` the bot
part; their intervals come from a seeded bootstrap over decks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from mapkit.design.intervals import Estimate, bootstrap_ci, mean_ci
from mapkit.mapfile.model import CityMap
from mapkit.simulate import GameOutcome, RunConfig

SKILL_BOTS = ("random", "greedy", "lookahead", "clairvoyant")


@dataclass
class Skill:
    bots: tuple[str, ...]
    games: int
    means: dict[str, Estimate]
    luck_share: Estimate
    skill_share: Estimate
    scores: dict[str, list[int]]
    """Per bot the solo score of each deck, in deck order (kept for compare and plots)."""

    def to_dict(self) -> dict[str, object]:
        return {
            "bots": list(self.bots),
            "games": self.games,
            "means": {b: e.to_dict() for b, e in self.means.items()},
            "luck_share": self.luck_share.to_dict(),
            "skill_share": self.skill_share.to_dict(),
        }


def outcomes(city: CityMap, cfg: RunConfig, jobs: int = 1) -> list[GameOutcome]:
    """``simulate``'s outcomes; kernel-played seatings in this process (``simulate`` keeps
    per-game outcomes from the kernel only with one job, and the kernel is fast), the others
    (clairvoyant) in ``jobs`` processes."""
    from mapkit.simulate import simulate
    from mapkit.simulate.runner import kernel_plays

    return simulate(city, cfg, 1 if kernel_plays(cfg) else jobs)


def solo_scores(
    city: CityMap, bot: str, games: int, seed: int, special: bool = False, jobs: int = 1
) -> list[int]:
    """The solo scores of ``bot`` on decks ``0 .. games-1`` of ``seed`` (kernel when it can)."""
    cfg = RunConfig(bots=(bot,), games=games, seed=seed, special_stations=special)
    return [o.seats[0].score for o in outcomes(city, cfg, jobs)]


def shares(rows: Sequence[Sequence[float]]) -> tuple[float, float]:
    """(deck share, bot share) of the total sum of squares of a decks x bots matrix."""
    d, b = len(rows), len(rows[0])
    m = math.fsum(math.fsum(r) for r in rows) / (d * b)
    total = math.fsum((x - m) ** 2 for r in rows for x in r)
    if total == 0:
        return 0.0, 0.0
    deck = b * math.fsum((math.fsum(r) / b - m) ** 2 for r in rows)
    bot = d * math.fsum((math.fsum(r[j] for r in rows) / d - m) ** 2 for j in range(b))
    return deck / total, bot / total


def measure_skill(
    city: CityMap,
    games: int,
    seed: int,
    bots: Sequence[str] = SKILL_BOTS,
    special: bool = False,
    jobs: int = 1,
) -> Skill:
    scores = {b: solo_scores(city, b, games, seed, special, jobs) for b in bots}
    rows = [tuple(scores[b][i] for b in bots) for i in range(games)]
    luck = bootstrap_ci(rows, lambda rs: shares(rs)[0], seed)
    skill = bootstrap_ci(rows, lambda rs: shares(rs)[1], seed)
    return Skill(
        tuple(bots), games, {b: mean_ci(s) for b, s in scores.items()}, luck, skill, scores
    )
