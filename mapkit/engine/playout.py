"""The checked engine's one game loop: :func:`play_out` plays a state to its end, seat by seat.

Every game outside the kernel goes through it: the runner's checked games
(``mapkit.simulate.runner``), tension and decision playouts, ``mapkit play`` and
``State.random_playout`` / ``State.seeded_playout``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from mapkit.engine.cards import CHANCE

if TYPE_CHECKING:
    from mapkit.engine.state import State


class Seat(Protocol):
    """What sits in a seat of :func:`play_out`: a bot, or a person at the keyboard."""

    legal_only: bool
    """True when ``choose`` only returns legal actions (they are then applied unchecked)."""

    def choose(self, state: State) -> int: ...


class RandomSeat:
    """Uniformly random legal actions (``State.random_action``) drawn with ``rand``: the random
    bot's choice, without a bot object."""

    legal_only = True

    def __init__(self, rand: Callable[[], float]) -> None:
        self.rand = rand

    def choose(self, state: State) -> int:
        return state.random_action(self.rand)


def play_out(
    state: State, seats: Sequence[Seat], deal: Callable[[State], object] | None = None
) -> State:
    """Play ``state`` to its end through the checked engine, the only game loop outside the
    kernel: ``deal`` turns each card (default: the seeded deck's next), seat ``p`` makes
    each of its decisions. ``deal`` and the seats may look at the state first (evaluations,
    a terminal session's log)."""
    while True:
        p = state.current_player()
        if p >= 0:
            seat = seats[p]
            a = seat.choose(state)
            if seat.legal_only:
                state.apply_legal(a)
            else:
                state.apply_action(a)
        elif p == CHANCE:
            if deal is None:
                state.deal()
            else:
                deal(state)
        else:
            return state


def drawn(rng: random.Random) -> Callable[[State], None]:
    """A ``deal`` for :func:`play_out` that draws from the pile with ``rng`` instead of the
    seeded deck: a playout's future is another possible one, not the game's own."""

    def deal(state: State) -> None:
        cards, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(cards, probs)[0])

    return deal
