"""Decisions: how often the choice matters, and what random play costs (solo).

At every decision of greedy games (the states a competent player meets), a sample of legal
actions is valued: greedy's own choice plus ``actions - 1`` uniformly random legal actions.
An action's value is the mean final score of ``rollouts`` greedy playouts after it, with the
future cards drawn afresh from the pile (``chance_outcomes``); all actions of a state share the
same rollout seeds (common random numbers). A turn *matters* when the best sampled value
exceeds the median value of the random actions (the typical legal action) by more than
``threshold`` points. ``regret`` is best minus the mean value of the random actions: the
expected cost of one random move. Intervals: a bootstrap over games.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from mapkit.design.intervals import Estimate, bootstrap_ci
from mapkit.mapfile.model import CityMap


@dataclass
class Decisions:
    games: int
    turns: int
    threshold: float
    share: Estimate
    regret: Estimate

    def to_dict(self) -> dict[str, object]:
        return {
            "games": self.games,
            "turns": self.turns,
            "threshold": self.threshold,
            "share": self.share.to_dict(),
            "regret": self.regret.to_dict(),
        }


class GameDecisions(NamedTuple):
    """One game's valued turns: how many, how many mattered, each turn's regret."""

    turns: int
    matters: int
    regrets: list[float]


def _share(games: Sequence[GameDecisions]) -> float:
    n = sum(g.turns for g in games)
    return sum(g.matters for g in games) / n if n else 0.0


def _regret(games: Sequence[GameDecisions]) -> float:
    xs = [x for g in games for x in g.regrets]
    return statistics.fmean(xs) if xs else 0.0


def _playout(state, bot, rng: random.Random) -> int:  # type: ignore[no-untyped-def]
    bot.rng = rng
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(cards, probs)[0])
        else:
            state.apply_action(bot.choose(state))
    return state.score(0)


def measure_decisions(
    city: CityMap,
    games: int,
    seed: int,
    *,
    actions: int = 4,
    rollouts: int = 3,
    threshold: float = 1.0,
    special: bool = False,
) -> Decisions:
    from mapkit.bots import make_bot
    from mapkit.engine import Game, GameOptions
    from mapkit.engine.seats import seat_seed
    from mapkit.simulate import game_seed

    game = Game(city, GameOptions(players=1, special_stations=special))
    player = make_bot("greedy", 0)
    roller = make_bot("greedy", 0)
    per_game: list[GameDecisions] = []
    for i in range(games):
        gs = game_seed(seed, i)
        state = game.new_initial_state(gs)
        player.rng = random.Random(seat_seed(gs, 0))
        pick = random.Random(f"mapkit-decisions:{gs}")
        turn = 0
        matters = 0
        regrets: list[float] = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.deal()
                continue
            choice = player.choose(state)
            legal = state.legal_actions()
            if len(legal) > 1:
                others = pick.sample(legal, min(actions - 1, len(legal)))
                values = {}
                for a in {choice, *others}:
                    total = 0
                    for r in range(rollouts):
                        after = state.clone()
                        after.apply_action(a)
                        total += _playout(after, roller, random.Random(f"{gs}:{turn}:{r}"))
                    values[a] = total / rollouts
                best = max(values.values())
                typical = [values[a] for a in others]
                matters += best - statistics.median(typical) > threshold
                regrets.append(best - statistics.fmean(typical))
                turn += 1
            state.apply_action(choice)
        per_game.append(GameDecisions(turn, matters, regrets))
    return Decisions(
        games,
        sum(g.turns for g in per_game),
        threshold,
        bootstrap_ci(per_game, _share, seed),
        bootstrap_ci(per_game, _regret, seed),
    )
