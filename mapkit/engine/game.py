"""A game: a map, the number of players and the variant; it makes initial states."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from mapkit.engine import actions
from mapkit.engine.cards import CARD_NAMES, CARD_VALUE, FREE, PLUS
from mapkit.engine.errors import IllegalMove
from mapkit.engine.seats import PLAYER_RANGE, valid_player_count
from mapkit.engine.state import State
from mapkit.engine.tables import Tables
from mapkit.mapfile.model import CityMap
from mapkit.rulesets import Ruleset

MOVE_KEYS = frozenset({"line", "crosses", "direction", "branch", "station", "then"})
"""The keys of a record move (``schemas/game.schema.json``)."""


@dataclass(frozen=True)
class GameOptions:
    """``players`` 1 to 6 (:mod:`~mapkit.engine.seats`; 1: solo scoring); ``special_stations``:
    the Paris/Madrid variant; ``ruleset``: the edition played (``None``: the map's own)."""

    players: int = 1
    special_stations: bool = False
    ruleset: Ruleset | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not valid_player_count(self.players):
            raise ValueError(f"players must be {PLAYER_RANGE}, not {self.players!r}")


class Game:
    """The rules of one map for a number of players. Immutable and shared by its states."""

    def __init__(
        self,
        city: CityMap,
        options: GameOptions | dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if options is None:
            options = GameOptions(**kwargs)
        elif isinstance(options, dict):
            options = GameOptions(**{**options, **kwargs})
        self.city = city
        self.options = options
        self.special_stations = options.special_stations
        self.ruleset: Ruleset = options.ruleset or city.ruleset
        self.ruleset.check_players(options.players)
        self.tables = Tables(city)

    def num_players(self) -> int:
        return self.options.players

    def num_distinct_actions(self) -> int:
        """Player action ids are ``0 .. num_distinct_actions() - 1``."""
        return self.tables.free_base + self.tables.n_stations + 1

    def max_chance_outcomes(self) -> int:
        return len(CARD_NAMES)

    def new_initial_state(self, seed: int | None = None) -> State:
        """The state before the first card. ``seed`` fixes the cards ``State.deal`` reveals."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        return State(self, int(seed))

    # ------------------------------------------------------- record moves
    def action_to_move(self, action: int, card: int) -> dict[str, Any]:
        """The record move dict of ``action`` played with card kind ``card``."""
        return actions.to_move(self.tables, action, card)

    def move_to_action(self, move: Any, state: State) -> int:
        """The legal action of ``state``'s current player for a record move; IllegalMove if none."""
        t = self.tables
        card = state.card()
        if card < 0:
            raise IllegalMove("no card has been revealed")
        if not isinstance(move, dict):
            raise IllegalMove(f'a move is an object like {{"line": "A"}}, not {move!r}')
        unknown = sorted(set(move) - MOVE_KEYS)
        if unknown:
            raise IllegalMove(f"unknown key {unknown[0]!r} in move")
        if card == FREE:
            if "line" in move or "station" not in move:
                raise IllegalMove(
                    'a free ride fills no window: the move is {"station": S} or {"station": null}'
                )
            sid = move["station"]
            if sid is None:
                return t.free_base + t.n_stations
            if not isinstance(sid, str) or sid not in t.station_index:
                raise IllegalMove(f"no station {sid!r} on map {self.city.id}")
            a = t.free_base + t.station_index[sid]
            state.check(a)
            return a
        name = CARD_NAMES[card]
        if "station" in move or "line" not in move:
            raise IllegalMove(f'a {name} card is played on a line: the move is {{"line": L, ...}}')
        lid = move["line"]
        if not isinstance(lid, str) or lid not in t.line_index:
            raise IllegalMove(f"no line {lid!r} on map {self.city.id}")
        li = t.line_index[lid]
        d = actions.route_of(move, self.city.lines[li])
        state.check(actions.line_move(li, d, 0))
        if card == PLUS:
            if "crosses" in move:
                raise IllegalMove("an interchange places no crosses: leave out 'crosses'")
            return state.canonical(actions.line_move(li, d, 0))
        lm = state.line_mask(state.current_player(), li)
        e = t.entry(li, d, lm)
        most = e.most_crosses(card)
        k = move.get("crosses", most)
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise IllegalMove(f"crosses is a whole number >= 0, not {k!r}")
        if k > most:
            why = f"the {name} card" if k > CARD_VALUE[card] else f"line {lid} ({most} reachable)"
            raise IllegalMove(
                f"more crosses than possible: {k} crosses on line {lid}"
                f"{' backward' if d else ''}, but {why} allows at most {most}"
            )
        return state.canonical(actions.line_move(li, d, k))

    def move_to_string(self, move: dict[str, Any] | None) -> str:
        """A short readable form: ``B 3``, ``C backward 2``, ``+ D``, ``free s4``, ``-``."""
        return actions.describe(move)
