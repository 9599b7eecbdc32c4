"""``mapkit play`` (a human against bots in the terminal) and ``mapkit replay`` (check a record)."""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer

from mapkit.cli.common import (
    RulesetOption,
    TextOrJson,
    Variant,
    fail,
    load_or_fail,
    map_paths,
    output_path,
    read_record,
    record_failure,
    record_map,
)
from mapkit.signals import Interrupted


def replay(
    record: Annotated[Path, typer.Argument(help="A game record (mapkit-game/1 JSON).")],
    map: Annotated[
        str | None,
        typer.Option(
            "--map",
            "-m",
            help="The map file (default: the map the record names, beside the record"
            " as ID.json or maps/ID.json, else the shipped city).",
        ),
    ] = None,
    format: Annotated[
        TextOrJson, typer.Option("--format", "-f", help="Output format.")
    ] = TextOrJson.text,
    ruleset: RulesetOption = None,
) -> None:
    """Verify every card and move of a game record and print the scores.

    Exit 0: legal record; 1: illegal or malformed record (nothing is scored); 2: usage.
    """
    from mapkit.engine.record import RecordError, result, result_text
    from mapkit.engine.record import replay as run_replay
    from mapkit.rulesets import get_ruleset

    doc = read_record(record)
    path = record_map(record, doc, map, "--map MAP")
    city = load_or_fail(path)
    try:
        rep = run_replay(city, doc, ruleset=get_ruleset(ruleset) if ruleset else None)
    except RecordError as exc:
        record_failure(record, exc)
    if format is TextOrJson.json:
        typer.echo(json.dumps(result(rep), indent=2, ensure_ascii=False))
    else:
        typer.echo(result_text(rep), nl=False)


# ---------------------------------------------------------------- play

HELP = """\
How to answer:
  number / express card:  a line letter for as many crosses as possible (B),
                          or the letter and a number of crosses (B 3, b3, B 0);
                          loop lines also take a direction (C back 2, c fwd)
                          a line id is read whole: with lines B and B3, B3 is line
                          B3 and B 3 is three crosses on B
  interchange (+):        a line letter (D; loop lines: C back)
  free ride:              a station id or name (s12, Alexanderplatz), or the start
                          of one (alex); an exact id wins, several matches are listed
  ?                       this help;  quit  leave the game
"""

HELP_WORDS = ("?", "help")
QUIT_WORDS = ("quit", "exit")
"""Spelled out, so that no line letter (H, Q on Berlin and Madrid) is taken for them; a
line id always wins."""

_DIRECTIONS = {
    "back": "backward", "backward": "backward", "bwd": "backward", "bw": "backward",
    "<": "backward", "rev": "backward", "reverse": "backward",
    "fwd": "forward", "forward": "forward", "fw": "forward", "forth": "forward", ">": "forward",
}  # fmt: skip


class Quit(Exception):
    """The player asked to leave."""


def parse_choice(text: str, state: Any) -> dict[str, Any]:
    """A forgiving reading of a typed choice into a record move; ValueError says what is wrong."""
    from mapkit.engine.cards import FREE, PLUS

    t = state.game.tables
    raw = text.strip()
    low = raw.lower()
    if state.card() == FREE:
        if low in ("none", "-", "no", "nothing", "pass", "skip"):
            return {"station": None}
        if not low:
            raise ValueError("type a station id or name, or none")
        return {"station": match_station(raw, state.game.city)}
    tokens = raw.replace(",", " ").split()
    if not tokens:
        raise ValueError("type a line letter")
    if tokens[0].startswith("+") and len(tokens[0]) > 1:
        tokens = ["+", tokens[0][1:], *tokens[1:]]
    tokens = [tok for tok in tokens if tok != "+"]
    line = None
    rest: list[str] = []
    by_upper = {lid.upper(): lid for lid in t.line_ids}
    for tok in tokens:  # a whole line id first: with lines B and B3, "B3" is line B3
        if line is None and tok.upper() in by_upper:
            line = by_upper[tok.upper()]
            continue
        m = re.fullmatch(r"([A-Za-z]+)(\d+)", tok)
        if line is None and m and m.group(1).upper() in by_upper:
            line = by_upper[m.group(1).upper()]
            rest.append(m.group(2))
            continue
        rest.append(tok)
    if line is None:
        raise ValueError(f"no line in {raw!r}: lines are {', '.join(t.line_ids)}")
    move: dict[str, Any] = {"line": line}
    for tok in rest:
        if tok.isdigit():
            if state.card() == PLUS:
                raise ValueError("an interchange places no crosses: just the line letter")
            move["crosses"] = int(tok)
        elif tok.lower() in _DIRECTIONS:
            move["direction"] = _DIRECTIONS[tok.lower()]
        else:
            raise ValueError(f"cannot read {tok!r}")
    return move


