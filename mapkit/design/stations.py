"""Stations where runs are cut, and stations the seats take through different lines.

A number card crosses empty stops one after another from where it enters a line and stops at
the first stop already marked (rules-notes 2): the rest of its value is lost. When that stop
was marked through *another* line (or by a free ride), the station **cut the run**: the two
lines share it, and whichever takes it first shortens the other's runs. An express card skips
marked stops, so it is never cut; a player who places fewer crosses than the run allows
stopped by choice, not at the station.

From the report's greedy games (kernel-played, their histories replayed through the checked
engine, :func:`game_cuts`), per station:

- ``cut``: the share of player-games in which it cut at least one run, clustered by game (the
  seats of one game share its cards); ``lost``: the crosses those cuts forfeited per player-game
  (:func:`lost_ci`: the t interval on the log scale, or only an upper bound when none was cut);
  ``cut_lines``: how many runs of each line it cut;
- ``contested`` (several players): the share of games in which the seats took it through
  different lines (one seat's line B, another's line E): the station where their plans part.
  Only a station on two or more lines can be cut or contested (a free ride aside).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from mapkit.cards import CARD_EXPRESS, CARD_VALUE, FREE, PLUS
from mapkit.design.intervals import (
    Estimate,
    clustered_proportion_ci,
    log_mean_ci,
    proportion_ci,
)
from mapkit.engine import CHANCE, Game
from mapkit.engine.actions import decode
from mapkit.simulate import GameOutcome

FREE_RIDE = -1
"""What marked a station that a free ride marked (no line)."""


@dataclass(frozen=True, slots=True)
class Cut:
    """One run cut short: seat ``seat``'s run on ``line`` stopped at ``station`` (indices of
    the game's tables), which ``by`` had marked (a line index or :data:`FREE_RIDE`), and
    ``lost`` crosses of the card were forfeited."""

    seat: int
    station: int
    line: int
    by: int
    lost: int


@dataclass(frozen=True, slots=True)
class GameCuts:
    cuts: tuple[Cut, ...]
    marked_by: tuple[dict[int, int], ...]
    """Per seat: station index -> the line index that marked it (or :data:`FREE_RIDE`)."""


def game_cuts(game: Game, history: Sequence[int]) -> GameCuts:
    """Replay one game's ``history`` (cards and actions, ``State.history()``) on a fresh state
    of ``game``, noting every run cut and which line marked each station."""
    t = game.tables
    routes = game.tables.routes
    where = [[{pos: i for i, pos in enumerate(r)} for r in rs] for rs in routes]
    state = game.new_initial_state(0)
    by: list[dict[int, int]] = [{} for _ in range(game.num_players())]
    cuts: list[Cut] = []
    for a in history:
        p = state.current_player()
        if p == CHANCE:
            state.apply_action(a)
            continue
        c = state.card()
        before = state.marked(p)
        li = FREE_RIDE
        if c != FREE:
            li, d, k = decode(a)
            if c != PLUS and not CARD_EXPRESS[c] and k:
                scan = t.scan(li, d, state.line_mask(p, li))
                route = routes[li][d]
                at = where[li][d][scan.empties[k - 1]] + 1
                if k == scan.run < CARD_VALUE[c] and at < len(route):
                    s = t.stops[li][route[at]]
                    if by[p].get(s, li) != li:
                        cuts.append(Cut(p, s, li, by[p][s], CARD_VALUE[c] - k))
        state.apply_action(a)
        new = state.marked(p) & ~before
        while new:
            low = new & -new
            by[p][low.bit_length() - 1] = li
            new ^= low
    return GameCuts(tuple(cuts), tuple(by))


def lost_ci(lost: Sequence[Sequence[float]], cut: Estimate) -> Estimate:
    """Crosses lost per player-game: the mean over games (clustered) with the t interval on the
    log scale (:func:`~mapkit.design.intervals.log_mean_ci`: a zero-heavy count is skewed to
    the right). No cut in any game: ``[0, cut.hi]``, the cut share's upper bound (Wilson's on
    the game count) times one cross, the least a cut loses: an upper bound, not an interval
    that could be calibrated (its truth may be 0)."""
    e = log_mean_ci([math.fsum(game) / len(game) for game in lost])
    if e.value > 0:
        return e
    return Estimate(e.value, 0.0, cut.hi, e.se)


@dataclass
class StationCuts:
    station: str
    lines: tuple[str, ...]
    """The lines through it, in map order."""
    cut: Estimate
    lost: Estimate
    cut_lines: dict[str, int] = field(default_factory=dict)
    """line id -> runs of that line it cut (over all player-games)."""
    contested: Estimate | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "station": self.station,
            "lines": list(self.lines),
            "cut": self.cut.to_dict(),
            "crosses_lost": self.lost.to_dict(),
            "runs_cut": dict(self.cut_lines),
            "contested": self.contested.to_dict() if self.contested else None,
        }


@dataclass
class Stations:
    players: int
    games: int
    stations: list[StationCuts]
    """Every station on two or more lines or that cut a run, most cutting first."""

    def to_dict(self) -> dict[str, object]:
        return {
            "players": self.players,
            "games": self.games,
            "stations": [s.to_dict() for s in self.stations],
        }


def stations_of(game: Game, played: Sequence[GameOutcome]) -> Stations:
    """The cut and contested stations of some games of ``game`` kept with their histories
    (``RunConfig(records=True)``), all with ``game``'s seating."""
    if any(not o.history for o in played):
        raise ValueError("stations need the games' histories: RunConfig(records=True)")
    return tally(game, [game_cuts(game, o.history) for o in played])


def tally(game: Game, per_game: Sequence[GameCuts]) -> Stations:
    """The cut and contested stations of games of ``game`` replayed by :func:`game_cuts`
    (benchmarks/bench_coverage.py resamples them)."""
    t = game.tables
    players = game.num_players()
    through = [[t.line_ids[li] for li, _ in t.station_upd[s]] for s in range(t.n_stations)]
    out = []
    for s, sid in enumerate(t.station_ids):
        cut_seats, lost, counts, split = [], [], {}, 0
        for g in per_game:
            here = [c for c in g.cuts if c.station == s]
            cut_seats.append(len({c.seat for c in here}))
            lost.append([sum(c.lost for c in here if c.seat == p) for p in range(players)])
            for c in here:
                counts[t.line_ids[c.line]] = counts.get(t.line_ids[c.line], 0) + 1
            split += len({m[s] for m in g.marked_by if m.get(s, FREE_RIDE) != FREE_RIDE}) > 1
        if len(through[s]) < 2 and not counts:
            continue
        contested = proportion_ci(split, len(per_game)) if players > 1 else None
        cut = clustered_proportion_ci(cut_seats, players)
        out.append(
            StationCuts(
                sid,
                tuple(through[s]),
                cut,
                lost_ci(lost, cut),
                dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))),
                contested,
            )
        )
    out.sort(key=lambda x: -x.cut.value)
    return Stations(players, len(per_game), out)
