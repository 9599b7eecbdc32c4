"""Mixed skill at the table: one ``lookahead`` among ``greedy`` players. Does skill win?

``players`` seats, one of them lookahead, the others greedy; the lookahead player sits in each
seat for an equal share of the games (seat ``s`` plays the decks of run seed
``seed * players + s``), so no seat advantage leaks in. Figures: the lookahead player's **win
share** (ties shared; Wilson on the credits' effective size, ``credit_share_ci``, as the seats'
in pacing) against ``1 / players`` for an even table, and its **score lead**: its score minus
the greedy players' mean in the same game (a mean over games, the independent units).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mapkit.design.intervals import Estimate, credit_share_ci, mean_ci
from mapkit.mapfile.model import CityMap


@dataclass
class Mixed:
    players: int
    games: int
    win_share: Estimate
    lead: Estimate

    @property
    def even(self) -> float:
        return 1 / self.players

    def to_dict(self) -> dict[str, object]:
        return {
            "players": self.players,
            "games": self.games,
            "seating": "one lookahead, the others greedy",
            "win_share": self.win_share.to_dict(),
            "even_share": round(self.even, 4),
            "score_lead": self.lead.to_dict(),
        }


def measure_mixed(
    city: CityMap, players: int, games: int, seed: int, special: bool = False
) -> Mixed:
    """The mixed table of the run ``seed`` (:func:`play_mixed`)."""
    return mixed_of(players, play_mixed(city, players, games, seed, special))


def play_mixed(
    city: CityMap, players: int, games: int, seed: int, special: bool = False
) -> list[tuple[float, float]]:
    """Per game, the lookahead player's win (ties shared) and its score lead."""
    from mapkit.simulate import RunConfig, simulate

    per_game: list[tuple[float, float]] = []
    per_seat = -(-games // players)
    for seat in range(players):
        bots = tuple("lookahead" if p == seat else "greedy" for p in range(players))
        cfg = RunConfig(bots, per_seat, seed * players + seat, special_stations=special)
        for o in simulate(city, cfg):
            winners = [p for p, s in enumerate(o.seats) if s.rank == 1]
            rest = [s.score for p, s in enumerate(o.seats) if p != seat]
            win = (seat in winners) / len(winners)
            per_game.append((win, o.seats[seat].score - sum(rest) / len(rest)))
    return per_game


def mixed_of(players: int, per_game: Sequence[tuple[float, float]]) -> Mixed:
    """The figures over games (the independent units), with their intervals."""
    wins = credit_share_ci([w for w, _ in per_game])
    return Mixed(players, len(per_game), wins, mean_ci([lead for _, lead in per_game]))
