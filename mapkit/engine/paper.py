"""What a player's paper sheet shows after some round of a recorded game (for the renderer)."""

from __future__ import annotations

from typing import Any

from mapkit.engine.record import replay
from mapkit.mapfile.model import CityMap
from mapkit.paper import DiamondMark, PaperSheet, Scoring, SquareMark


def sheet_after(
    city: CityMap, record: dict[str, Any], player: str | int, round: int | None = None
) -> PaperSheet:
    """The sheet of ``player`` (name or seat) after ``round`` (default: the end of the record).

    The record is verified as far as it is read: RecordError for an illegal one,
    ValueError for a round past its end (a sheet the game never showed).
    Scoring boxes are filled only when the game is over.
    """
    rep = replay(city, record, upto=round if round is not None else None)
    if round is not None and round > rep.rounds:
        raise ValueError(
            f"round {round} is past the end of the record: it has {rep.rounds} rounds"
            f" (ask for 0 to {rep.rounds}, or for no round: the end)"
        )
    if isinstance(player, int) and not isinstance(player, bool):
        if not 0 <= player < len(rep.players):
            raise ValueError(f"no seat {player}; the players are {', '.join(rep.players)}")
        p = player
    elif player in rep.players:
        p = rep.players.index(player)
    else:
        raise ValueError(f"no player {player!r}; the players are {', '.join(rep.players)}")
    state = rep.state
    t = state.game.tables
    marked, boxed = state.marked(p), state.boxed(p)
    crosses = frozenset(
        t.station_ids[s] for s in range(t.n_stations) if marked >> s & 1 and not boxed >> s & 1
    )
    interchanges = {
        t.station_ids[s]: state.game.ruleset.written(t.intersections[s])
        for s in range(t.n_stations)
        if boxed >> s & 1
    }
    solo = state.num_players() == 1
    diamonds: dict[str, DiamondMark] = {}
    squares: dict[str, SquareMark] = {}
    for li, lid in enumerate(t.unit_ids):  # a panel row per scoring unit
        done = state.completed(p) >> li & 1
        first = state.completed_first(p) >> li & 1
        if first:
            diamonds[lid] = "circled"
        elif not solo and state.taken() >> li & 1:
            diamonds[lid] = "struck"
        else:
            diamonds[lid] = "open"
        squares[lid] = "circled" if done and not first else "open"
    scoring = None
    if state.is_terminal():
        b = state.breakdown(p)
        scoring = Scoring(b.line_points, b.interchange_points, b.penalty, b.score)
    return PaperSheet(
        player=rep.players[p],
        crosses=crosses,
        interchanges=interchanges,
        windows={lid: tuple(v) for lid, v in rep.windows[p].items()},
        diamonds=diamonds,
        squares=squares,
        scoring=scoring,
        round=rep.rounds,
    )
