"""A player's action as an int: its layout, written once.

* a line move: ``line << LINE_SHIFT | route << ROUTE_SHIFT | crosses``; ``route`` is the index of
  the way the card travels the line (:attr:`mapkit.mapfile.model.Line.routes`: 0 from the
  wagon, 1 the other way round a loop or from a two-ended line's far end); an interchange
  has ``crosses`` 0;
* a free ride: ``free_base(n_lines) + station``; ``free_base(n_lines) + n_stations`` is "none".

What :meth:`Tables.choices <mapkit.engine.tables.Tables.choices>` lists for a line is the low
part, ``route << ROUTE_SHIFT | crosses`` (:func:`choice`). The kernel compiles the same
constants into C (``mapkit/engine/kernel.py`` imports them); hot loops of the checked engine
read the constants, everything else these functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from mapkit.cards import FREE, MAX_VALUE, PLUS
from mapkit.engine.errors import IllegalMove

if TYPE_CHECKING:
    from mapkit.engine.tables import Tables
    from mapkit.mapfile.model import Line

CROSSES_BITS = MAX_VALUE.bit_length()
"""Enough bits for the most crosses a card allows (6: three bits)."""
ROUTE_BITS = 2
"""Up to four routes per line: from the wagon and the other way round a loop or from the far
end, or into each of up to four branches."""
ROUTE_SHIFT = CROSSES_BITS
LINE_SHIFT = CROSSES_BITS + ROUTE_BITS
CROSSES_MASK = (1 << CROSSES_BITS) - 1
CHOICE_MASK = (1 << LINE_SHIFT) - 1
"""The route and crosses of a line move (what a line's choices list)."""
MAX_ROUTES = 1 << ROUTE_BITS
"""The most routes a line has, so the most branches of a branching line (the map schema's
``branches`` ``maxItems``, held equal by tests/test_branching.py)."""
ROUTE_MASK = MAX_ROUTES - 1
ROUTE_FIELD = ROUTE_MASK << ROUTE_SHIFT
"""A line move's route bits: zero on route 0 (``action & ROUTE_FIELD``)."""


class LineMove(NamedTuple):
    line: int
    route: int
    crosses: int


def line_move(line: int, route: int, crosses: int) -> int:
    """The action of ``crosses`` crosses on ``line`` along route ``route``."""
    return line << LINE_SHIFT | route << ROUTE_SHIFT | crosses


def choice(route: int, crosses: int) -> int:
    """The low part of a line move, as a line's choices list it."""
    return route << ROUTE_SHIFT | crosses


def decode(action: int) -> LineMove:
    """The line, route and crosses of a line move."""
    return LineMove(action >> LINE_SHIFT, action >> ROUTE_SHIFT & ROUTE_MASK, action & CROSSES_MASK)


def line_of(action: int) -> int:
    return action >> LINE_SHIFT


def free_base(n_lines: int) -> int:
    """The first free-ride action of a map of ``n_lines`` lines (every line move is below)."""
    return n_lines << LINE_SHIFT


ROUTE_NAMES = ("forward", "backward")
"""A record's ``direction`` of route 0 and 1 (game-record.md)."""


def to_move(tables: Tables, action: int, card: int) -> dict[str, Any]:
    """The record move dict of ``action`` played with card kind ``card``."""
    t = tables
    if card == FREE:
        s = action - t.free_base
        return {"station": t.station_ids[s] if s < t.n_stations else None}
    li, route, k = decode(action)
    move: dict[str, Any] = {"line": t.line_ids[li]}
    if card != PLUS:
        move["crosses"] = k
    if t.city.lines[li].branches:
        move["branch"] = route + 1
    elif t.multi_route[li]:
        move["direction"] = ROUTE_NAMES[route]
    return move


def route_of(move: dict[str, Any], line: Line) -> int:
    """The route a record move names: its ``branch`` (1-based) on a branching line, else its
    ``direction`` (default forward). IllegalMove when the move names what the line has not."""
    if line.branches:
        if "direction" in move:
            raise IllegalMove(f"line {line.id} branches: a move names its branch, not a direction")
        b = move.get("branch", 1)
        if isinstance(b, bool) or b not in range(1, len(line.branches) + 1):
            raise IllegalMove(f"line {line.id} has branches 1 to {len(line.branches)}, not {b!r}")
        return b - 1
    if "branch" in move:
        raise IllegalMove(f"line {line.id} has no branches")
    direction = move.get("direction", ROUTE_NAMES[0])
    if direction not in ROUTE_NAMES:
        raise IllegalMove(f"direction is 'forward' or 'backward', not {direction!r}")
    return ROUTE_NAMES.index(direction)


def describe(move: dict[str, Any] | None) -> str:
    """A record move in short: ``B 3``, ``C backward 2``, ``A/2 3`` (branch 2), ``+ D``,
    ``free s4``, ``-``."""
    if move is None:
        return "-"
    if "station" in move:
        return f"free {move['station'] or 'none'}"
    parts = [move["line"]]
    if move.get("direction") == ROUTE_NAMES[1]:
        parts.append(ROUTE_NAMES[1])
    if "branch" in move:
        parts[0] += f"/{move['branch']}"
    if "crosses" in move:
        parts.append(str(move["crosses"]))
    else:
        parts.insert(0, "+")
    return " ".join(parts)
