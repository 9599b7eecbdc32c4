"""Per-map tables, computed once per game: the sheet as bitmasks, and memoised line outcomes.

A player's sheet is one int (bit ``s`` set: station ``s`` marked) plus, per line, a
*line-local* mask (bit ``j`` set: the line's ``j``-th stop marked). The outcome of
any card on a line depends only on that line-local mask, so it is computed once
and memoised: a move is then a dict lookup and a few ``|=``. What a card may do on
a line is not written here: the memo holds the answers of the game kernel's rule
functions (``kernel.route_scan``, ``kernel.line_choices``, ``kernel.canonical_move``),
asked once per line-local mask; the kernel reads the map as ``Tables.kernel``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from mapkit.cards import CARD_VALUE, N_KINDS, PLUS
from mapkit.engine import actions, kernel
from mapkit.mapfile.model import ALL_LINES_CONDITIONS, CityMap

KIND_BITS = (N_KINDS - 1).bit_length()
"""A choice memo's key is ``line-local mask << KIND_BITS | card kind``."""


class Outcome(NamedTuple):
    """What marking the first ``k`` empty stops of a route does to a sheet."""

    stations: int
    """The stations marked (bits of the sheet's global mask)."""
    lines: tuple[tuple[int, int], ...]
    """``(line, line-local bits)`` for every line through them."""
    specials: int
    """How many of them are special stations."""


class LineEntry(NamedTuple):
    """A route of a line with a given line-local mask, as the memo keeps it."""

    run: int
    """Empty stops contiguous from the first (a number card's most)."""
    outcomes: tuple[Outcome, ...]
    """``outcomes[k]``: marking the first ``k`` empty stops (express order)."""
    entry: int
    """The station where a card enters (the first empty stop), -1 on a full line."""

    def most_crosses(self, card: int) -> int:
        """The most crosses ``card`` allows here (``kernel.most_crosses``)."""
        return kernel.most_crosses(card, len(self.outcomes) - 1, self.run)


MEMO_ENTRIES = 1 << 15
"""At most this many entries in any one memo dict: a full one starts over (a line of many
stops has more masks than any run visits)."""

MEMO_BYTES = 64 << 20
"""At most about this many bytes in all the memos of one map together (64 MiB, estimated by
:func:`entry_bytes`): past it every memo of the map starts over, so memory stays flat however
many games are played, on a map at the schema bounds too (26 lines of 100 stops, where one
entry holds up to 100 outcomes and 32,768 entries a memo would be gigabytes)."""


def entry_bytes(value: object) -> int:
    """An estimate of what one memo entry (key, dict slot and value) holds in memory.

    Deliberately coarse and cheap (it runs once per new entry): CPython's sizes of a dict
    slot, a tuple header and an int, counted over the value's nesting (``LineEntry``:
    outcomes, each with its stations and per-line pairs; a choice tuple: its items).
    """
    if isinstance(value, LineEntry):
        n = 180 + 8 * len(value.outcomes)
        for o in value.outcomes:
            n += 140 + o.stations.bit_length() // 8 + 120 * len(o.lines)
        return n
    if isinstance(value, tuple):
        return 140 + 8 * len(value)
    return 140


class MemoBudget:
    """The bytes held by the memos of one map, and the memos themselves (to empty them)."""

    def __init__(self, memos: list[dict]) -> None:
        self.memos = memos
        self.used = 0
        self.resets = 0
        """How many times the memos started over (for tests and benchmarks)."""

    def remember(self, memo: dict, key: object, value: object) -> Any:
        """``memo[key] = value`` within :data:`MEMO_ENTRIES` and :data:`MEMO_BYTES`."""
        size = entry_bytes(value)
        if self.used + size > MEMO_BYTES:
            for m in self.memos:
                m.clear()
            self.used = 0
            self.resets += 1
        elif len(memo) >= MEMO_ENTRIES:
            self.used -= sum(entry_bytes(v) for v in memo.values())
            memo.clear()
        memo[key] = value
        self.used += size
        return value


_MEMOS: dict[int, tuple[CityMap, tuple]] = {}
_MEMOS_KEPT = 8


def _memos(city: CityMap) -> tuple:
    """The memo tables of a map and their byte budget, shared by every ``Tables`` of that
    same map object.

    They hold pure functions of the (frozen) map, so a new ``Game`` of the same map (a
    new ``simulate`` run, another player count) starts warm. The last few maps are kept.
    """
    hit = _MEMOS.get(id(city))
    if hit is not None and hit[0] is city:
        return hit[1]
    entry: list[list[dict]] = [[{} for _ in ln.routes] for ln in city.lines]
    choice: list[dict] = [{} for _ in city.lines]
    memos = (entry, choice, MemoBudget([m for ms in entry for m in ms] + choice))
    _MEMOS[id(city)] = (city, memos)
    while len(_MEMOS) > _MEMOS_KEPT:
        del _MEMOS[next(iter(_MEMOS))]
    return memos


