"""Game records (``mapkit-game/1``): check, replay, score and write them. Pure data, no I/O.

A record is replayed through the engine's own ``move_to_action`` and
``apply_action``, so a record is legal exactly when the engine would have
allowed every card and move.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mapkit.engine.actions import MAX_ROUTES, line_of
from mapkit.engine.cards import CARD_BY_NAME, CARD_NAMES, CARD_VALUE, FREE, window_text
from mapkit.engine.errors import IllegalMove
from mapkit.engine.game import MOVE_KEYS, Game, GameOptions
from mapkit.engine.scoring import solo_band, solo_rating
from mapkit.engine.seats import MAX_PLAYERS, PLAYER_RANGE, valid_player_count
from mapkit.engine.state import State
from mapkit.mapfile.jsonpos import Positions, join_pointer
from mapkit.mapfile.model import CityMap, fingerprint
from mapkit.rulesets import DEFAULT_RULESET, RULESETS, Ruleset

FORMAT = "mapkit-game/1"
MAX_CROSSES = max(CARD_VALUE)
"""The most crosses one card allows (the 6)."""


class RecordError(ValueError):
    """An illegal or malformed record. ``round`` and ``player`` say where, when known;
    ``line`` and ``column`` where in the file, when the record was read from text."""

    def __init__(
        self,
        rule: str,
        round: int | None = None,
        player: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.rule = rule
        self.round = round
        self.player = player
        self.line = line
        self.column = column
        where = []
        if round is not None:
            where.append(f"round {round}")
        if player is not None:
            where.append(f"player {player}")
        super().__init__(f"{', '.join(where)}: {rule}" if where else rule)


@dataclass
class Replayed:
    """A replayed record: the final (or round-N) state and what each sheet shows."""

    game: Game
    state: State
    players: list[str]
    rounds: int
    windows: list[dict[str, list[str]]] = field(default_factory=list)
    taken_round: dict[str, int] = field(default_factory=dict)
    free_rides: int = 0

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()


def parse_record(data: bytes | str) -> Any:
    """Read a record's text as strictly as a map (UTF-8 with an optional BOM, no duplicate
    keys, no NaN, bounded size and depth), then check it against ``game.schema.json``.

    RecordError carries the line and column of the first problem.
    """
    from mapkit.mapfile import MAX_FILE_BYTES
    from mapkit.mapfile.jsonpos import decode_utf8, parse_json

    if len(data) > MAX_FILE_BYTES:
        raise RecordError(
            f"the file holds more than {MAX_FILE_BYTES} bytes: a game record is at most 1 MiB"
        )
    if isinstance(data, bytes):
        text, problem = decode_utf8(data)
        if problem is not None:
            raise RecordError(problem.message, line=problem.line, column=problem.column)
        assert text is not None
    else:
        text = data
    parsed = parse_json(text)
    if parsed.problems:
        p = parsed.problems[0]
        what = "not valid JSON: " if p.kind == "syntax" else ""
        raise RecordError(what + p.message, line=p.line, column=p.column)
    check_schema(parsed.value, parsed.positions)
    return parsed.value


def check_schema(doc: Any, positions: Positions | None = None) -> None:
    """RecordError for the first place (in file order) where ``doc`` breaks the game schema."""
    from mapkit.mapfile.schema import schema_errors

    errors = schema_errors("game", doc)
    if not errors:
        return
    err = min(errors, key=lambda e: _document_order(doc, list(e.absolute_path)))
    path = list(err.absolute_path)
    line = column = None
    if positions is not None:
        line, column = positions.locate("".join(f"/{join_pointer('', p)[1:]}" for p in path))
    rnd, player, rule = _explain(doc, path, err)
    raise RecordError(rule, rnd, player, line, column)


def _document_order(doc: Any, path: list[Any]) -> tuple:
    """A sort key that puts a path's error before those of later parts of the file."""
    key: list[Any] = []
    node = doc
    for p in path:
        if isinstance(node, dict):
            keys = list(node)
            key.append(keys.index(p) if p in keys else len(keys))
            node = node.get(p)
        elif isinstance(node, list) and isinstance(p, int):
            key.append(p)
            node = node[p] if p < len(node) else None
    return tuple(key)


