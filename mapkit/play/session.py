"""A game at the terminal: one person against bots, or bots alone, through the checked engine.

A :class:`Session` is a game being played: a new one (:func:`new_session`) or an unfinished
record going on (:func:`resume_session`). :func:`play` plays it to the end through the game
loop every checked game uses (``engine.playout.play_out``), talking through two callables
(``ask`` a prompt, ``echo`` a line), and returns the game's :class:`GameOutcome`; quitting
raises :class:`Quit`, after which :func:`saved_record` is what a record keeps.

A bot's randomness comes from the game's seed, its seat and the number of actions before its
move (:func:`bot_rng`), so a resumed game's bots move as in the game played straight through.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mapkit.engine.cards import CARD_NAMES, FREE, window_text
from mapkit.mapfile.model import CityMap
from mapkit.play.answers import HELP, HELP_WORDS, QUIT_WORDS, choices_text, parse_choice
from mapkit.simulate.outcome import GameOutcome

PROMPT = "your choice> "


class PlayError(Exception):
    """A game that cannot be set up as asked; ``code`` is the exit code (1 data, 2 usage)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


class Quit(Exception):
    """The person asked to leave (``quit``, or the end of input)."""


@dataclass
class Session:
    """A game being played: its state, who sits where, and what each sheet shows."""

    game: Any
    state: Any
    names: list[str]
    seats: list[Any]
    """A bot per seat, ``None`` for the person at the keyboard."""
    windows: list[dict[str, list[str]]]
    """Per seat and line, the window texts written so far (the sheet shown to the person)."""
    free_rides: int = 0
    resumed: bool = False

    @property
    def seed(self) -> int:
        return self.state.seed


def recordable(name: str, seed: int | None) -> None:
    """PlayError for a name or seed the game record schema refuses: found now, not when the
    record is written (or read back by replay and --resume)."""
    from mapkit.mapfile.schema import load_schema

    if not name.strip():
        raise PlayError("--name must not be empty")
    props = load_schema("game")["properties"]
    longest = props["players"]["items"]["maxLength"]
    if len(name) > longest:
        raise PlayError(
            f"--name is {len(name)} characters; a record holds names of at most {longest}"
        )
    if re.search(r"[\x00-\x1f\x7f]", name):
        raise PlayError("--name must be on one line, without control characters")
    low, high = props["seed"]["minimum"], props["seed"]["maximum"]
    if seed is not None and not low <= seed <= high:
        raise PlayError("--seed must be an integer from -2^63 to 2^64-1 (what a record holds)")


def make_players(spec: str, count_seed: int) -> list[tuple[str, Any]]:
    """``(bot name, bot)`` for a comma-separated list of bots, from the bots registry."""
    from mapkit.bots import make_bot
    from mapkit.engine.seats import play_bot_seed

    names = [b.strip() for b in spec.split(",") if b.strip()] if spec else []
    out = []
    for i, name in enumerate(names):
        try:
            out.append((name, make_bot(name, seed=play_bot_seed(count_seed, i))))
        except (KeyError, ValueError) as exc:
            msg = str(exc.args[0]) if exc.args else ""
            raise PlayError(
                msg if msg.startswith("unknown bot") else f"unknown bot {name!r}: {msg}"
            ) from None
    return out