def match_station(typed: str, city: Any) -> str:
    """The station a player means: an exact id, then an exact name, then the same ignoring
    case, then ids and names that start with it, then names that contain it. The first
    step with one answer wins; a step with several lists them (ValueError)."""
    low = typed.casefold()
    stations = city.stations
    steps = [
        ("", lambda st: st.id == typed),
        ("", lambda st: st.name == typed),
        ("ignoring case", lambda st: st.id.casefold() == low),
        ("ignoring case", lambda st: bool(st.name) and st.name.casefold() == low),
        ("starting with it", lambda st: st.id.casefold().startswith(low)),
        ("starting with it", lambda st: bool(st.name) and st.name.casefold().startswith(low)),
        ("containing it", lambda st: bool(st.name) and low in st.name.casefold()),
    ]
    for how, test in steps:
        found = [st for st in stations if test(st)]
        if len(found) == 1:
            return found[0].id
        if found:
            shown = ", ".join(f"{st.id} ({st.name})" if st.name else st.id for st in found[:12]) + (
                " ..." if len(found) > 12 else ""
            )
            how = f" {how}" if how else ""
            raise ValueError(f"{typed!r} matches {len(found)} stations{how}: {shown}; type the id")
    raise ValueError(f"no station {typed!r}: type a station id or name, or none")


def choices_text(state: Any) -> str:
    """The legal choices of the current player, grouped by line."""
    from mapkit.engine.cards import FREE, PLUS

    t = state.game.tables
    acts = state.legal_actions()
    if state.card() == FREE:
        empty = [t.station_ids[a - t.free_base] for a in acts if a - t.free_base < t.n_stations]
        shown = " ".join(empty[:40]) + (" ..." if len(empty) > 40 else "")
        return f"free ride: one empty station ({len(empty)}: {shown}) or none"
    from mapkit.engine.actions import decode

    by_line: dict[int, dict[int, list[int]]] = {}
    for a in acts:
        li, d, k = decode(a)
        by_line.setdefault(li, {}).setdefault(d, []).append(k)
    parts = []
    for li, dirs in by_line.items():
        lid = t.line_ids[li]
        if state.card() == PLUS:
            parts.append(lid + (" (fwd/back)" if 1 in dirs else ""))
            continue
        for d, ks in dirs.items():
            label = f"{lid} back" if d else (f"{lid} fwd" if t.multi_route[li] else lid)
            parts.append(f"{label} {min(ks)}-{max(ks)}" if len(ks) > 1 else f"{label} {ks[0]}")
    return "choices: " + ", ".join(parts)


def make_players(spec: str, count_seed: int) -> list[tuple[str, Any]]:
    """``(bot name, bot)`` for ``--bots``, from the bots registry."""
    from mapkit.bots import make_bot
    from mapkit.engine.seats import play_bot_seed

    names = [b.strip() for b in spec.split(",") if b.strip()] if spec else []
    out = []
    for i, name in enumerate(names):
        seed = play_bot_seed(count_seed, i)
        try:
            out.append((name, make_bot(name, seed=seed)))
        except (KeyError, ValueError) as exc:
            msg = str(exc.args[0]) if exc.args else ""
            fail(msg if msg.startswith("unknown bot") else f"unknown bot {name!r}: {msg}", 2)
    return out


