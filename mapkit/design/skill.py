"""Skill: the bot ladder on the same decks, how much of the competent players' spread is luck,
and how much skill could win.

Every bot plays the same decks solo (game ``i`` uses the deck of ``game_seed(seed, i)`` whatever
the bot), so the scores form a matrix ``S[deck, bot]``.

- **Luck share** (a two-way analysis of variance without replication, over the *competent* bots
  ``greedy``, ``lookahead`` and ``clairvoyant``): the total sum of squares about the grand mean
  ``m`` splits into a deck part ``B * sum_d (mean_d - m)^2`` (the cards), a bot part
  ``D * sum_b (mean_b - m)^2`` (skill) and the rest (deck-by-bot interaction: the cards decide
  how much skill helps). ``luck_share`` is the deck part over the total, ``skill_share`` the
  bot part. The random bot is left out: its score is so far below the others that it would
  make the bot part dwarf everything and the luck share read ~0.02 on every map.
- **Relative skill** (Dreef, Borm & van der Genugten, "Measuring skill in games: several
  approaches discussed", Math. Methods of Operations Research 59 (2004) 375-391): the learning
  effect (best real player minus beginner) over the learning effect plus the random effect
  (a fictive player who knows the cards minus the best real player), here
  ``(lookahead - random) / (clairvoyant - random)``: 1 when knowing the future adds nothing.
- **Skill headroom**: ``greedy - random`` on the same decks (paired), what competent play earns
  over a novice's random play, reported apart from the luck share.

Intervals: the delete-one jackknife over decks with Student's t (``intervals.jackknife_ci``),
the shares on the logit scale (so they stay inside 0..1); the headroom's is the paired mean's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from mapkit.design.intervals import Estimate, jackknife_ci, mean_ci, paired_difference_ci
from mapkit.mapfile.model import CityMap
from mapkit.simulate import RunConfig

SKILL_BOTS = ("random", "greedy", "lookahead", "clairvoyant")
COMPETENT = ("greedy", "lookahead", "clairvoyant")


@dataclass
class Skill:
    bots: tuple[str, ...]
    games: int
    means: dict[str, Estimate]
    luck_share: Estimate | None
    """Among the competent bots measured (None: fewer than two of them)."""
    skill_share: Estimate | None
    relative_skill: Estimate | None
    """Dreef et al.'s, when random, lookahead and clairvoyant were measured."""
    headroom: Estimate | None
    """Greedy minus random, paired, when both were measured."""
    scores: dict[str, list[int]]
    """Per bot the solo score of each deck, in deck order (kept for compare and plots)."""

    def to_dict(self) -> dict[str, object]:
        return {
            "bots": list(self.bots),
            "games": self.games,
            "means": {b: e.to_dict() for b, e in self.means.items()},
            "luck_share": _d(self.luck_share),
            "luck_bots": [b for b in self.bots if b in COMPETENT],
            "skill_share": _d(self.skill_share),
            "relative_skill": _d(self.relative_skill),
            "skill_headroom": _d(self.headroom),
        }


def _d(e: Estimate | None) -> dict[str, float] | None:
    return e.to_dict() if e is not None else None


def relative_skill(rows: Sequence[Sequence[float]]) -> float:
    """``(best - beginner) / (fictive - beginner)`` over rows (random, lookahead, clairvoyant)."""
    beginner, best, fictive = (math.fsum(r[j] for r in rows) / len(rows) for j in range(3))
    return (best - beginner) / (fictive - beginner) if fictive != beginner else 1.0


def solo_scores(
    city: CityMap, bot: str, games: int, seed: int, special: bool = False, jobs: int = 1
) -> list[int]:
    """The solo scores of ``bot`` on decks ``0 .. games-1`` of ``seed`` (kernel when it can)."""
    from mapkit.simulate import simulate

    cfg = RunConfig(bots=(bot,), games=games, seed=seed, special_stations=special)
    return [o.seats[0].score for o in simulate(city, cfg, jobs)]


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


def luck_share(rows: Sequence[Sequence[float]]) -> float:
    """The deck share of :func:`shares`."""
    return shares(rows)[0]


def skill_share(rows: Sequence[Sequence[float]]) -> float:
    """The bot share of :func:`shares`."""
    return shares(rows)[1]


def measure_skill(
    city: CityMap,
    games: int,
    seed: int,
    bots: Sequence[str] = SKILL_BOTS,
    special: bool = False,
    jobs: int = 1,
) -> Skill:
    scores = {b: solo_scores(city, b, games, seed, special, jobs) for b in bots}
    return skill_of(scores, games)


def skill_of(scores: dict[str, list[int]], games: int) -> Skill:
    """The skill figures of the bots' solo scores on the same ``games`` decks, bots in the
    order of ``scores``."""
    bots = tuple(scores)

    def matrix(names: Sequence[str]) -> list[tuple[int, ...]]:
        return [tuple(scores[b][i] for b in names) for i in range(games)]

    competent = [b for b in bots if b in COMPETENT]
    luck = skill = rel = headroom = None
    if len(competent) >= 2:
        rows = matrix(competent)
        luck = jackknife_ci(rows, luck_share, share=True)
        skill = jackknife_ci(rows, skill_share, share=True)
    if {"random", "lookahead", "clairvoyant"} <= set(bots):
        rel = jackknife_ci(matrix(("random", "lookahead", "clairvoyant")), relative_skill)
    if {"random", "greedy"} <= set(bots):
        headroom = paired_difference_ci(scores["random"], scores["greedy"])
    means = {b: mean_ci(s) for b, s in scores.items()}
    return Skill(bots, games, means, luck, skill, rel, headroom, scores)