_MOVE_SHAPE = 'a move is {"line": L, "crosses": k, "direction": d} or a free ride {"station": S}'


def _move_problem(move: Any, depth: int = 0) -> tuple[int, str] | None:
    """The first schema problem of a move (or of its ``then``), in words: (extra action, text).

    The schema is the authority (``check_schema`` only calls this when it fails); this
    turns its ``oneOf`` verdicts into a sentence a person can act on.
    """
    if move is None and depth == 0:
        return None
    if not isinstance(move, dict):
        return depth, f"{_MOVE_SHAPE}, not {_json(move)}"
    unknown = sorted(set(move) - MOVE_KEYS)
    if unknown:
        return depth, f"unknown key {unknown[0]!r} in the move ({_MOVE_SHAPE})"
    if "station" in move:
        junk = sorted(set(move) & {"line", "crosses", "direction", "branch"})
        if junk:
            return depth, (
                f"a free ride marks one station: {junk[0]!r} does not belong beside 'station'"
            )
        if move["station"] is not None and not isinstance(move["station"], str):
            return depth, f"'station' is a station id or null, not {_json(move['station'])}"
    elif "line" not in move:
        return depth, f"the move names no line and no station ({_MOVE_SHAPE})"
    else:
        if not isinstance(move["line"], str):
            return depth, f"'line' is a line id, not {_json(move['line'])}"
        k = move.get("crosses", 0)
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= MAX_CROSSES:
            return depth, f"crosses is a whole number from 0 to {MAX_CROSSES}, not {_json(k)}"
        if move.get("direction", "forward") not in ("forward", "backward"):
            return depth, f"direction is 'forward' or 'backward', not {_json(move['direction'])}"
        b = move.get("branch", 1)
        if isinstance(b, bool) or b not in range(1, MAX_ROUTES + 1):
            return depth, f"branch is a whole number from 1 to {MAX_ROUTES}, not {_json(b)}"
    then = move.get("then", [])
    if not isinstance(then, list):
        return depth, "'then' must be a list of moves"
    for sub in then:
        found = _move_problem(sub, depth + 1) if sub is not None else (depth + 1, "null move")
        if found:
            return found
    return None


_HEADER_RULES: dict[str, Callable[[Any], str]] = {
    "format": lambda v: f"'format' must be {FORMAT!r}, not {v!r}",
    "map": lambda v: "'map' must be the map's id (lower-case letters, digits, -), not " + _json(v),
    "map_fingerprint": lambda v: f"'map_fingerprint' is 16 hex digits, not {_json(v)}",
    "variant": lambda v: "'variant' must be an object like {\"special_stations\": false}",
    "players": lambda v: (
        f"'players' must be a list of {PLAYER_RANGE} unique names of 1 to 40 characters"
    ),
    "seed": lambda v: f"'seed' must be an integer from -2^63 to 2^64-1, not {_json(v)}",
}
"""The rule a schema error in each top-level key (but ``rounds``) breaks, from its value."""


def _explain(doc: Any, path: list[Any], err: Any) -> tuple[int | None, str | None, str]:
    """(round, player, rule) for a schema error at ``path``."""
    if not path:
        return None, None, _explain_top(err)
    head = path[0]
    if head == "rounds":
        return _explain_rounds(doc, path, err)
    rule = _HEADER_RULES.get(head)
    return None, None, rule(err.instance) if rule else f"{head!r}: {err.message}"


def _explain_top(err: Any) -> str:
    """The rule a schema error of the record object itself breaks."""
    if err.validator == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        return f"unknown key {extra[0]!r} at the top level"
    if err.validator == "required":
        return f"missing key {err.message.split(chr(39))[1]!r} at the top level"
    return "a game record is a JSON object"


