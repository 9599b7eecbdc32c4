"""Tension with several players: lead changes, drama, ties, when the winner becomes clear.

Greedy players in every seat play the run's games through the checked engine
(``GameRunner``). Every ``stride`` rounds each player's position is **evaluated as its
expected final score**: the mean final scores of ``playouts`` greedy playouts of the whole
table from that state, the future cards drawn afresh from the pile (``chance_outcomes``),
seeded; the last point is the real final score. Lead changes and drama are read on these
evaluations, as Browne (*Automatic generation and evaluation of recombination games*, 2008)
and Ludii's metrics define them on a position evaluation: the running score would call the
leader whoever has banked bonuses so far, though another player may be a window from a bigger
line. Per game:

- ``lead_changes``: how often the sole leader changes (a tie for the lead keeps the last one);
- ``drama``: how far, in points, the eventual winner trailed the leader at their worst round
  (0 when they never trailed);
- ``tie``: two or more players share the first rank at the end (score, then empty stations);
- ``decided``: the first evaluation point after which the eventual winner leads alone to the
  end, as a share of the game's points (1: only the end decided it; ties count as 1), and
  ``decided_round``, its round (a tie: the last round).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from mapkit.design.intervals import Estimate, mean_ci, proportion_ci
from mapkit.mapfile.model import CityMap


@dataclass
class Tension:
    players: int
    games: int
    lead_changes: Estimate
    drama: Estimate
    tie_rate: Estimate
    decided: Estimate
    decided_round: Estimate

    def to_dict(self) -> dict[str, object]:
        return {
            "players": self.players,
            "games": self.games,
            "lead_changes": self.lead_changes.to_dict(),
            "drama": self.drama.to_dict(),
            "tie_rate": self.tie_rate.to_dict(),
            "decided": self.decided.to_dict(),
            "decided_round": self.decided_round.to_dict(),
        }


def _sole_leader(scores: list[float]) -> int | None:
    top = max(scores)
    leaders = [p for p, s in enumerate(scores) if s == top]
    return leaders[0] if len(leaders) == 1 else None


def game_tension(trail: list[list[float]], ranks: list[int]) -> tuple[int, float, bool, float, int]:
    """(lead changes, drama, tie, decided share, decided point) of one game's evaluations
    (one list of the players' values per evaluation point) and final ranks."""
    winners = [p for p, r in enumerate(ranks) if r == 1]
    tie = len(winners) > 1
    w = winners[0]
    changes = 0
    last = None
    for scores in trail:
        lead = _sole_leader(scores)
        if lead is not None:
            if last is not None and lead != last:
                changes += 1
            last = lead
    drama = max(0, *(max(s) - s[w] for s in trail)) if trail else 0
    decided = len(trail)
    if not tie:
        for r in range(len(trail) - 1, -1, -1):
            if _sole_leader(trail[r]) != w:
                break
            decided = r
    decided = min(decided, len(trail) - 1) if trail else 0
    share = 1.0 if tie or not trail else (decided + 1) / len(trail)
    return changes, float(drama), tie, share, decided + 1


def evaluate(state, bots, playouts: int, key: str) -> list[float]:  # type: ignore[no-untyped-def]
    """Each player's expected final score from ``state``: the mean of ``playouts`` playouts."""
    from mapkit.simulate.runner import playout

    totals = [0.0] * len(bots)
    for k in range(playouts):
        finals = playout(state.clone(), bots, random.Random(f"{key}:{k}"))
        totals = [t + f for t, f in zip(totals, finals, strict=True)]
    return [t / playouts for t in totals]


class GameTension(NamedTuple):
    """One game's figures (:func:`game_tension`), ``decided_round`` a round number."""

    lead_changes: int
    drama: float
    tie: bool
    decided: float
    decided_round: int


def measure_tension(
    city: CityMap,
    players: int,
    games: int,
    seed: int,
    special: bool = False,
    playouts: int = 4,
    stride: int = 2,
) -> Tension:
    """The tension of greedy games of the run ``seed`` (:func:`play_tension`)."""
    return tension_of(players, play_tension(city, players, games, seed, special, playouts, stride))


def play_tension(
    city: CityMap,
    players: int,
    games: int,
    seed: int,
    special: bool = False,
    playouts: int = 4,
    stride: int = 2,
) -> list[GameTension]:
    """Greedy games of the run ``seed`` through the checked engine (``GameRunner``), each
    evaluated every ``stride`` rounds before the card is turned: each game's figures."""
    from mapkit.bots import make_bot
    from mapkit.simulate import GameRunner, RunConfig

    cfg = RunConfig(("greedy",) * players, games, seed, special, engine="checked")
    runner = GameRunner(city, cfg)
    rollers = [make_bot("greedy", 0) for _ in range(players)]
    results: list[GameTension] = []
    for i, gs in enumerate(runner.seeds(0, games)):
        trail: list[list[float]] = []
        rounds: list[int] = []

        def deal(state, gs=gs, trail=trail, rounds=rounds):  # type: ignore[no-untyped-def]
            r = state.round()
            if r and r % stride == 0:
                trail.append(evaluate(state, rollers, playouts, f"{gs}:{r}"))
                rounds.append(r)
            state.deal()

        outcome = runner.outcome(i, runner.play_checked(gs, deal))
        trail.append([float(s.score) for s in outcome.seats])
        rounds.append(outcome.rounds)
        changes, drama, tie, share, point = game_tension(trail, [s.rank for s in outcome.seats])
        results.append(GameTension(changes, drama, tie, share, rounds[point - 1]))
    return results


def tension_of(players: int, results: Sequence[GameTension]) -> Tension:
    """The figures over games (the independent units), with their intervals."""
    return Tension(
        players,
        len(results),
        mean_ci([r.lead_changes for r in results]),
        mean_ci([r.drama for r in results]),
        proportion_ci(sum(r.tie for r in results), len(results)),
        mean_ci([r.decided for r in results]),
        mean_ci([r.decided_round for r in results]),
    )