def play(
    map: Annotated[
        str | None,
        typer.Argument(help="A map file or shipped city name (with --resume: the record's map)."),
    ] = None,
    bots: Annotated[
        str, typer.Option(help="Bots to play against, comma-separated (random, greedy, ...).")
    ] = "",
    no_human: Annotated[bool, typer.Option("--no-human", help="Bots only.")] = False,
    seed: Annotated[int | None, typer.Option(help="Seed for the cards and the bots.")] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Write the game record here (JSON), also when you quit early; an existing"
            " file needs --force."
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --record.")] = False,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Continue the unfinished game of this record (written back to it, or to --record)."
        ),
    ] = None,
    variant: Annotated[
        Variant, typer.Option(help="'special': the special-station variant.")
    ] = Variant.standard,
    name: Annotated[str, typer.Option(help="Your name in the record.")] = "you",
) -> None:
    """Play a game in the terminal: you against up to 5 bots (or bots alone with --no-human).

    Quitting (quit, end of input, Ctrl-C) with --record saves the rounds played so far;
    --resume RECORD continues them.
    """
    from mapkit.engine.record import Replayed, result_text

    if not name.strip():
        fail("--name must not be empty", 2)
    _recordable(name, seed)
    if resume is not None:
        given = [opt for opt, on in [("--bots", bots), ("--no-human", no_human),
                 ("--seed", seed is not None), ("--variant", variant is not Variant.standard),
                 ("--name", name != "you")] if on]  # fmt: skip
        if given:
            fail(
                f"--resume plays on the record's game as it was set up;"
                f" leave out {', '.join(given)}",
                2,
            )
        session = _resumed(map, resume, record, force)
        record = session.record
    else:
        if map is None:
            fail("name a map to play on (a map file or a shipped city), or --resume RECORD", 2)
        session = _new_game(map, bots, no_human, seed, variant, name)
        if record is not None:
            output_path(record, [session.path], overwrite=force, trial=True)
    game, state, names, seats = session.game, session.state, session.names, session.seats
    rep = session.replayed
    echo = typer.echo
    again = " (resumed)" if resume is not None else ""
    echo(f"{game.city.name}: {', '.join(names)} (seed {state.seed}){again}. Type ? for help.")
    try:
        free_rides = rep.free_rides + _loop(state, seats, names, rep.windows)
    except (Quit, KeyboardInterrupt, Interrupted) as exc:
        code = exc.exit_code if isinstance(exc, Interrupted) else 130
        code = 0 if isinstance(exc, Quit) else code
        _save_partial(session, record)
        raise typer.Exit(code) from None
    rep = Replayed(game, state, names, state.round(), rep.windows, free_rides=free_rides)
    echo("")
    echo(result_text(rep).replace("; record OK", ""), nl=False)
    if record is not None:
        _write_record(session, record, state.history())
        echo(f"record written to {record}")


def _recordable(name: str, seed: int | None) -> None:
    """Exit 2 for a --name or --seed the game record schema refuses: found now, not when
    the record is written (or read back by replay and --resume)."""
    from mapkit.mapfile.schema import load_schema

    props = load_schema("game")["properties"]
    longest = props["players"]["items"]["maxLength"]
    if len(name) > longest:
        fail(f"--name is {len(name)} characters; a record holds names of at most {longest}", 2)
    if re.search(r"[\x00-\x1f\x7f]", name):
        fail("--name must be on one line, without control characters", 2)
    low, high = props["seed"]["minimum"], props["seed"]["maximum"]
    if seed is not None and not low <= seed <= high:
        fail("--seed must be an integer from -2^63 to 2^64-1 (what a record holds)", 2)