def _explain_rounds(doc: Any, path: list[Any], err: Any) -> tuple[int | None, str | None, str]:
    """(round, player, rule) for a schema error inside ``rounds``."""
    value = err.instance
    if len(path) == 1:
        if err.validator == "maxItems":
            return None, None, f"{len(value)} rounds: a game has at most 1000"
        return None, None, "'rounds' must be a list"
    r = path[1] + 1
    if len(path) == 2 or path[2] not in ("card", "moves"):
        return r, None, 'a round is an object {"card": ..., "moves": [...]}'
    if path[2] == "card":
        return r, None, _card_problem(doc, value)
    if len(path) == 3:
        if err.validator == "maxItems":
            return (
                r,
                None,
                f"wrong number of moves: {len(value)} moves; a game has at most {MAX_PLAYERS}"
                " players",
            )
        return r, None, "'moves' must be a list with one move per player"
    p = path[3]
    players = doc.get("players")
    valid_names = isinstance(players, list) and p < len(players) and isinstance(players[p], str)
    name = players[p] if valid_names else f"#{p + 1}"
    found = _move_problem(doc["rounds"][path[1]]["moves"][p])
    if found is None:
        return r, name, err.message
    extra, rule = found
    return r, name if not extra else f"{name} (extra action {extra})", rule


def _card_problem(doc: Any, value: Any, deck: tuple[str, ...] | None = None) -> str:
    """The rule a round's card ``value`` breaks: not a string, or not in the deck (``deck``:
    the replaying ruleset's; default the deck the record names)."""
    if not isinstance(value, str):
        cards = ", ".join(f'"{c}"' for c in _deck_names(doc))
        return f"a card is a string, one of {cards}; not {_json(value)}"
    names = deck if deck is not None else _deck_names(doc)
    return f"unknown card {value!r} (the deck has {', '.join(names)})"


def _deck_names(doc: dict[str, Any]) -> list[str]:
    """The card names of the deck a record names (every card name for an unknown ruleset)."""
    name = doc.get("ruleset", DEFAULT_RULESET)
    rules = RULESETS.get(name) if isinstance(name, str) else None
    return list(rules.card_names if rules else CARD_NAMES)


def check_header(doc: Any, city: CityMap | None = None) -> tuple[list[str], bool, list[Any]]:
    """Players, variant flag and rounds of a record; RecordError for a malformed top level."""
    if not isinstance(doc, dict):
        raise RecordError("a game record is a JSON object")
    from mapkit.mapfile.schema import load_schema

    unknown = sorted(set(doc) - set(load_schema("game")["properties"]))
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r} at the top level")
    if doc.get("format") != FORMAT:
        raise RecordError(f"'format' must be {FORMAT!r}, not {doc.get('format')!r}")
    if not isinstance(doc.get("map"), str):
        raise RecordError("'map' must be the map's id (a string)")
    if city is not None and doc["map"] != city.id:
        raise RecordError(f"the record is for map {doc['map']!r} but the map given is {city.id!r}")
    recorded = doc.get("map_fingerprint")
    if city is not None and recorded is not None and recorded != fingerprint(city):
        raise RecordError(
            f"the map {city.id!r} has changed since this game was played: its stations, lines,"
            f" stops, windows or points differ (fingerprint {fingerprint(city)}, the record"
            f" says {recorded}); replay it on the map it was played on"
        )
    ruleset = doc.get("ruleset", DEFAULT_RULESET)
    if not isinstance(ruleset, str):
        raise RecordError("'ruleset' must be a ruleset's name (a string)")
    variant = doc.get("variant", {})
    if not isinstance(variant, dict) or set(variant) - {"special_stations"}:
        raise RecordError("'variant' must be an object like {\"special_stations\": false}")
    special = variant.get("special_stations", False)
    if not isinstance(special, bool):
        raise RecordError("'variant.special_stations' must be true or false")
    players = doc.get("players")
    if (
        not isinstance(players, list)
        or not valid_player_count(len(players))
        or not all(isinstance(p, str) and p for p in players)
        or len(set(players)) != len(players)
    ):
        raise RecordError(f"'players' must be a list of {PLAYER_RANGE} unique, non-empty names")
    seed = doc.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError("'seed' must be an integer")
    rounds = doc.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("'rounds' must be a list")
    return players, special, rounds