def bot_rng(seed: int, seat: int, step: int) -> random.Random:
    """The randomness of a bot's move, from the game's seed, its seat and how many actions
    were played before it: a resumed game's bots move as in the game played straight
    through (a generator carried along would restart from its seed on --resume)."""
    key = f"mapkit-play:{seed}:{seat}:{step}".encode()
    return random.Random(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big"))


def new_session(
    city: CityMap, bots: str, human: bool, seed: int | None, special: bool, name: str
) -> Session:
    """A new game on ``city``: the person (``human``, called ``name``) in seat 1, then the
    bots; ``seed`` None draws one."""
    from mapkit.engine import Game
    from mapkit.engine.seats import MAX_PLAYERS, PLAYER_RANGE, seat_names, valid_player_count

    recordable(name, seed)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    players = make_players(bots, seed)
    if human and len(players) > MAX_PLAYERS - 1:
        raise PlayError(f"at most {MAX_PLAYERS - 1} bots play against you")
    if not human and not valid_player_count(len(players)):
        raise PlayError(f"--no-human needs {PLAYER_RANGE} bots (--bots random,random)")
    names = ([name] if human else []) + seat_names([b for b, _ in players])
    if len(set(names)) != len(names):
        raise PlayError(f"the name {name!r} is taken by a bot; choose another --name")
    seats: list[Any] = ([None] if human else []) + [bot for _, bot in players]
    game = Game(city, players=len(names), special_stations=special)
    windows = [{lid: [] for lid in game.tables.line_ids} for _ in names]
    return Session(game, game.new_initial_state(seed), names, seats, windows)


def resume_session(city: CityMap, doc: Any) -> Session:
    """The game of an unfinished record, ready to go on: bots named ``<bot>-<n>`` (as
    :func:`new_session` names them) play again, the one other name is the person at the
    keyboard. RecordError for an illegal record, PlayError for one that cannot go on."""
    from mapkit.bots import BOTS, make_bot
    from mapkit.engine.record import replay
    from mapkit.engine.seats import BOT_SEAT, play_bot_seed
    from mapkit.rulesets import RULESETS

    played = doc.get("ruleset") if isinstance(doc, dict) else None
    rules = RULESETS.get(played) if isinstance(played, str) else None  # as it was started
    rep = replay(city, doc, upto=len(doc["rounds"]), ruleset=rules)
    if rep.state.is_terminal():
        raise PlayError("the game is over; nothing to resume (mapkit replay scores it)", 1)
    seed = rep.state.seed
    seats: list[Any] = []
    for player in rep.players:
        m = BOT_SEAT.fullmatch(player)
        if m and m["bot"] in BOTS:  # the seed make_players gave it
            seats.append(make_bot(m["bot"], seed=play_bot_seed(seed, int(m["number"]) - 1)))
        else:
            seats.append(None)
    if seats.count(None) > 1:
        humans = ", ".join(p for p, s in zip(rep.players, seats, strict=True) if s is None)
        raise PlayError(f"--resume plays one person against bots, but {humans} are not bots")
    return Session(
        rep.game, rep.state, rep.players, seats, rep.windows, rep.free_rides, resumed=True
    )


class _Seat:
    """A seat of :func:`play`: asks the person or the bot, logs the move, keeps the sheet."""

    legal_only = False

    def __init__(self, session: Session, p: int, ask: Callable[[str], str], echo: Callable) -> None:
        self.session, self.p, self.ask, self.echo = session, p, ask, echo

    def choose(self, state: Any) -> int:
        s, p = self.session, self.p
        extra = " (extra action: special station)" if state.is_extra_action() else ""
        bot = s.seats[p]
        if bot is None:
            self._show(state, extra)
            action = ask_action(state, self.ask, self.echo)
        else:
            action = bot.choose(state, rng=bot_rng(state.seed, p, len(state.history())))
        card = state.card()
        move = state.action_to_move(action)
        if card != FREE:
            s.windows[p][move["line"]].append(window_text(card))
        self.echo(f"{s.names[p]}: {state.game.move_to_string(move)}{extra}")
        return action

    def _show(self, state: Any, extra: str) -> None:
        from mapkit.engine.text import line_text

        s, p, t = self.session, self.p, state.game.tables
        self.echo(f"\nYour sheet ({s.names[p]}), card {CARD_NAMES[state.card()]}{extra}:")
        for li in range(t.n_lines):
            self.echo("  " + line_text(state, p, li, tuple(s.windows[p][t.line_ids[li]])))
        self.echo(choices_text(state))


def ask_action(state: Any, ask: Callable[[str], str], echo: Callable[[str], None]) -> int:
    """The person's legal action, asked until one is given: help and quit are spelled out
    (a line id always wins); the end of input is :class:`Quit`."""
    from mapkit.engine.errors import IllegalMove

    while True:
        try:
            text = ask(PROMPT)
        except EOFError:
            echo("")
            raise Quit from None
        low = text.strip().lower()
        is_line = low.upper() in {lid.upper() for lid in state.game.tables.line_ids}
        if low in HELP_WORDS and not is_line:
            echo(HELP.rstrip("\n"))
            echo(choices_text(state))
            continue
        if low in QUIT_WORDS and not is_line:
            raise Quit
        try:
            return state.move_to_action(parse_choice(text, state))
        except (ValueError, IllegalMove) as exc:
            echo(f"  {exc}; try again (? for help)")


def play(session: Session, ask: Callable[[str], str], echo: Callable[[str], None]) -> GameOutcome:
    """Play the session to the end, logging every card and move (the person's too); the
    game's outcome (played by the checked engine)."""
    from mapkit.simulate.runner import batch_of, outcomes_of, play_out

    def deal(state: Any) -> None:
        kind = state.deal()
        session.free_rides += kind == FREE
        echo(f"\n=== Round {state.round() + 1}: card {CARD_NAMES[kind]} ===")

    seats = [_Seat(session, p, ask, echo) for p in range(len(session.names))]
    state = play_out(session.state, seats, deal)
    batch = batch_of(session.game, [state])
    return outcomes_of(session.game, batch, 0, [state.seed], session.names, "checked")[0]


def saved_record(session: Session) -> tuple[dict[str, Any], int]:
    """On quitting: the record of the rounds every player finished and how many they are
    (the round in progress is played again, with the same card, by --resume)."""
    from mapkit.engine.record import history_turns, record_from_turns

    state = session.state
    history = state.history()
    turns = history_turns(session.game, history, state.seed)
    cards = [i for i, t in enumerate(turns) if t < 0]
    done, rounds = (
        (len(history), len(cards)) if state.is_chance_node() else (cards[-1], len(cards) - 1)
    )
    doc = record_from_turns(session.game, history[:done], turns[:done], session.names, state.seed)
    return doc, rounds


def record(session: Session) -> dict[str, Any]:
    """The game record of the session."""
    from mapkit.engine.record import record_from_history

    return record_from_history(session.game, session.state.history(), session.names, session.seed)


def replayed(session: Session) -> Any:
    """The finished game as ``record.Replayed`` (what ``result_text`` prints)."""
    from mapkit.engine.record import Replayed

    s = session
    return Replayed(s.game, s.state, s.names, s.state.round(), s.windows, free_rides=s.free_rides)
