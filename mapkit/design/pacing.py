"""Pacing: when in the game the bonus points are paid, and whether the first seat wins more.

From the report's greedy games (``players`` seats, kernel-played): ``paid[r]`` is the mean bonus
points paid per player-game in round ``r + 1`` (a line's bonus counts in the round it is
completed; a branching line's, as ``scoring.paying_units`` pays it, in the round of the branch
that pays); ``late`` the share of all bonus points paid in the last quarter of each game's
rounds, with the jackknife's interval over games (on the logit scale). With several players,
``seat_wins[p]`` is seat ``p + 1``'s share of the games it wins (ties shared), Wilson
intervals on the credits' effective size (:func:`credit_share_ci`): identical bots in every
seat should win alike, so a first seat well above
``1 / players`` is an advantage of the seat.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from mapkit.design.intervals import Estimate, credit_share_ci, jackknife_ci
from mapkit.simulate import GameOutcome

LATE = 0.75
"""Rounds after this share of a game's rounds are its last quarter."""


@dataclass
class Pacing:
    players: int
    games: int
    paid: list[float]
    late: Estimate
    half_round: int
    """The round by which half of all bonus points are paid."""
    seat_wins: list[Estimate]

    def to_dict(self) -> dict[str, object]:
        return {
            "players": self.players,
            "games": self.games,
            "bonus_paid_by_round": [round(x, 4) for x in self.paid],
            "late_share": self.late.to_dict(),
            "half_paid_by_round": self.half_round,
            "seat_wins": [e.to_dict() for e in self.seat_wins],
        }


def _late(games: Sequence[GameOutcome]) -> float:
    total = late = 0.0
    for o in games:
        for s in o.seats:
            for r, pts in s.completed.values():
                total += pts
                late += pts if r > LATE * o.rounds else 0
    return late / total if total else 0.0


def pacing(played: Sequence[GameOutcome]) -> Pacing:
    """The pacing of some games (all with the same seating)."""
    players = len(played[0].seats)
    horizon = max(o.rounds for o in played)
    paid = [0.0] * horizon
    for o in played:
        for s in o.seats:
            for r, pts in s.completed.values():
                paid[r - 1] += pts
    n = len(played) * players
    paid = [x / n for x in paid]
    total = math.fsum(paid)
    running, half = 0.0, horizon
    for r, x in enumerate(paid):
        running += x
        if running >= total / 2:
            half = r + 1
            break
    credits = [[0.0] * len(played) for _ in range(players)]
    for g, o in enumerate(played):
        winners = [p for p, s in enumerate(o.seats) if s.rank == 1]
        for p in winners:
            credits[p][g] = 1 / len(winners)
    seat_wins = [credit_share_ci(c) for c in credits] if players > 1 else []
    late = jackknife_ci(list(played), _late, share=True)
    return Pacing(players, len(played), paid, late, half, seat_wins)