def replay(
    city: CityMap, doc: Any, upto: int | None = None, ruleset: Ruleset | None = None
) -> Replayed:
    """Verify every card and move of a record; RecordError names the round, player and rule.

    ``upto``: stop after that round (a partial game is then allowed). ``ruleset``: the rules to
    replay under (default: the map's); a record played under other rules is refused.
    """
    check_schema(doc)
    names, special, rounds = check_header(doc, city)
    rules = _replay_rules(doc, ruleset or city.ruleset, given=ruleset is not None, n=len(names))
    game = Game(city, GameOptions(len(names), special, rules))
    state = game.new_initial_state(doc.get("seed") or 0)
    t = game.tables
    out = Replayed(game, state, names, 0, [{lid: [] for lid in t.line_ids} for _ in names])
    for r, rnd in enumerate(rounds, 1):
        if upto is not None and r > upto:
            break
        if state.is_terminal():
            raise RecordError(f"the game ended after round {r - 1}; this round is one too many", r)
        if not isinstance(rnd, dict) or set(rnd) - {"card", "moves"}:
            raise RecordError('a round is an object {"card": ..., "moves": [...]}', r)
        name = rnd.get("card")
        if not isinstance(name, str) or name not in game.ruleset.card_names:
            raise RecordError(_card_problem(doc, name, game.ruleset.card_names), r)
        kind = CARD_BY_NAME[name]
        try:
            state.apply_action(kind)
        except IllegalMove as exc:
            raise RecordError(f"the deck cannot produce this card: {exc}", r) from None
        moves = rnd.get("moves")
        if not isinstance(moves, list) or len(moves) != len(names):
            got = len(moves) if isinstance(moves, list) else "no list of"
            raise RecordError(f"wrong number of moves: {got} moves for {len(names)} players", r)
        if kind == FREE:
            out.free_rides += 1
        for p, move in enumerate(moves):
            _replay_player(state, out, r, p, names[p], move, kind)
        out.rounds = r
        for u in range(t.n_units):
            if state.taken() >> u & 1:
                out.taken_round.setdefault(t.unit_ids[u], r)
    if upto is None and not state.is_terminal():
        _unfinished(state, names, len(rounds))
    return out


def _replay_rules(doc: dict[str, Any], rules: Ruleset, given: bool, n: int) -> Ruleset:
    """``rules``, once the record is known to be played under them by ``n`` players (``given``:
    they came from --ruleset, not from the map); RecordError saying how to replay it if not."""
    played = doc.get("ruleset", DEFAULT_RULESET)
    if played != rules.id:
        whose = "the --ruleset given" if given else "the map's"
        if played in RULESETS:
            how = f"replay it with --ruleset {played}"
        elif "+" in played:  # a map's own ruleset object (rulesets._digest)
            how = "replay it on the map it was played on, whose own ruleset that is"
        else:
            how = f"mapkit knows no such ruleset (the rulesets are {', '.join(RULESETS)})"
        raise RecordError(
            f"the game was played under the {played} ruleset, but this replay uses {rules.id}"
            f" ({whose}); {how}"
        )
    try:
        rules.check_players(n)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    return rules


def _unfinished(state: State, names: list[str], n_rounds: int) -> None:
    """RecordError for a whole record whose game is not over after its ``n_rounds`` rounds."""
    if not n_rounds:
        raise RecordError("the record has no rounds: the game is not over")
    left = ", ".join(
        f"{names[p]} has {state.windows_left(p)}"
        for p in range(len(names))
        if state.windows_left(p)
    )
    raise RecordError(f"the record ends but the game is not over (empty windows: {left})", n_rounds)


