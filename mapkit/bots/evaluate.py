"""The greedy evaluation: an estimate of a sheet's final score, and cheap deltas of it.

``H(sheet) = Σ_lines LV(line) + 2·interchanges − pw·empty stations`` where the
line value ``LV`` is the bonus already won, or ``bonus · P(complete)`` plus the
worth of the line's unused windows (future crosses). ``P`` comes from how many
more cards the line's empty stretches need (each stretch between marked stations
needs its own number card) against its windows left. Weights are tuned by
simulation (docs/simulate.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mapkit.bots.model import FREE, KIND_OF, PLUS, Compiled
from mapkit.engine.kernel import most_crosses
from mapkit.engine.tables import remember


@dataclass(frozen=True)
class Weights:
    """Tuned by ``python benchmarks/bench_bots.py tune`` (see docs/simulate.md)."""

    beta: float = 0.8
    """Per-card chance that a needed card arrives and fits."""
    over: float = 0.3
    """Factor on P when the line needs more cards than it has windows."""
    card: float = 5.0
    """Stations one card covers on average."""
    cap: float = 0.2
    """Worth of one future cross a line's windows can still make."""


DEFAULT = Weights()


@dataclass(slots=True)
class View:
    """One player's sheet as the bots see it (public information only)."""

    marked: int
    windows: list[int]
    lost: int = 0
    """Bitmask of lines whose ``first`` bonus another player has already taken."""
    done: int = 0
    """Bitmask of lines this player has completed."""
    inter: int = 0
    """Sum of the interchange numbers written so far."""
    pw: float = 1.0
    """Weight of one empty station: 1 solo, 0.5 with several players."""

    def copy(self) -> View:
        return View(self.marked, self.windows[:], self.lost, self.done, self.inter, self.pw)