def bot_rng(seed: int, seat: int, step: int) -> random.Random:
    """The randomness of a bot's move, from the game's seed, its seat and how many actions
    were played before it: a resumed game's bots move as in the game played straight
    through (a generator carried along would restart from its seed on --resume)."""
    key = f"mapkit-play:{seed}:{seat}:{step}".encode()
    return random.Random(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big"))


class _Session(NamedTuple):
    path: Path
    game: Any
    state: Any
    names: list[str]
    seats: list[Any]
    replayed: Any
    record: Path | None


def _new_game(
    map: str, bots: str, no_human: bool, seed: int | None, variant: Variant, name: str
) -> _Session:
    import random

    from mapkit.engine import Game
    from mapkit.engine.record import Replayed
    from mapkit.engine.seats import MAX_PLAYERS, PLAYER_RANGE, seat_names, valid_player_count

    (path,) = map_paths([map])
    city = load_or_fail(path)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    players = make_players(bots, seed)
    human = not no_human
    if human and len(players) > MAX_PLAYERS - 1:
        fail(f"at most {MAX_PLAYERS - 1} bots play against you", 2)
    if not human and not valid_player_count(len(players)):
        fail(f"--no-human needs {PLAYER_RANGE} bots (--bots random,random)", 2)
    names = ([name] if human else []) + seat_names([b for b, _ in players])
    if len(set(names)) != len(names):
        fail(f"the name {name!r} is taken by a bot; choose another --name", 2)
    seats: list[Any] = ([None] if human else []) + [bot for _, bot in players]
    game = Game(city, players=len(names), special_stations=variant is Variant.special)
    state = game.new_initial_state(seed)
    windows = [{lid: [] for lid in game.tables.line_ids} for _ in names]
    return _Session(path, game, state, names, seats, Replayed(game, state, names, 0, windows), None)


def _resumed(map: str | None, resume: Path, record: Path | None, force: bool) -> _Session:
    """The game of an unfinished record, ready to go on: bots named ``<bot>-<n>`` (as
    ``play`` names them) play again, the one other name is the person at the keyboard."""
    from mapkit.bots import BOTS, make_bot
    from mapkit.engine.record import RecordError, replay
    from mapkit.engine.seats import BOT_SEAT, play_bot_seed

    doc = read_record(resume)
    path = record_map(resume, doc, map, "the MAP")
    city = load_or_fail(path)
    try:
        rep = replay(city, doc, upto=len(doc["rounds"]))
    except RecordError as exc:
        record_failure(resume, exc)
    if rep.state.is_terminal():
        fail(f"{resume}: the game is over; nothing to resume (mapkit replay scores it)", 1)
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
        fail(f"{resume}: --resume plays one person against bots, but {humans} are not bots", 2)
    out = record if record is not None else resume
    output_path(out, [path], trial=True, overwrite=force or out == resume)
    return _Session(path, rep.game, rep.state, rep.players, seats, rep, out)


def _write_record(session: _Session, record: Path, history: list[int]) -> None:
    from mapkit.atomic import OutputError, write_text
    from mapkit.engine.record import record_from_history, to_json

    doc = record_from_history(session.game, history, session.names, session.state.seed)
    try:
        write_text(record, to_json(doc), inputs=[session.path])
    except OutputError as exc:
        fail(str(exc), 2)
    except OSError as exc:
        from mapkit.atomic import path_problem

        fail(f"cannot write the record {path_problem(exc, record)}", 1)


def _save_partial(session: _Session, record: Path | None) -> None:
    """On quitting: the rounds every player finished go to the record (the round in
    progress is played again, with the same card, by --resume)."""
    state = session.state
    history = state.history()
    walk = state.game.new_initial_state(state.seed)
    done = rounds = 0
    for i, a in enumerate(history):
        if walk.is_chance_node():
            done, rounds = i, rounds + 1
        walk.apply_action(a)
    if walk.is_chance_node():
        done = len(history)
    else:
        rounds -= 1
    if record is None:
        typer.echo(f"\nGame abandoned in round {state.round() + 1}; no record written.")
        return
    _write_record(session, record, history[:done])
    typer.echo(
        f"\nGame saved after {rounds} complete round(s) in {record};"
        f" continue it with: mapkit play --resume {record}"
    )


def _loop(state: Any, seats: list[Any], names: list[str], windows: list[dict]) -> int:
    """Play to the end, logging every move (the human's too); returns the free-ride rounds."""
    from mapkit.engine.cards import CARD_NAMES, FREE, window_text
    from mapkit.engine.text import line_text

    echo = typer.echo
    t = state.game.tables
    free_rides = 0
    while not state.is_terminal():
        if state.is_chance_node():
            kind = state.deal()
            free_rides += kind == FREE
            echo(f"\n=== Round {state.round() + 1}: card {CARD_NAMES[kind]} ===")
            continue
        p = state.current_player()
        extra = " (extra action: special station)" if state.is_extra_action() else ""
        if seats[p] is None:
            echo(f"\nYour sheet ({names[p]}), card {CARD_NAMES[state.card()]}{extra}:")
            for li in range(t.n_lines):
                echo("  " + line_text(state, p, li, tuple(windows[p][t.line_ids[li]])))
            echo(choices_text(state))
            action = _ask(state)
        else:
            action = seats[p].choose(state, rng=bot_rng(state.seed, p, len(state.history())))
        card = state.card()
        move = state.action_to_move(action)
        state.apply_action(action)
        if card != FREE:
            windows[p][move["line"]].append(window_text(card))
        echo(f"{names[p]}: {state.game.move_to_string(move)}{extra}")
    return free_rides


def _ask(state: Any) -> int:
    from mapkit.engine.errors import IllegalMove

    while True:
        try:
            text = input("your choice> ")
        except EOFError:
            typer.echo("")
            raise Quit from None
        if not sys.stdin.isatty():
            typer.echo(text)  # a piped answer, shown as if typed: the log reads like a session
        low = text.strip().lower()
        is_line = low.upper() in {lid.upper() for lid in state.game.tables.line_ids}
        if low in HELP_WORDS and not is_line:
            typer.echo(HELP, nl=False)
            typer.echo(choices_text(state))
            continue
        if low in QUIT_WORDS and not is_line:
            raise Quit
        try:
            return state.move_to_action(parse_choice(text, state))
        except (ValueError, IllegalMove) as exc:
            typer.echo(f"  {exc}; try again (? for help)")


def register(app: typer.Typer) -> None:
    app.command()(play)
    app.command()(replay)