def _json(value: Any) -> str:
    """A record value as it is written in the file (``3``, ``"x4"``, ``[3]``)."""
    import json

    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _replay_player(
    state: State, out: Replayed, r: int, p: int, name: str, move: Any, kind: int
) -> None:
    if not state.windows_left(p):
        if move is not None:
            raise RecordError(
                "the player has no empty window left (finished): the move must be null", r, name
            )
        return
    if move is None:
        raise RecordError(
            f"the move is null but the player still has {state.windows_left(p)} empty windows",
            r,
            name,
        )
    if state.current_player() != p:
        raise RecordError("it is not this player's turn", r, name)
    t = state.game.tables
    queue: deque[Any] = deque([move])
    first = True
    extra = 0
    while True:
        if not first and not (state.current_player() == p and state.is_extra_action()):
            if queue:
                raise RecordError(
                    f"unearned `then`: {len(queue)} extra action(s) recorded that no special"
                    " station earned (or the player had no empty window left for)",
                    r,
                    name,
                )
            return
        if not queue:
            raise RecordError(
                "missing `then`: the move marked a special station and earned an extra action"
                " that the record does not give",
                r,
                name,
            )
        m = queue.popleft()
        where = name if first else f"{name} (extra action {extra})"
        lid = m.get("line") if isinstance(m, dict) else None
        li = t.line_index.get(lid) if isinstance(lid, str) else None
        if "direction" in m and li is not None and not t.multi_route[li]:
            # even "forward": a record that names a direction on a plain line was misread
            raise RecordError(
                f"line {lid} is travelled one way only (not a loop, not two-ended): it has no"
                " direction",
                r,
                where,
            )
        try:
            a = state.move_to_action(m)
        except IllegalMove as exc:
            raise RecordError(str(exc), r, where) from None
        then = m.get("then", [])
        if not isinstance(then, list):
            raise RecordError("'then' must be a list of moves", r, where)
        if then and not state.game.special_stations:
            raise RecordError(
                "unearned `then`: extra actions exist only with the special-station variant",
                r,
                where,
            )
        state.apply_action(a)
        if kind != FREE:
            lid = t.line_ids[line_of(a)]
            out.windows[p][lid].append(window_text(kind))
        earned = state.last_earned()
        if len(then) > earned:
            raise RecordError(
                f"unearned `then`: the move earned {earned} extra action(s) but `then`"
                f" has {len(then)}",
                r,
                where,
            )
        queue.extend(then)
        first = False
        extra += 1


def result(rep: Replayed) -> dict[str, Any]:
    """The ``mapkit replay --format json`` document (game-record.md, "Result")."""
    state = rep.state
    ranks = state.ranks()
    players = []
    for p, name in enumerate(rep.players):
        b = state.breakdown(p)
        players.append(
            {
                "name": name,
                "completed": dict(b.completed),
                "line_points": b.line_points,
                "interchanges": list(b.interchanges),
                "interchange_points": b.interchange_points,
                "empty_stations": b.empty_stations,
                "penalty": b.penalty,
                "score": b.score,
                "rank": ranks[p],
            }
        )
    return {"players": players, "rounds": rep.rounds}


