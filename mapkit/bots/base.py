"""The bot interface and the bridge from engine states to the bots' sheet model.

Legality always comes from the engine: a bot's candidate moves are turned into
engine actions, canonicalised and kept only if ``legal_actions()`` lists them.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from mapkit.bots.evaluate import View
from mapkit.bots.model import Compiled
from mapkit.engine.kernel import lines_of

if TYPE_CHECKING:
    from mapkit.engine import State


class Bot:
    """A seeded player. ``choose`` returns one of ``state.legal_actions()``.

    ``rng`` defaults to the bot's own generator (seeded by :func:`make_bot`), so
    a bot replays the same game for the same seed and the same states.
    """

    name = "bot"
    legal_only = False
    """True when ``choose`` only returns actions the engine has confirmed legal (from its
    rule table or ``state.is_legal``): ``mapkit simulate`` then applies them unchecked."""

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.options = options
        self._compiled: tuple[Any, Compiled] | None = None

    def choose(self, state: State, rng: random.Random | None = None) -> int:
        raise NotImplementedError

    def compiled(self, state: State) -> Compiled:
        """The bots' model of the state's map, built once per map."""
        city = state.game.city
        if self._compiled is None or self._compiled[0] is not city:
            self._compiled = (city, Compiled(state.game.tables))
        return self._compiled[1]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"


def view_of(state: State, cc: Compiled, player: int | None = None) -> View:
    """One player's sheet as public information (race: lines already taken by others)."""
    p = state.current_player() if player is None else player
    n = state.num_players()
    km = state.game.tables.kernel
    done = lines_of(km, state.completed(p))
    lost = 0 if n == 1 else lines_of(km, state.taken() & ~state.completed(p))
    return View(
        marked=state.marked(p),
        windows=[state.windows_left(p, li) for li in range(len(cc.line_ids))],
        lost=lost,
        done=done,
        inter=sum(state.interchanges(p)),
        pw=state.game.ruleset.empty_weight(n),
        all_lines=state.all_lines_open(p),
    )


def free_base(state: State, cc: Compiled) -> int:
    return state.game.num_distinct_actions() - cc.n - 1


def next_cards(state: State) -> list[tuple[int, float]]:
    """(engine card kind, probability) of the next round's card, seen from a decision node."""
    rules = state.game.ruleset
    if state.card() == rules.reshuffle:
        return [(k, c / rules.deck_size) for k, c in enumerate(rules.counts) if c]
    return state.chance_outcomes()