class Tables:
    """Immutable facts about a map plus the memo of line outcomes (shared by all states)."""

    def __init__(self, city: CityMap) -> None:
        self.city = city
        self.station_ids = tuple(s.id for s in city.stations)
        self.station_index = {s.id: i for i, s in enumerate(city.stations)}
        self.line_ids = tuple(ln.id for ln in city.lines)
        self.line_index = {ln.id: i for i, ln in enumerate(city.lines)}
        self.n_stations = len(self.station_ids)
        self.n_lines = len(self.line_ids)
        self.all_mask = (1 << self.n_stations) - 1
        self.windows = tuple(ln.windows for ln in city.lines)
        self.first = tuple(ln.first for ln in city.lines)
        self.others = tuple(ln.others for ln in city.lines)
        self.stops = tuple(tuple(self.station_index[s] for s in ln.stops) for ln in city.lines)
        self.full = tuple((1 << len(st)) - 1 for st in self.stops)
        self.special = tuple(s.special for s in city.stations)
        self.special_mask = sum(1 << i for i, s in enumerate(city.stations) if s.special)
        self.intersections = tuple(city.intersection_count(s) for s in self.station_ids)
        at: list[list[tuple[int, int]]] = [[] for _ in self.station_ids]
        for li, st in enumerate(self.stops):
            for j, s in enumerate(st):
                at[s].append((li, 1 << j))
        self.station_upd: tuple[tuple[tuple[int, int], ...], ...] = tuple(tuple(a) for a in at)
        self.units = city.units
        """The scoring units (``CityMap.units``): unit ``u`` is line ``u`` on a plain map."""
        self.n_units = len(self.units)
        self.unit_ids = tuple(u.label for u in self.units)
        self.unit_base = tuple(
            next(u for u, unit in enumerate(self.units) if unit.line == li)
            for li in range(self.n_lines)
        )
        self.unit_masks = tuple(
            tuple((u, sum(1 << j for j in unit.positions)) for u, unit in enumerate(self.units)
                  if unit.line == li)
            for li in range(self.n_lines)
        )  # fmt: skip
        """Per line, ``(unit, line-local mask)`` of each of its units: complete when all set."""
        self.routes = tuple(ln.routes for ln in city.lines)
        self.multi_route = tuple(len(r) > 1 for r in self.routes)
        wide = max(len(r) for r in self.routes)
        self.slots = tuple(wide if k == PLUS else wide * v + 1 for k, v in enumerate(CARD_VALUE))
        """Per card kind: at least as many as ``choices`` can list on any line (sampling)."""
        self.free_base = actions.free_base(self.n_lines)
        b = city.all_lines
        self.all_lines = (
            (0, 0, 0)
            if b is None
            else (ALL_LINES_CONDITIONS.index(b.condition) + 1, b.first, b.others)
        )
        """The all-lines bonus as the kernel reads it: (condition, first, others); 0: none."""
        self.stop_masks = tuple(sum(1 << s for s in st) for st in self.stops)
        """Per line, the global bits of its stops."""
        self.memo: list[list[dict[int, LineEntry]]]
        self.choice_memo: list[dict[int, tuple[int, ...]]]
        self.memo, self.choice_memo, self.budget = _memos(city)
        self.kernel = kernel.kernel_map(self)
        """The map as the game kernel reads it: the one compiled form, for every caller."""
        self._scratch = kernel.Scratch(self.kernel)
        self._mk = kernel.station_marks(self.kernel)

    def _line_marks(self, li: int, lm: int) -> object:
        """A station array with line ``li``'s stops marked as ``lm`` says (the kernel's view
        of one line of a sheet; the other stations do not matter to the line's rules)."""
        mk = self._mk
        for j, s in enumerate(self.stops[li]):
            mk[s] = lm >> j & 1
        return mk

    def entry(self, li: int, d: int, lm: int) -> LineEntry:
        """Line ``li`` along its route ``d`` with line-local mask ``lm``: what a card finds there
        (``kernel.route_scan``) and what marking the first ``k`` empty stops does."""
        memo = self.memo[li][d]
        e = memo.get(lm)
        if e is None:
            e = self.budget.remember(memo, lm, self._compute(li, d, lm))
        return e

    def choices(self, li: int, lm: int, card: int) -> tuple[int, ...]:
        """The legal ``actions.choice(route, crosses)`` of a line card on line ``li`` (given a
        window).

        In the order ``State.legal_actions`` lists them: route 0 with 0..most crosses,
        then each further route's moves (a loop's backward, a branch past the first) that
        differ from every earlier route's move with as many crosses. The one rule of what
        a card may do on a line: the checked list and ``State.random_action`` read it; the
        kernel compiles the same rule (harness).
        Memoised per (line, line-local mask, card) in ``choice_memo[li][lm << KIND_BITS | card]``.
        """
        key = lm << KIND_BITS | card
        memo = self.choice_memo[li]
        x = memo.get(key)
        if x is None:
            x = self.budget.remember(memo, key, self._choices(li, lm, card))
        return x

    def _choices(self, li: int, lm: int, card: int) -> tuple[int, ...]:
        return kernel.line_choices(self.kernel, self._line_marks(li, lm), li, card, self._scratch)

    def canonical(self, li: int, lm: int, d: int, k: int, card: int) -> int:
        """The listed form of the legal line move ``li``/``d``/``k`` (``kernel.canonical_move``)."""
        mk = self._line_marks(li, lm)
        return kernel.canonical_move(self.kernel, mk, li, d, k, card, self._scratch)

    def scan(self, li: int, d: int, lm: int) -> kernel.RouteScan:
        """Line ``li``'s route ``d`` with line-local mask ``lm`` as a card finds it."""
        return kernel.route_scan(self.kernel, self._line_marks(li, lm), li, d, self._scratch)

    def _compute(self, li: int, d: int, lm: int) -> LineEntry:
        stops = self.stops[li]
        scan = self.scan(li, d, lm)
        outs: list[Outcome] = [Outcome(0, (), 0)]
        g = 0
        per_line: dict[int, int] = {}
        nsp = 0
        for j in scan.empties:
            s = stops[j]
            g |= 1 << s
            nsp += self.special[s]
            for lj, b in self.station_upd[s]:
                per_line[lj] = per_line.get(lj, 0) | b
            outs.append(Outcome(g, tuple(per_line.items()), nsp))
        first = stops[scan.empties[0]] if scan.empties else -1
        return LineEntry(scan.run, tuple(outs), first)
