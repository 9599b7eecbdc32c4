"""Readable text of a state: each player's sheet, line by line (for ``str(state)`` and play)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mapkit.engine.cards import CARD_NAMES, CHANCE, TERMINAL

if TYPE_CHECKING:
    from mapkit.engine.state import State


def line_text(state: State, player: int, li: int, windows: tuple[str, ...] = ()) -> str:
    """``B [4 3 . ]  s1 X  s2 [3]  s3 .  s4 *`` : windows, then stops (X cross, [n] interchange)."""
    t = state.game.tables
    marked = state.marked(player)
    boxed = state.boxed(player)
    left = state.windows_left(player, li)
    cells = list(windows) + ["."] * left
    if not windows:
        used = t.windows[li] - left
        cells = ["#"] * used + ["."] * left
    stops = []
    for s in t.stops[li]:
        sid = t.station_ids[s]
        if boxed >> s & 1:
            mark = f"[{state.game.ruleset.written(t.intersections[s])}]"
        elif marked >> s & 1:
            mark = "X"
        else:
            mark = "*" if t.special[s] else "."
        stops.append(f"{sid} {mark}")
    done = ""
    for u, unit in enumerate(t.units):
        if unit.line != li:
            continue
        via = f" via {unit.label}" if unit.branch is not None else ""
        if state.completed(player) >> u & 1:
            pts = unit.first if state.completed_first(player) >> u & 1 else unit.others
            done += f"  complete{via} +{pts}"
        elif state.taken() >> u & 1 and state.num_players() > 1:
            done += f"  (first{via} taken; {unit.others} left)"
    line = state.game.city.lines[li]
    loop = (
        " (loop)" if line.loop else " (both ends)" if line.both_ends
        else " (branches)" if line.branches else ""
    )  # fmt: skip
    return (
        f"{t.line_ids[li]:<3} [{' '.join(cells)}] {t.first[li]}/{t.others[li]}{loop}  "
        + "  ".join(stops)
        + done
    )


def sheet_text(state: State, player: int, windows: dict[str, tuple[str, ...]] | None = None) -> str:
    t = state.game.tables
    rows = [
        line_text(state, player, li, (windows or {}).get(t.line_ids[li], ()))
        for li in range(t.n_lines)
    ]
    b = state.breakdown(player)
    rows.append(
        f"lines {b.line_points} + interchanges {b.interchange_points}"
        f" - empty {b.empty_stations} (penalty {b.penalty}) = {b.score}"
    )
    return "\n".join(rows)


def state_text(state: State) -> str:
    cur = state.current_player()
    head = f"{state.game.city.name}, round {state.round() + (state.card() >= 0)}"
    if cur == TERMINAL:
        head += ", game over"
    elif cur == CHANCE:
        head += ", card to reveal"
    else:
        head += f", card {CARD_NAMES[state.card()]}, player {cur} to move"
    parts = [head]
    for p in range(state.num_players()):
        parts.append(f"-- player {p}")
        parts.append(sheet_text(state, p))
    return "\n".join(parts)
