"""The game kernel: whole games of the random, greedy and lookahead bots on flat arrays.

``mapkit simulate`` plays its games here. The checked ``State`` is the reference; the
differential harness (``tests/test_kernel_agrees.py``) plays the same seeds through both and
requires identical games: every card, every move, every score.

The kernel is plain Python over NumPy arrays, compiled with numba (``njit(cache=True)``) when
``jit`` is on; ``MAPKIT_JIT=0`` runs the very same functions uncompiled (slow, for debugging).
It reads the map through :class:`KernelMap`, built from the engine's ``Tables``, the card table
of ``cards.py`` and the dealer of ``deal.py`` (compiled from the same source). Bot choices
reproduce the Python bots exactly, including their ``random.Random`` streams (MT19937,
``random()`` as CPython computes it) and the evaluation weights of ``bots/evaluate.py``.

Interface: :func:`kernel_map`, :func:`play_batch` (per-game results for ``simulate``) and
:func:`play_histories` (every action, for the harness and records).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from mapkit.engine import deal
from mapkit.engine.cards import (
    CARD_EXPRESS,
    CARD_VALUE,
    DECK_COUNTS,
    DECK_SIZE,
    FREE,
    PLUS,
    SIX,
    most_crosses,
    nth_card,
)
from mapkit.engine.scoring import penalty

if TYPE_CHECKING:
    from mapkit.engine.tables import Tables

JIT = os.environ.get("MAPKIT_JIT", "1") != "0"

RANDOM, GREEDY, LOOKAHEAD = 0, 1, 2
"""Bot codes of the kernel (``BOT_CODES`` maps the registry's names to them)."""
BOT_CODES = {"random": RANDOM, "greedy": GREEDY, "lookahead": LOOKAHEAD}

MAX_HISTORY = 4096
_NO_HISTORY = np.zeros(0, np.int64)


def _jit(fn: Any, inline: bool = False, entry: bool = False) -> Any:
    """Compile ``fn`` (cached on disk); ``inline``: numba inlines it into its callers' IR instead
    of compiling it as a function of its own (each compiled function is optimised, wrapped for
    Python and turned into machine code again with all its callees: the cost of a cold start)."""
    if not JIT:
        return fn
    import numba

    if inline:
        return numba.njit(inline="always")(fn)
    if entry:
        return numba.njit(cache=True, nogil=True)(fn)
    # called only from compiled code: no wrappers for calls from Python
    return numba.njit(cache=True, nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)(fn)


class KernelMap(NamedTuple):
    """One map as arrays (from ``Tables``): what the kernel functions read."""

    nst: np.ndarray  # stops per line
    stops: np.ndarray  # [line, position] -> station
    route: np.ndarray  # [line, direction, t] -> position of the t-th stop in route order
    loop: np.ndarray
    windows: np.ndarray
    first: np.ndarray
    others: np.ndarray
    count: np.ndarray  # interchange number of each station
    special: np.ndarray
    occ_start: np.ndarray  # CSR: the (line, position) occurrences of each station
    occ_line: np.ndarray
    occ_pos: np.ndarray
    route_base: np.ndarray  # route index of (line, forward): the bots' ``ri``
    slots: np.ndarray  # sampling slots per card kind (``Tables.slots``)
    value: np.ndarray  # card table: value, express flag, deck counts
    express: np.ndarray
    deck: np.ndarray
    mt_init: np.ndarray  # MT19937's init_genrand(19650218), where every seeding starts


class BotParams(NamedTuple):
    """The greedy evaluation's weights as tables, so the kernel's floats equal Python's."""

    need: np.ndarray  # need[seg] = ceil(seg / card) as the evaluator computes it (float)
    beta_pow: np.ndarray  # beta ** need for every integral need
    over: float
    card: float
    cap: float
    noise: float
    extra: float
    width: int
    discount: float


def kernel_map(t: Tables) -> KernelMap:
    L, S = t.n_lines, t.n_stations
    maxn = max(len(st) for st in t.stops)
    nst = np.array([len(st) for st in t.stops], np.int64)
    stops = np.zeros((L, maxn), np.int64)
    route = np.zeros((L, 2, maxn), np.int64)
    for li, st in enumerate(t.stops):
        stops[li, : len(st)] = st
        rs = t.routes[li]
        route[li, 0, : len(st)] = rs[0]
        route[li, 1, : len(st)] = rs[-1]
    occ: list[list[tuple[int, int]]] = [[] for _ in range(S)]
    for li, st in enumerate(t.stops):
        for j, s in enumerate(st):
            occ[s].append((li, j))
    start = np.zeros(S + 1, np.int64)
    for s in range(S):
        start[s + 1] = start[s] + len(occ[s])
    flat = [x for o in occ for x in o]
    base = np.zeros(L, np.int64)
    ri = 0
    for li in range(L):
        base[li] = ri
        ri += 2 if t.loop[li] else 1
    return KernelMap(
        nst=nst,
        stops=stops,
        route=route,
        loop=np.array(t.loop, np.int64),
        windows=np.array(t.windows, np.int64),
        first=np.array(t.first, np.int64),
        others=np.array(t.others, np.int64),
        count=np.array(t.intersections, np.int64),
        special=np.array(t.special, np.int64),
        occ_start=start,
        occ_line=np.array([li for li, _ in flat] or [0], np.int64),
        occ_pos=np.array([j for _, j in flat] or [0], np.int64),
        route_base=base,
        slots=np.array(t.slots, np.int64),
        value=np.array(CARD_VALUE, np.int64),
        express=np.array(CARD_EXPRESS, np.int64),
        deck=np.array(DECK_COUNTS, np.int64),
        mt_init=_init_genrand(19650218),
    )


def bot_params(weights: Any, noise: float, extra: float, width: int, discount: float) -> BotParams:
    """The evaluator's float arithmetic (``Evaluator._line_value``) as tables, from Python."""
    need = np.array([float(-(-seg // weights.card)) for seg in range(129)])
    pow_ = np.array([weights.beta ** float(k) for k in range(129)])
    return BotParams(
        need, pow_, weights.over, weights.card, weights.cap, noise, extra, width, discount
    )


# ------------------------------------------------------------------ random streams
_mix = _jit(deal.mix)

M32 = 0xFFFFFFFF


def _init_genrand(s: int) -> np.ndarray:
    """MT19937's ``init_genrand(s)``: the start of every ``init_by_array`` (always 19650218)."""
    mt = np.zeros(624, np.int64)
    mt[0] = s
    for i in range(1, 624):
        mt[i] = (1812433253 * (int(mt[i - 1]) ^ (int(mt[i - 1]) >> 30)) + i) & M32
    return mt


def _mt_seed(mt: np.ndarray, seed: int, seat: int, init: np.ndarray) -> None:
    """``random.Random(seed * 7 + seat)`` (``init_by_array`` of its 32-bit words, from
    ``init``: ``init_genrand(19650218)``, the same for every seed); ``mt[624]`` is the index."""
    w0 = (seed & M32) * 7 + seat
    w1 = (seed >> 32) * 7 + (w0 >> 32)
    key0 = w0 & M32
    key1 = w1 & M32
    key2 = w1 >> 32
    klen = 3 if key2 else (2 if key1 else 1)
    for i in range(624):  # a loop: slice assignment costs seconds of numba compile time
        mt[i] = init[i]
    i = 1
    j = 0
    for _ in range(624):
        kj = key0 if j == 0 else (key1 if j == 1 else key2)
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + kj + j) & M32
        i += 1
        j += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        if j >= klen:
            j = 0
    for _ in range(623):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & M32
        i += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
    mt[0] = 0x80000000
    mt[624] = 624


_mt_seed = _jit(_mt_seed)


def _mt_next(mt: np.ndarray) -> int:
    """The next 32-bit output. MT19937's twist, one word at a time as it is drawn: the twist
    updates ``mt`` in place in index order, word ``k`` reading only words ``> k`` (not yet
    updated) and ``< k`` (updated), so twisting word ``k`` just before it is read gives the
    very words of the whole twist, without computing the 624 words a short game never reads."""
    kk = mt[624]
    if kk >= 624:
        kk = 0
    y = (mt[kk] & 0x80000000) | ((mt[kk + 1] if kk < 623 else mt[0]) & 0x7FFFFFFF)
    v = mt[kk + 397 if kk < 227 else kk - 227] ^ (y >> 1)
    y = v ^ 0x9908B0DF if y & 1 else v
    mt[kk] = y
    mt[624] = kk + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


_mt_next = _jit(_mt_next)


def _rand(mt: np.ndarray) -> float:
    """``random.Random.random()``: 53 bits from two 32-bit outputs, as CPython builds it."""
    a = _mt_next(mt) >> 5
    b = _mt_next(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


_rand = _jit(_rand)


# ------------------------------------------------------------------ the rules
def _scan(
    nst: np.ndarray,
    stops: np.ndarray,
    route: np.ndarray,
    mk: np.ndarray,
    li: int,
    d: int,
    buf: np.ndarray,
) -> tuple[int, int]:
    """Empty stops of line ``li`` in route order ``d`` into ``buf`` (positions); returns
    ``(empties, run)``: an express card may mark the first ``k`` empties, a number card the
    first ``k <= run`` (the stops contiguous from the first empty one). ``mk``: 1 = marked."""
    ne = 0
    run = 0
    open_run = True
    for t in range(nst[li]):
        j = route[li, d, t]
        if mk[stops[li, j]] == 0:
            buf[ne] = j
            ne += 1
            if open_run:
                run += 1
        elif ne:
            open_run = False
    return ne, run


_scan = _jit(_scan)


_most_crosses = _jit(most_crosses)
_nth_card = _jit(nth_card)
_penalty = _jit(penalty)


def _same_prefix(bf: np.ndarray, bb: np.ndarray, k: int, rank: np.ndarray) -> bool:
    """Do the first ``k`` empties forward and backward mark the same stops?"""
    for i in range(k):
        rank[bf[i]] = i
    top = -1
    for i in range(k):
        r = rank[bb[i]]
        if r < 0 or r > top:
            top = r if r >= 0 else 1 << 30
    for i in range(k):
        rank[bf[i]] = -1
    return top < k


_same_prefix = _jit(_same_prefix)


def _choices(nst, stops, route, loop, mk, li, card, bf, bb, rank, out) -> int:  # type: ignore[no-untyped-def]
    """``Tables.choices``: the legal ``direction << 3 | crosses`` of a line card, in
    ``legal_actions`` order, into ``out``; returns how many."""
    ne, run = _scan(nst, stops, route, mk, li, 0, bf)
    if card == PLUS:
        out[0] = 0
        if loop[li] and ne:
            _scan(nst, stops, route, mk, li, 1, bb)
            if bb[0] != bf[0]:
                out[1] = 8
                return 2
        return 1
    m = _most_crosses(card, ne, run)
    for k in range(m + 1):
        out[k] = k
    n = m + 1
    if loop[li]:
        neb, runb = _scan(nst, stops, route, mk, li, 1, bb)
        mb = _most_crosses(card, neb, runb)
        for k in range(1, mb + 1):
            if k > m or not _same_prefix(bf, bb, k, rank):
                out[n] = 8 | k
                n += 1
    return n


_choices = _jit(_choices)


class Sheets(NamedTuple):
    """Every player's sheet and the shared deck, reset per game (``_reset``)."""

    mk: np.ndarray  # [player, station] 1 = marked
    boxed: np.ndarray  # [player, station]
    lmark: np.ndarray  # [player, line] stops marked
    win: np.ndarray  # [player, line] windows left
    wleft: np.ndarray  # [player]
    inter: np.ndarray  # [player] sum of interchange numbers
    newly: np.ndarray  # [player, line] completed this round
    done: np.ndarray  # [player, line]
    firsts: np.ndarray  # [player, line]
    when: np.ndarray  # [player, line] round of completion (1-based), 0 if none
    lpts: np.ndarray  # [player]
    taken: np.ndarray  # [line]
    counts: np.ndarray  # [card kind] the draw pile
    misc: np.ndarray  # [0] total in pile, [1] round, [2] players unfinished


def new_sheets(km: KernelMap, n: int) -> Sheets:
    S = len(km.count)
    L = len(km.nst)
    z = np.zeros
    return Sheets(
        z((n, S), np.int64), z((n, S), np.int64), z((n, L), np.int64), z((n, L), np.int64),
        z(n, np.int64), z(n, np.int64), z((n, L), np.int64), z((n, L), np.int64),
        z((n, L), np.int64), z((n, L), np.int64), z(n, np.int64), z(L, np.int64),
        z(8, np.int64), z(3, np.int64),
    )  # fmt: skip


def _reset(km, sh) -> None:  # type: ignore[no-untyped-def]
    n = sh.wleft.shape[0]
    sh.mk[:] = 0
    sh.boxed[:] = 0
    sh.lmark[:] = 0
    sh.inter[:] = 0
    sh.newly[:] = 0
    sh.done[:] = 0
    sh.firsts[:] = 0
    sh.when[:] = 0
    sh.lpts[:] = 0
    sh.taken[:] = 0
    tot = 0
    for p in range(n):
        tot = 0
        for li in range(km.nst.shape[0]):
            sh.win[p, li] = km.windows[li]
            tot += km.windows[li]
        sh.wleft[p] = tot
    for k in range(8):
        sh.counts[k] = km.deck[k]
    sh.misc[0] = DECK_SIZE
    sh.misc[1] = 0
    sh.misc[2] = n if tot else 0


_reset = _jit(_reset)


def _mark_at(occ_start, occ_line, nst, special, mk, lmark, newly, s) -> int:  # type: ignore[no-untyped-def]
    """Mark station ``s`` on one sheet; returns 1 if it is special."""
    mk[s] = 1
    for o in range(occ_start[s], occ_start[s + 1]):
        li = occ_line[o]
        lmark[li] += 1
        if lmark[li] == nst[li]:
            newly[li] = 1
    return special[s]


_mark_at = _jit(_mark_at)


def _play_line(  # type: ignore[no-untyped-def]
    nst,
    stops,
    route,
    occ_start,
    occ_line,
    special,
    count,
    mk,
    lmark,
    newly,
    boxed,
    win,
    wleft,
    inter,
    misc,
    p,
    card,
    li,
    d,
    k,
    buf,
) -> int:
    """Play ``card`` on line ``li`` in direction ``d`` with ``k`` crosses (legal) on seat
    ``p``'s sheet (``mk``, ``lmark``, ``newly``, ``boxed``, ``win``: its rows); returns the
    special stations marked (extra actions earned)."""
    win[li] -= 1
    wleft[p] -= 1
    if wleft[p] == 0:
        misc[2] -= 1
    ne, _ = _scan(nst, stops, route, mk, li, d, buf)
    nsp = 0
    if card == PLUS:
        if ne:
            s = stops[li, buf[0]]
            nsp += _mark_at(occ_start, occ_line, nst, special, mk, lmark, newly, s)
            boxed[s] = 1
            inter[p] += count[s]
        return nsp
    for i in range(k):
        s = stops[li, buf[i]]
        nsp += _mark_at(occ_start, occ_line, nst, special, mk, lmark, newly, s)
    return nsp


_play_line = _jit(_play_line)


def _canonical(nst, stops, route, mk, li, d, k, card, bf, bb, rank) -> int:  # type: ignore[no-untyped-def]
    """``State.canonical``: a backward move that marks what the forward one marks is forward.
    Arrays only, as the other small helpers (named tuples make each call cost compile time)."""
    if not d:
        return li << 4 | k
    ne, run = _scan(nst, stops, route, mk, li, 0, bf)
    _scan(nst, stops, route, mk, li, 1, bb)
    if card == PLUS:
        if ne == 0 or bb[0] == bf[0]:
            return li << 4
        return li << 4 | 8
    if k <= _most_crosses(card, ne, run) and _same_prefix(bf, bb, k, rank):
        return li << 4 | k
    return li << 4 | 8 | k


_canonical = _jit(_canonical)


def _deal(counts, misc, key) -> int:  # type: ignore[no-untyped-def]
    """``State.deal``: the seeded card of this round among the cards left."""
    k = _nth_card(counts, np.int64(_mix(key ^ np.uint64(misc[1])) % np.uint64(misc[0])))
    counts[k] -= 1
    misc[0] -= 1
    return k


_deal = _jit(_deal)


def _end_round(km, sh, card) -> None:  # type: ignore[no-untyped-def]
    """The completion race of the round (first completers of a line not taken before score
    ``first``), the reshuffle after the 6, the next round."""
    n = sh.wleft.shape[0]
    L = km.nst.shape[0]
    rnd = sh.misc[1] + 1
    for li in range(L):
        now = 0
        for p in range(n):
            if sh.newly[p, li]:
                now = 1
                sh.done[p, li] = 1
                sh.when[p, li] = rnd
                if n == 1 or not sh.taken[li]:
                    sh.firsts[p, li] = 1
                    sh.lpts[p] += km.first[li]
                else:
                    sh.lpts[p] += km.others[li]
                sh.newly[p, li] = 0
        if now:
            sh.taken[li] = 1
    if card == SIX:
        for k in range(8):
            sh.counts[k] = km.deck[k]
        sh.misc[0] = DECK_SIZE
    sh.misc[1] = rnd


_end_round = _jit(_end_round)


# ------------------------------------------------------------------ the bots
def _random_move(nst, stops, route, loop, slots, mk, win, card, mt, bf, bb, rank, ch) -> int:  # type: ignore[no-untyped-def]
    """``State.random_action``: (open line, slot) pairs drawn until a slot is a listed move.
    A free ride returns the station (``S``: none)."""
    S = mk.shape[0]
    if card == FREE:
        e = 0
        for s in range(S):
            if not mk[s]:
                e += 1
        skip = int(_rand(mt) * (e + 1))
        for s in range(S):
            if not mk[s]:
                if skip == 0:
                    return s
                skip -= 1
        return S
    L = nst.shape[0]
    nol = 0
    for li in range(L):
        if win[li]:
            nol += 1
    width = slots[card]
    span = nol * width
    while True:
        j = int(_rand(mt) * span)
        q = j // width
        li = 0
        for x in range(L):
            if win[x]:
                if q == 0:
                    li = x
                    break
                q -= 1
        n = _choices(nst, stops, route, loop, mk, li, card, bf, bb, rank, ch)
        j %= width
        if j < n:
            return li << 4 | ch[j]


_random_move = _jit(_random_move)


def _lv(nst, stops, route, loop, need_of, beta_pow, over, card, cap, mk, li, windows, bonus):  # type: ignore[no-untyped-def]
    """``Evaluator._line_value``: bonus · P(complete) + worth of the windows left (arrays
    only: passing the map's named tuple costs more than the walk)."""
    best = -1.0
    empties = 0
    for d in range(2 if loop else 1):
        need = 0.0
        seg = 0
        empties = 0
        for t in range(nst[li]):
            s = stops[li, route[li, d, t]]
            if mk[s]:
                if seg:
                    need += need_of[seg]
                    seg = 0
            else:
                seg += 1
                empties += 1
        if seg:
            need += need_of[seg]
        if best < 0 or need < best:
            best = need
    if empties == 0:
        return float(bonus)
    p = beta_pow[int(best)]
    if best > windows:
        p *= over
    w = windows * card
    return bonus * p + cap * (w if w < empties else empties)


_lv = _jit(_lv)


class Scratch(NamedTuple):
    """Work arrays of one decision (allocated once per batch)."""

    bf: np.ndarray
    bb: np.ndarray
    rank: np.ndarray
    ch: np.ndarray
    marks: np.ndarray
    aff: np.ndarray
    seen: np.ndarray
    base: np.ndarray
    isfull: np.ndarray
    lost: np.ndarray
    base2: np.ndarray
    isfull2: np.ndarray
    cd: np.ndarray  # candidates: delta, line (-1: free ride), direction, crosses, station
    cl: np.ndarray
    cdr: np.ndarray
    ck: np.ndarray
    cs: np.ndarray
    order: np.ndarray


def new_scratch(km: KernelMap) -> Scratch:
    L = len(km.nst)
    S = len(km.count)
    maxn = km.stops.shape[1]
    C = S + 2 * L + 2
    i64 = np.int64
    return Scratch(
        np.zeros(maxn + 1, i64), np.zeros(maxn + 1, i64), np.full(maxn + 1, -1, i64),
        np.zeros(2 * 8 + 2, i64), np.zeros(maxn + 1, i64), np.zeros(L, i64), np.zeros(S, i64),
        np.zeros(L), np.zeros(L, i64), np.zeros(L, i64), np.zeros(L), np.zeros(L, i64),
        np.zeros(C), np.zeros(C, i64), np.zeros(C, i64), np.zeros(C, i64), np.zeros(C, i64),
        np.zeros(C, i64),
    )  # fmt: skip


def _move_marks(km, mk, li, d, k, card, s, sc) -> int:  # type: ignore[no-untyped-def]
    """The stations a candidate marks, into ``sc.marks``; returns how many."""
    if li < 0:
        if s < 0:
            return 0
        sc.marks[0] = s
        return 1
    ne, _ = _scan(km.nst, km.stops, km.route, mk, li, d, sc.bf)
    if card == PLUS:
        if ne:
            sc.marks[0] = km.stops[li, sc.bf[0]]
            return 1
        return 0
    for i in range(k):
        sc.marks[i] = km.stops[li, sc.bf[i]]
    return k


_move_marks = _jit(_move_marks)


def _gain(  # type: ignore[no-untyped-def]
    nst,
    stops,
    route,
    loop,
    first,
    others,
    occ_start,
    occ_line,
    need,
    bpow,
    over,
    card,
    cap,
    mk,
    win,
    li,
    marks,
    nm,
    bonus,
    pw,
    base,
    isfull,
    lost,
    aff,
) -> float:
    """``Evaluator.delta_raw`` of a move whose ``marks[:nm]`` are set in ``mk`` and that fills
    a window of line ``li`` (-1: none): only the lines it touches are re-valued. Arrays only
    (a call that passes the map's named tuples costs more than the work)."""
    d = pw * nm + bonus
    for i in range(nm):
        s = marks[i]
        for o in range(occ_start[s], occ_start[s + 1]):
            aff[occ_line[o]] = 1
    if li >= 0:
        aff[li] = 1
    for lj in range(nst.shape[0]):
        if not aff[lj]:
            continue
        aff[lj] = 0
        if isfull[lj]:
            continue
        wl = win[lj] - (1 if lj == li else 0)
        b = others[lj] if lost[lj] else first[lj]
        d += _lv(nst, stops, route, loop[lj], need, bpow, over, card, cap, mk, lj, wl, b) - base[lj]
    return d


_gain = _jit(_gain)


def _bases(km, bp, mk, win, lost, base, isfull, sc) -> None:  # type: ignore[no-untyped-def]
    """``Evaluator.base``: every line's value before a move (``isfull``: completed, no value)."""
    for li in range(km.nst.shape[0]):
        full = 1
        for j in range(km.nst[li]):
            if not mk[km.stops[li, j]]:
                full = 0
                break
        isfull[li] = full
        if full:
            base[li] = 0.0
            continue
        bonus = km.others[li] if lost[li] else km.first[li]
        base[li] = _lv(
            km.nst, km.stops, km.route, km.loop[li], bp.need, bp.beta_pow, bp.over, bp.card,
            bp.cap, mk, li, win[li], bonus,
        )  # fmt: skip


_bases = _jit(_bases)


def _candidates(km, bp, mk, win, card, pw, base, isfull, lost, extra, sc) -> int:  # type: ignore[no-untyped-def]
    """``best_moves``: greedy's candidates in its order, with their gains (plus ``extra`` per
    special station marked: the variant's bonus of ``GreedyBot.scored``). Line cards: the full
    run (or the interchange) on every route of every line with a window; a free ride: the
    first empty stop and every isolated empty stop of each open line's routes, then none."""
    L = km.nst.shape[0]
    S = km.count.shape[0]
    n = 0
    if card == FREE:
        for li in range(L):
            if isfull[li]:
                continue
            for d in range(2 if km.loop[li] else 1):
                N = km.nst[li]
                first = -1
                for t in range(N):
                    s = km.stops[li, km.route[li, d, t]]
                    if not mk[s]:
                        first = s
                        break
                for t in range(-1, N):
                    if t < 0:
                        s = first
                        if s < 0:
                            continue
                    else:
                        s = km.stops[li, km.route[li, d, t]]
                        if mk[s]:
                            continue
                        if t > 0 and not mk[km.stops[li, km.route[li, d, t - 1]]]:
                            continue
                        if t < N - 1 and not mk[km.stops[li, km.route[li, d, t + 1]]]:
                            continue
                    if sc.seen[s]:
                        continue
                    sc.seen[s] = 1
                    sc.marks[0] = s
                    mk[s] = 1
                    g = _gain(
                        km.nst, km.stops, km.route, km.loop, km.first, km.others, km.occ_start,
                        km.occ_line, bp.need, bp.beta_pow, bp.over, bp.card, bp.cap,
                        mk, win, -1, sc.marks, 1, 0.0, pw, base, isfull, lost, sc.aff,
                    )  # fmt: skip
                    mk[s] = 0
                    if extra:
                        g += extra * km.special[s]
                    sc.cd[n] = g
                    sc.cl[n] = -1
                    sc.cdr[n] = 0
                    sc.ck[n] = 0
                    sc.cs[n] = s
                    n += 1
        for i in range(n):
            sc.seen[sc.cs[i]] = 0
        sc.cd[n] = 0.0
        sc.cl[n] = -1
        sc.cdr[n] = 0
        sc.ck[n] = 0
        sc.cs[n] = -1
        _ = S
        return n + 1
    for li in range(L):
        if not win[li]:
            continue
        for d in range(2 if km.loop[li] else 1):
            ne, run = _scan(km.nst, km.stops, km.route, mk, li, d, sc.bf)
            bonus = 0.0
            s = -1
            if card == PLUS:
                k = 1 if ne else 0
                if k:
                    s = km.stops[li, sc.bf[0]]
                    bonus = 2.0 * km.count[s]
            else:
                k = _most_crosses(card, ne, run)
            for i in range(k):
                sc.marks[i] = km.stops[li, sc.bf[i]]
            nsp = 0
            for i in range(k):
                mk[sc.marks[i]] = 1
                nsp += km.special[sc.marks[i]]
            g = _gain(
                km.nst, km.stops, km.route, km.loop, km.first, km.others, km.occ_start,
                km.occ_line, bp.need, bp.beta_pow, bp.over, bp.card, bp.cap,
                mk, win, li, sc.marks, k, bonus, pw, base, isfull, lost, sc.aff,
            )  # fmt: skip
            for i in range(k):
                mk[sc.marks[i]] = 0
            if extra:
                g += extra * nsp
            sc.cd[n] = g
            sc.cl[n] = li
            sc.cdr[n] = d
            sc.ck[n] = 0 if card == PLUS else k
            sc.cs[n] = s
            n += 1
    return n


_candidates = _jit(_candidates)


def _lost(km, sh, p, lost) -> None:  # type: ignore[no-untyped-def]
    n = sh.wleft.shape[0]
    for li in range(km.nst.shape[0]):
        lost[li] = 1 if n > 1 and sh.taken[li] and not sh.done[p, li] else 0


_lost = _jit(_lost)


def _action(nst, stops, route, mk, li, d, k, s, card, bf, bb, rank) -> int:  # type: ignore[no-untyped-def]
    """A candidate as an action: a free ride's station (``mk.shape[0]``: none) or the
    canonical line move."""
    S = mk.shape[0]
    if li < 0:
        return 16 * nst.shape[0] + (S if s < 0 else s)
    return _canonical(nst, stops, route, mk, li, d, k, card, bf, bb, rank)


_action = _jit(_action)


def _greedy_move(km, bp, sh, p, card, mt, special, sc) -> int:  # type: ignore[no-untyped-def]
    """``GreedyBot.choose``: the first candidate with the best gain plus uniform noise
    (``GreedyBot.pick``; the kernel plays the bots with their default noise, > 0)."""
    mk = sh.mk[p]
    win = sh.win[p]
    pw = 1.0 if sh.wleft.shape[0] == 1 else 0.5
    _lost(km, sh, p, sc.lost)
    _bases(km, bp, mk, win, sc.lost, sc.base, sc.isfull, sc)
    extra = bp.extra if special else 0.0
    n = _candidates(km, bp, mk, win, card, pw, sc.base, sc.isfull, sc.lost, extra, sc)
    best = -1e300
    bi = -1
    for i in range(n):
        v = sc.cd[i] + bp.noise * _rand(mt)
        if bi < 0 or v > best:
            best = v
            bi = i
    return _action(
        km.nst, km.stops, km.route, mk, sc.cl[bi], sc.cdr[bi], sc.ck[bi], sc.cs[bi], card,
        sc.bf, sc.bb, sc.rank,
    )  # fmt: skip


_greedy_move = _jit(_greedy_move)


def _lookahead_move(km, bp, sh, p, card, mt, special, is_extra, sc) -> int:  # type: ignore[no-untyped-def]
    """``LookaheadBot.choose``: greedy gain + E[best greedy gain of the next card] for the
    ``width`` best moves (expectimax over the draw pile; the full deck after the 6)."""
    mk = sh.mk[p]
    win = sh.win[p]
    pw = 1.0 if sh.wleft.shape[0] == 1 else 0.5
    _lost(km, sh, p, sc.lost)
    _bases(km, bp, mk, win, sc.lost, sc.base, sc.isfull, sc)
    extra = bp.extra if special else 0.0
    n = _candidates(km, bp, mk, win, card, pw, sc.base, sc.isfull, sc.lost, extra, sc)
    if n == 1 or is_extra:
        return _greedy_move(km, bp, sh, p, card, mt, special, sc)
    # sorted(moves, reverse=True) over (gain, route, crosses, station)
    order = sc.order
    for i in range(n):
        order[i] = i
    for i in range(1, n):
        x = order[i]
        j = i - 1
        while j >= 0 and _before(km, sc, x, order[j]):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = x
    top = n if n < bp.width else bp.width
    cd = np.empty(top)
    cl = np.empty(top, np.int64)
    cdr = np.empty(top, np.int64)
    ck = np.empty(top, np.int64)
    cs = np.empty(top, np.int64)
    for i in range(top):
        o = order[i]
        cd[i] = sc.cd[o]
        cl[i] = sc.cl[o]
        cdr[i] = sc.cdr[o]
        ck[i] = sc.ck[o]
        cs[i] = sc.cs[o]
    six = card == SIX
    tot = DECK_SIZE if six else sh.misc[0]
    best = -1e300
    ba = -1
    marks = np.empty(sc.marks.shape[0], np.int64)
    for i in range(top):
        li = cl[i]
        a = _action(
            km.nst, km.stops, km.route, mk, li, cdr[i], ck[i], cs[i], card, sc.bf, sc.bb,
            sc.rank,
        )  # fmt: skip
        nm = _move_marks(km, mk, li, cdr[i], ck[i], card, cs[i], sc)
        for m in range(nm):
            marks[m] = sc.marks[m]
            mk[marks[m]] = 1
        if li >= 0:
            win[li] -= 1
        future = 0.0
        left = 0
        for lj in range(km.nst.shape[0]):
            left += win[lj]
        if left:
            _bases(km, bp, mk, win, sc.lost, sc.base2, sc.isfull2, sc)
            for c in range(8):
                cnt = km.deck[c] if six else sh.counts[c]
                if not cnt:
                    continue
                m2 = _candidates(km, bp, mk, win, c, pw, sc.base2, sc.isfull2, sc.lost, 0.0, sc)
                g = sc.cd[0]
                for q in range(1, m2):
                    if sc.cd[q] > g:
                        g = sc.cd[q]
                future += cnt / tot * g
        for m in range(nm):
            mk[marks[m]] = 0
        if li >= 0:
            win[li] += 1
        total = cd[i] + bp.discount * future + bp.noise * _rand(mt)
        if ba < 0 or total > best:
            best = total
            ba = a
    return ba


def _before(km, sc, x, y) -> bool:  # type: ignore[no-untyped-def]
    """Does candidate ``x`` sort before ``y`` in descending (gain, route, crosses, station)?"""
    if sc.cd[x] != sc.cd[y]:
        return sc.cd[x] > sc.cd[y]
    rx = -1 if sc.cl[x] < 0 else km.route_base[sc.cl[x]] + sc.cdr[x]
    ry = -1 if sc.cl[y] < 0 else km.route_base[sc.cl[y]] + sc.cdr[y]
    if rx != ry:
        return rx > ry
    if sc.ck[x] != sc.ck[y]:
        return sc.ck[x] > sc.ck[y]
    return sc.cs[x] > sc.cs[y]


_before = _jit(_before)
_lookahead_move = _jit(_lookahead_move)


# ------------------------------------------------------------------ whole games
def _play(  # type: ignore[no-untyped-def]
    km, bp, sh, sc, seed, bots, with_random, with_greedy, with_lookahead, special, mts, hist
) -> int:
    """One game from the seed: the seeded deck, seat ``p`` playing bot ``bots[p]`` with the
    stream ``random.Random(seed * 7 + p)``. Writes the history (cards and actions) into
    ``hist`` when it has room; returns its length. ``with_*``: :func:`bot_kinds` of ``bots``
    (numba prunes the branch of a kind that is ``None`` before typing it)."""
    n = bots.shape[0]
    S = km.count.shape[0]
    fb = 16 * km.nst.shape[0]
    _reset(km, sh)
    for p in range(n):
        _mt_seed(mts[p], seed, p, km.mt_init)
    key = _mix(np.uint64(seed))
    cap = hist.shape[0]
    h = 0
    nst, stops, route, loop, slots = km.nst, km.stops, km.route, km.loop, km.slots
    occ_start, occ_line, spec, count = km.occ_start, km.occ_line, km.special, km.count
    wleft, inter, misc = sh.wleft, sh.inter, sh.misc
    while misc[2] > 0:
        card = _deal(sh.counts, misc, key)
        if h < cap:
            hist[h] = card
        h += 1
        for p in range(n):
            if wleft[p] == 0:
                continue
            mk, win, lmark, newly = sh.mk[p], sh.win[p], sh.lmark[p], sh.newly[p]
            pending = 0
            is_extra = False
            while True:
                bot = bots[p]
                a = -1
                if with_random is not None:  # noqa: SIM102 (numba prunes this test alone)
                    if bot == RANDOM:
                        a = _random_move(
                            nst, stops, route, loop, slots, mk, win, card, mts[p],
                            sc.bf, sc.bb, sc.rank, sc.ch,
                        )  # fmt: skip
                        if card == FREE:
                            a += fb
                if with_greedy is not None:  # noqa: SIM102 (numba prunes this test alone)
                    if bot == GREEDY:
                        a = _greedy_move(km, bp, sh, p, card, mts[p], special, sc)
                if with_lookahead is not None:  # noqa: SIM102 (numba prunes this test alone)
                    if bot == LOOKAHEAD:
                        a = _lookahead_move(km, bp, sh, p, card, mts[p], special, is_extra, sc)
                if h < cap:
                    hist[h] = a
                h += 1
                nsp = 0
                if card == FREE:
                    if a - fb < S:
                        _mark_at(occ_start, occ_line, nst, spec, mk, lmark, newly, a - fb)
                else:
                    nsp = _play_line(
                        nst, stops, route, occ_start, occ_line, spec, count,
                        mk, lmark, newly, sh.boxed[p], win, wleft, inter, misc,
                        p, card, a >> 4, a >> 3 & 1, a & 7, sc.bf,
                    )  # fmt: skip
                if special:
                    pend = pending + nsp
                    if pend and wleft[p]:
                        pending = pend - 1
                        is_extra = True
                        continue
                break
        _end_round(km, sh, card)
    return h


_play = _jit(_play, inline=True)


def _batch(  # type: ignore[no-untyped-def]
    km, bp, sh, sc, seeds, bots, with_random, with_greedy, with_lookahead, special, mts, hist,
    scores, rounds, when, firsts, empty, boxed,
):  # fmt: skip
    """Play ``seeds``' games; per game the scores, rounds, completion rounds, ``first`` bonuses,
    empty and boxed stations (what ``simulate``'s statistics read). The kernel's one compiled
    entry point: writes the history of the last game into ``hist`` when it has room and returns
    its length."""
    n = bots.shape[0]
    S = km.count.shape[0]
    L = km.nst.shape[0]
    h = 0
    for g in range(seeds.shape[0]):
        h = _play(
            km, bp, sh, sc, seeds[g], bots, with_random, with_greedy, with_lookahead, special,
            mts, hist,
        )  # fmt: skip
        rounds[g] = sh.misc[1]
        for p in range(n):
            e = 0
            for s in range(S):
                em = 1 - sh.mk[p, s]
                empty[g, p, s] = em
                boxed[g, p, s] = sh.boxed[p, s]
                e += em
            scores[g, p] = sh.lpts[p] + 2 * sh.inter[p] - _penalty(e, n)
            for li in range(L):
                when[g, p, li] = sh.when[p, li]
                firsts[g, p, li] = sh.firsts[p, li]
    return h


_batch = _jit(_batch, entry=True)


def bot_kinds(bots: np.ndarray) -> tuple[bool | None, bool | None, bool | None]:
    """(random, greedy, lookahead): ``True`` for a kind some seat plays, else ``None``. numba
    prunes the branches of a ``None`` kind before typing them, so a run compiles only the bots
    it seats (a random-only run never compiles the greedy evaluation)."""
    codes = set(bots.tolist())
    return tuple(True if k in codes else None for k in (RANDOM, GREEDY, LOOKAHEAD))  # type: ignore[return-value]


class Batch(NamedTuple):
    """Per-game results of :func:`play_batch`, ``G`` games, ``n`` seats."""

    scores: np.ndarray  # [G, n]
    rounds: np.ndarray  # [G]
    when: np.ndarray  # [G, n, L] completion round, 0 if not completed
    firsts: np.ndarray  # [G, n, L] 1 if completed for the first bonus
    empty: np.ndarray  # [G, n, S] 1 if empty at the end
    boxed: np.ndarray  # [G, n, S] 1 if carrying an interchange number


class Kernel:
    """The kernel for one map and seating: ``play_batch(seeds)`` and ``play_history(seed)``."""

    def __init__(
        self, tables: Tables, bots: tuple[str, ...], special: bool, params: BotParams
    ) -> None:
        self.km = kernel_map(tables)
        self.bp = params
        self.n = len(bots)
        self.bots = np.array([BOT_CODES[b] for b in bots], np.int64)
        self.kinds = bot_kinds(self.bots)
        self.special = bool(special)
        self.sh = new_sheets(self.km, self.n)
        self.sc = new_scratch(self.km)
        self.mts = np.zeros((self.n, 625), np.int64)

    def play_batch(self, seeds: np.ndarray) -> Batch:
        return self._run(seeds, _NO_HISTORY)[0]

    def is_compiled(self) -> bool:
        """Is this seating's machine code loaded or in numba's on-disk cache? ``False``: the
        first game compiles it (seconds; see docs/engine.md), so a caller can say so first."""
        if not JIT:
            return True
        out = self._outputs(0)
        args = (
            self.km, self.bp, self.sh, self.sc, np.zeros(0, np.int64), self.bots, *self.kinds,
            self.special, self.mts, _NO_HISTORY, *out,
        )  # fmt: skip
        sig = tuple(_batch.typeof_pyval(a) for a in args)
        if sig in _batch.overloads:
            return True
        cres = _batch._cache.load_overload(sig, _batch.targetctx)
        if cres is None:
            return False
        _batch.add_overload(cres)
        return True

    def _outputs(self, G: int) -> Batch:
        L, S = len(self.km.nst), len(self.km.count)
        return Batch(
            np.zeros((G, self.n), np.int64), np.zeros(G, np.int64),
            np.zeros((G, self.n, L), np.int64), np.zeros((G, self.n, L), np.int8),
            np.zeros((G, self.n, S), np.int8), np.zeros((G, self.n, S), np.int8),
        )  # fmt: skip

    def _run(self, seeds: np.ndarray, hist: np.ndarray) -> tuple[Batch, int]:
        """Per-game results of ``seeds``' games and the length of the last one's history
        (written into ``hist`` as far as it has room)."""
        out = self._outputs(len(seeds))
        h = _batch(
            self.km, self.bp, self.sh, self.sc, np.asarray(seeds, np.int64), self.bots,
            *self.kinds, self.special, self.mts, hist, *out,
        )  # fmt: skip
        return out, h

    def play_history(self, seed: int) -> list[int]:
        """Every action of game ``seed`` (cards and moves interleaved, as ``State.history``)."""
        hist = np.zeros(MAX_HISTORY, np.int64)
        _, h = self._run(np.array([seed], np.int64), hist)
        if h > MAX_HISTORY:
            raise RuntimeError(f"a game of {h} actions: MAX_HISTORY is {MAX_HISTORY}")
        return [int(x) for x in hist[:h]]

    def sheet(self, p: int) -> tuple[int, int, int]:
        """After ``play_history``: seat ``p``'s (marked mask, boxed mask, line points)."""
        mk = sum(1 << s for s in np.flatnonzero(self.sh.mk[p]).tolist())
        bx = sum(1 << s for s in np.flatnonzero(self.sh.boxed[p]).tolist())
        return mk, bx, int(self.sh.lpts[p])