def result_text(rep: Replayed) -> str:
    """The replay result as a table, with the solo rating for one player."""
    state = rep.state
    res = result(rep)
    head = (
        f"{state.game.city.name}: {len(rep.players)} player(s), {rep.rounds} rounds,"
        f" {rep.free_rides} free ride(s); record OK"
    )
    width = max(6, *(len(p["name"]) for p in res["players"]))
    rows = [
        head,
        f"{'rank':<5} {'player':<{width}} {'lines':>5} {'inter':>5} {'empty':>5} {'pen':>4}"
        f" {'score':>5}",
    ]
    for p in sorted(res["players"], key=lambda x: x["rank"]):
        rows.append(
            f"{p['rank']:<5} {p['name']:<{width}} {p['line_points']:>5}"
            f" {p['interchange_points']:>5} {p['empty_stations']:>5} {p['penalty']:>4}"
            f" {p['score']:>5}"
        )
    for p in res["players"]:
        done = ", ".join(f"{k} {v}" for k, v in p["completed"].items()) or "none"
        inter = " + ".join(str(i) for i in p["interchanges"]) or "none"
        rows.append(f"{p['name']}: completed {done}; interchanges {inter}")
    if len(rep.players) == 1:
        s = res["players"][0]["score"]
        rows.append(f"solo rating: {solo_band(s)}: {solo_rating(s)}")
    return "\n".join(rows) + "\n"


def record_from_history(
    game: Game,
    history: list[int],
    players: list[str],
    seed: int | None = None,
) -> dict[str, Any]:
    """The record of a game played through the checked engine (``State.history``): replayed
    once to learn who played each action (:func:`history_turns`)."""
    turns = history_turns(game, history, 0 if seed is None else seed)
    return record_from_turns(game, history, turns, players, seed)


def history_turns(game: Game, history: list[int], seed: int) -> list[int]:
    """Who played each action of ``history``, as ``Kernel.play_turns`` says it: ``-1`` for a
    card, else ``seat + 8 * extra actions it earned``."""
    state = game.new_initial_state(seed)
    turns = []
    for a in history:
        if state.is_chance_node():
            turns.append(-1)
        else:
            p = state.current_player()
            state.apply_action(a)
            turns.append(p + 8 * state.last_earned())
            continue
        state.apply_action(a)
    return turns


def record_from_turns(
    game: Game,
    history: list[int],
    turns: list[int],
    players: list[str],
    seed: int | None = None,
) -> dict[str, Any]:
    """The record of a game from its history and who played each action (``turns``, from
    the kernel's ``play_turns`` or :func:`history_turns`): an extra action goes into the
    ``then`` of the move that earned it, first earned first served (rules-notes 12-13)."""
    if len(players) != game.num_players():
        raise ValueError(f"{len(players)} names for {game.num_players()} players")
    rounds: list[dict[str, Any]] = []
    parents: list[deque[dict[str, Any]]] = [deque() for _ in players]
    card = last = -1
    for a, turn in zip(history, turns, strict=True):
        if turn < 0:
            card, last = a, -1
            rounds.append({"card": CARD_NAMES[a], "moves": [None] * len(players)})
            continue
        p, earned = turn & 7, turn >> 3
        move = game.action_to_move(a, card)
        if p == last:  # the same seat again in a round: an extra action
            parents[p].popleft().setdefault("then", []).append(move)
        else:
            rounds[-1]["moves"][p] = move
            parents[p].clear()
        parents[p].extend([move] * earned)
        last = p
    doc: dict[str, Any] = {
        "format": FORMAT,
        "map": game.city.id,
        "map_fingerprint": fingerprint(game.city),
    }
    if game.ruleset.id != DEFAULT_RULESET:  # absent: the default, as records before rulesets
        doc["ruleset"] = game.ruleset.id
    doc["variant"] = {"special_stations": game.special_stations}
    doc["players"] = list(players)
    if seed is not None:
        doc["seed"] = seed
    doc["rounds"] = rounds
    return doc


def to_json(doc: dict[str, Any]) -> str:
    """A record as text: one round per line, easy to read and to diff."""
    import json

    head = {k: v for k, v in doc.items() if k != "rounds"}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    lines.append('  "rounds": [')
    rounds = doc.get("rounds", [])
    for i, rnd in enumerate(rounds):
        comma = "," if i < len(rounds) - 1 else ""
        lines.append(f"    {json.dumps(rnd, ensure_ascii=False)}{comma}")
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"
