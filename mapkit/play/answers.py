"""Reading a person's typed answer at the terminal (``mapkit play``): what the help says.

A line id is read whole, a station by id or name (or the start of one), and every reading
either gives a record move or a ValueError that says what is wrong.
"""

from __future__ import annotations

import re
from typing import Any

from mapkit.engine.actions import decode

HELP = """\
How to answer:
  number / express card:  a line letter for as many crosses as possible (B),
                          or the letter and a number of crosses (B 3, b3, B 0);
                          loop and two-ended lines also take a direction
                          (C back 2, c fwd), branching lines a branch after a
                          slash (A/2 3, a/3: into branch 2, branch 3; default 1)
                          a line id is read whole: with lines B and B3, B3 is line
                          B3 and B 3 is three crosses on B
  interchange (+):        a line letter (D; loop and two-ended lines: C back;
                          branching lines: A/2)
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
    line, branch, rest = _line_branch_rest(tokens, {lid.upper(): lid for lid in t.line_ids})
    if line is None:
        raise ValueError(f"no line in {raw!r}: lines are {', '.join(t.line_ids)}")
    move: dict[str, Any] = {"line": line}
    if branch is not None:
        move["branch"] = branch
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


def _line_branch_rest(
    tokens: list[str], by_upper: dict[str, str]
) -> tuple[str | None, int | None, list[str]]:
    """The line a choice names (a whole line id first: with lines B and B3, ``B3`` is line
    B3), the branch after a slash (``A/2``, ``A /2``) and the other tokens."""
    line = branch = None
    rest: list[str] = []
    for tok in tokens:
        m = re.fullmatch(r"([^/]*)/(\d+)", tok)
        if m and (m.group(1).upper() in by_upper or (line is not None and not m.group(1))):
            branch = int(m.group(2))
            tok = m.group(1)
            if not tok:
                continue
        if line is None and tok.upper() in by_upper:
            line = by_upper[tok.upper()]
            continue
        m = re.fullmatch(r"([A-Za-z]+)(\d+)", tok)
        if line is None and m and m.group(1).upper() in by_upper:
            line = by_upper[m.group(1).upper()]
            rest.append(m.group(2))
            continue
        rest.append(tok)
    return line, branch, rest


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
    by_line: dict[int, dict[int, list[int]]] = {}
    for a in acts:
        li, d, k = decode(a)
        by_line.setdefault(li, {}).setdefault(d, []).append(k)
    parts = []
    for li, dirs in by_line.items():
        lid = t.line_ids[li]
        forks = bool(t.city.lines[li].branches)
        if state.card() == PLUS:
            if forks:
                parts.append(" ".join(f"{lid}/{d + 1}" for d in dirs))
            else:
                parts.append(lid + (" (fwd/back)" if 1 in dirs else ""))
            continue
        for d, ks in dirs.items():
            if forks:
                label = f"{lid}/{d + 1}"
            else:
                label = f"{lid} back" if d else (f"{lid} fwd" if t.multi_route[li] else lid)
            parts.append(f"{label} {min(ks)}-{max(ks)}" if len(ks) > 1 else f"{label} {ks[0]}")
    return "choices: " + ", ".join(parts)