@dataclass
class Evaluator:
    cc: Compiled
    w: Weights = DEFAULT
    _memo: list = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._memo = [{} for _ in self.cc.line_ids]
        self._lm, self._first, self._others = self.cc.line_mask, self.cc.first, self.cc.others

    def line_value(self, li: int, marked: int, windows: int, lost: bool) -> float:
        """LV for an open (not yet completed) line; completed lines are valued by the caller."""
        key = (marked & self.cc.line_mask[li]) << 8 | windows << 1 | lost
        memo = self._memo[li]
        v = memo.get(key)
        if v is None:
            v = remember(memo, key, self._line_value(li, marked, windows, lost))
        return v

    def base(self, v: View) -> list[float | None]:
        """LV of every line before a move (``None`` for completed lines): shared by all deltas."""
        out: list[float | None] = []
        marked, lost_bits, windows = v.marked, v.lost, v.windows
        for li, lm in enumerate(self.cc.line_mask):
            m = marked & lm
            if m == lm:
                out.append(None)
                continue
            lost = lost_bits >> li & 1
            key = m << 8 | windows[li] << 1 | lost
            memo = self._memo[li]
            x = memo.get(key)
            if x is None:
                x = remember(memo, key, self._line_value(li, marked, windows[li], bool(lost)))
            out.append(x)
        return out

    def _line_value(self, li: int, marked: int, windows: int, lost: bool) -> float:
        cc, w = self.cc, self.w
        bonus = cc.others[li] if lost else cc.first[li]
        best_need, empties = None, 0
        for route in cc.routes[li]:
            need, seg, empties = 0, 0, 0
            for b in route.bits:
                if marked & b:
                    if seg:
                        need += -(-seg // w.card)
                        seg = 0
                else:
                    seg += 1
                    empties += 1
            if seg:
                need += -(-seg // w.card)
            if best_need is None or need < best_need:
                best_need = need
        if empties == 0:
            return float(bonus)
        p = w.beta**best_need
        if best_need > windows:
            p *= w.over
        return bonus * p + w.cap * min(windows * w.card, empties)

    def done_value(self, li: int, lost: bool) -> float:
        return float(self.cc.others[li] if lost else self.cc.first[li])

    def value(self, v: View) -> float:
        """H of a whole sheet (used by beam search; greedy uses :meth:`delta`)."""
        cc = self.cc
        total = 2.0 * v.inter - v.pw * (cc.n - v.marked.bit_count())
        for li in range(len(cc.line_ids)):
            lost = bool(v.lost >> li & 1)
            if v.marked & cc.line_mask[li] == cc.line_mask[li]:
                total += self.done_value(li, bool(v.lost >> li & 1) and not v.done >> li & 1)
            else:
                total += self.line_value(li, v.marked, v.windows[li], lost)
        return total

    def delta_raw(
        self, v: View, line: int, marks: int, count: int, affected: int, base: list[float | None]
    ) -> float:
        """H(after) − H(before) of a move: it marks ``marks`` (touching the lines in
        ``affected``), fills a window of ``line`` (-1: none) and boxes ``count``.

        Only the lines the move touches are re-valued; ``base`` holds every
        line's value before the move (:meth:`base`).
        """
        d = v.pw * marks.bit_count() + 2.0 * count
        if line >= 0:
            affected |= 1 << line
        after = v.marked | marks
        line_mask, first, others = self._lm, self._first, self._others
        memo = self._memo
        lost_bits = v.lost
        windows = v.windows
        while affected:
            low = affected & -affected
            li = low.bit_length() - 1
            affected ^= low
            before = base[li]
            if before is None:
                continue
            lm = line_mask[li]
            a = after & lm
            if lost_bits & low:
                if a == lm:
                    d += others[li] - before
                    continue
                key = a << 8 | (windows[li] - (li == line)) << 1 | 1
            else:
                if a == lm:
                    d += first[li] - before
                    continue
                key = a << 8 | (windows[li] - (li == line)) << 1
            x = memo[li].get(key)
            if x is None:
                wl = windows[li] - (li == line)
                x = remember(memo[li], key, self._line_value(li, after, wl, bool(lost_bits & low)))
            d += x - before
        return d


class Routes:
    """Memoised facts of a route for the part of the sheet it crosses.

    ``info(r, marked)`` -> ``(empties, run, prefix_marks, prefix_lines, holes)``:
    the empty stops in route order from the first one, how many of them are
    contiguous from the first (what a number card may mark), the station mask and
    the touched-lines mask of the first ``j`` empties, and the free-ride targets of
    the route (its first empty stop and every empty stop between marked neighbours).
    """

    def __init__(self, cc: Compiled) -> None:
        self.cc = cc
        self.routes = [r for rs in cc.routes for r in rs]
        self.by_line = []
        i = 0
        for rs in cc.routes:
            self.by_line.append(tuple(range(i, i + len(rs))))
            i += len(rs)
        self.masks = [cc.line_mask[r.line] for r in self.routes]
        self.memo: list[dict[int, tuple]] = [{} for _ in self.routes]

    def info(self, ri: int, marked: int) -> tuple:
        key = marked & self.masks[ri]
        memo = self.memo[ri]
        e = memo.get(key)
        if e is None:
            e = remember(memo, key, self._compute(ri, marked))
        return e

    def _compute(self, ri: int, marked: int) -> tuple:
        route = self.routes[ri]
        cc = self.cc
        flags = [bool(marked & b) for b in route.bits]
        li = route.line
        local = sum(1 << j for j, s in enumerate(cc.stops[li]) if marked >> s & 1)
        scan = cc.tables.scan(li, 1 if route.direction == "backward" else 0, local)
        empties = [cc.stops[li][j] for j in scan.empties]
        run = scan.run
        pm, pl = [0], [0]
        for s in empties:
            pm.append(pm[-1] | 1 << s)
            pl.append(pl[-1] | cc.lines_at_mask[s])
        n = len(flags)
        holes = [empties[0]] if empties else []
        for j, (s, f) in enumerate(zip(route.stops, flags, strict=True)):
            if not f and (j == 0 or flags[j - 1]) and (j == n - 1 or flags[j + 1]):
                holes.append(s)
        return (tuple(empties), run, tuple(pm), tuple(pl), tuple(holes))


def best_moves(
    ev: Evaluator, rt: Routes, v: View, card: int, base: list[float | None]
) -> list[tuple[float, int, int, int, int]]:
    """Every candidate as ``(delta, route index, crosses, station, marks)``, unsorted.

    Greedy's candidates: full runs only (a shorter run never scored
    better in tuning), interchange on each open line, and for a free ride the
    first empty stop of each line and every isolated empty stop (a one-stop hole).
    ``station`` is the boxed/free-ride station or -1.
    """
    cc = ev.cc
    out = []
    marked = v.marked
    kind = KIND_OF[card]
    if kind == FREE:
        seen = set()
        for li in range(len(cc.line_mask)):
            if base[li] is None:
                continue
            for ri in rt.by_line[li]:
                for s in rt.info(ri, marked)[4]:
                    if s in seen:
                        continue
                    seen.add(s)
                    b = 1 << s
                    out.append((ev.delta_raw(v, -1, b, 0, cc.lines_at_mask[s], base), -1, 0, s, b))
        out.append((0.0, -1, 0, -1, 0))
        return out
    memo, masks, delta = rt.memo, rt.masks, ev.delta_raw
    for li, wl in enumerate(v.windows):
        if not wl:
            continue
        for ri in rt.by_line[li]:
            e = memo[ri].get(marked & masks[ri])
            empties, run, pm, pl, _ = e if e is not None else rt.info(ri, marked)
            if kind == PLUS:
                if empties:
                    s = empties[0]
                    d = ev.delta_raw(v, li, pm[1], cc.count[s], pl[1], base)
                    out.append((d, ri, 0, s, pm[1]))
                else:
                    out.append((ev.delta_raw(v, li, 0, 0, 0, base), ri, 0, -1, 0))
                continue
            k = most_crosses(card, len(empties), run)
            out.append((delta(v, li, pm[k], 0, pl[k], base), ri, k, -1, pm[k]))
    return out


def final_score(cc: Compiled, v: View) -> float:
    """The score of a finished sheet as the view knows it (lost lines pay ``others``)."""
    pts = 0
    for li in range(len(cc.line_ids)):
        lm = cc.line_mask[li]
        if v.marked & lm == lm:
            pts += cc.others[li] if v.lost >> li & 1 else cc.first[li]
    return pts + 2 * v.inter - v.pw * (cc.n - v.marked.bit_count())


__all__ = [
    "DEFAULT", "Evaluator", "Routes", "View", "Weights", "best_moves", "final_score",
]  # fmt: skip
