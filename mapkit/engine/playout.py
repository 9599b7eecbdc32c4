"""The fused fast paths: whole games played on a ``State``'s lists without per-move checks.

Used by the bots, the benchmarks and ``mapkit simulate`` (through ``State.random_playout`` and
``State.seeded_playout``). They read the same rule tables as the checked ``State`` methods and
play the games the checked loop would (property tests in ``tests/test_engine_props.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from mapkit.engine.cards import (
    CARD_EXPRESS,
    CARD_VALUE,
    CHANCE,
    DECK,
    DECK_COUNTS,
    FREE,
    PLUS,
    SIX,
    TERMINAL,
)
from mapkit.engine.deal import pick

if TYPE_CHECKING:
    from mapkit.engine.state import State


def random_playout(state: State, rng: Any) -> State:
    """Play to the end: cards drawn from the pile and uniformly random legal actions.

    Uses the same tables as ``legal_actions``; the uniform choice is made by
    rejection over (line, direction, crosses) slots, whose accepted slots are
    exactly the legal actions. ``rng`` needs ``random()`` (a ``random.Random``).
    The history is kept, so replaying it through ``apply_action`` (checked)
    gives the same state. Returns ``state``.
    """
    rand = rng.random
    if state._game.special_stations:
        while state._cur != TERMINAL:
            if state._cur == CHANCE:
                _draw(state, rand)
            else:
                state._do(_random_action(state, rand))
        return state
    while state._cur >= 0:
        state._do(_random_action(state, rand))
    if state._cur == TERMINAL:
        return state
    t = state._t
    L = t.n_lines
    S = t.n_stations
    S1 = S + 1
    fb = t.free_base
    loop = t.loop
    memo = t.memo
    entry = t.entry
    full = t.full
    station_upd = t.station_upd
    win = state._win
    local = state._local
    marked = state._marked
    wleft = state._wleft
    newly = state._newly
    counts = state._counts
    hist = state._history
    n = state._n
    players = range(n)
    slots = [
        [(li, d) for li in range(L) if win[p * L + li] for d in ((0, 1) if loop[li] else (0,))]
        for p in players
    ]
    total = state._total
    unfinished = state._unfinished
    rnd = state._round
    while unfinished:
        r = int(rand() * total)
        c = 0
        while r >= counts[c]:
            r -= counts[c]
            c += 1
        counts[c] -= 1
        total -= 1
        hist.append(c)
        state._card = c
        v1 = CARD_VALUE[c] + 1
        ex = CARD_EXPRESS[c]
        for p in players:
            if not wleft[p]:
                continue
            base = p * L
            if c == FREE:
                m = marked[p]
                while True:
                    s = int(rand() * S1)
                    if s == S or not m >> s & 1:
                        break
                hist.append(fb + s)
                if s == S:
                    continue
                marked[p] = m | 1 << s
                upd = station_upd[s]
            else:
                sl = slots[p]
                ns = len(sl)
                if c == PLUS:
                    while True:
                        li, d = sl[int(rand() * ns)]
                        lm = local[base + li]
                        e = memo[2 * li].get(lm) or entry(li, 0, lm)
                        if not d:
                            a = li << 4
                            break
                        b = entry(li, 1, lm)
                        if b[2] >= 0 and b[2] != e[2]:
                            a = li << 4 | 8
                            e = b
                            break
                    out = e[1][1] if e[2] >= 0 else None
                else:
                    while True:
                        li, d = sl[int(rand() * ns)]
                        k = int(rand() * v1)
                        lm = local[base + li]
                        e = memo[2 * li].get(lm) or entry(li, 0, lm)
                        if not d:
                            if k <= (len(e[1]) - 1 if ex else e[0]):
                                a = li << 4 | k
                                break
                        elif k:
                            b = entry(li, 1, lm)
                            if k <= (len(b[1]) - 1 if ex else b[0]) and (
                                k > (len(e[1]) - 1 if ex else e[0]) or b[1][k][0] != e[1][k][0]
                            ):
                                a = li << 4 | 8 | k
                                e = b
                                break
                    out = e[1][k] if k else None
                hist.append(a)
                i = base + li
                win[i] -= 1
                if not win[i]:
                    slots[p] = [x for x in sl if x[0] != li]
                wl = wleft[p] - 1
                wleft[p] = wl
                if not wl:
                    unfinished -= 1
                if out is None:
                    continue
                g, upd, _ = out
                marked[p] |= g
                if c == PLUS:
                    state._boxed[p] |= g
                    state._inter[p] = (*state._inter[p], t.intersections[e[2]])
            nw = 0
            for lj, b in upd:
                x = local[base + lj] | b
                local[base + lj] = x
                if x == full[lj]:
                    nw |= 1 << lj
            if nw:
                newly[p] |= nw
        state._round = rnd
        state._total = total
        state._unfinished = unfinished
        state._end_round()
        rnd = state._round
        total = state._total
        counts = state._counts
    return state


def seeded_playout(state: State, rngs: Sequence[Any]) -> State:
    """Play to the end with the seeded deck and a uniformly random legal action per decision.

    Exactly the game of the loop ``deal()`` at chance nodes and
    ``apply_legal(random_action(rngs[p].random))`` for seat ``p`` (the random bot
    with generator ``rngs[p]``), fused: the same deck as ``deal()``, the same rule
    table as ``legal_actions`` (``Tables.choices``) and the same outcomes as
    ``apply_action``; property tests check the three give identical games. Returns ``state``.
    """
    rands = [r.random for r in rngs]
    if state._game.special_stations:
        while state._cur != TERMINAL:
            if state._cur == CHANCE:
                state.deal()
            else:
                state.apply_legal(state.random_action(rands[state._cur]))
        return state
    while state._cur >= 0:
        state.apply_legal(state.random_action(rands[state._cur]))
    if state._cur == TERMINAL:
        return state
    if state._n == 1:
        return _solo_playout(state, rands[0])
    t = state._t
    L = t.n_lines
    S = t.n_stations
    fb = t.free_base
    all_mask = t.all_mask
    stop_masks = t.stop_masks
    move_memo = t.move_memo
    moves = t.moves
    slots = t.slots
    win = state._win
    marked = state._marked
    wleft = state._wleft
    boxed = state._boxed
    inter = state._inter
    hist = state._history
    n = state._n
    players = range(n)
    opens = [[li for li in range(L) if win[p * L + li]] for p in players]
    smix = state._smix
    counts = state._counts
    pile = [k for k, m in enumerate(counts) for _ in range(m)]
    unfinished = state._unfinished
    rnd0 = rnd = state._round
    # the sheets after each round: completions are found once, at the end
    snaps: list[list[int]] = [[] for _ in players]
    while unfinished:
        # deal(): the r-th card of the pile in kind order
        c = pile.pop(pick(smix, rnd, len(pile)))
        counts[c] -= 1
        hist.append(c)
        width = slots[c]
        table = move_memo[c]
        plus = c == PLUS
        for p in players:
            if not wleft[p]:
                continue
            rand = rands[p]
            u = rand()
            m = marked[p]
            if c == FREE:
                z = ~m & all_mask
                for _ in range(int(u * (z.bit_count() + 1))):
                    z &= z - 1
                if not z:
                    hist.append(fb + S)
                    continue
                low = z & -z
                hist.append(fb + low.bit_length() - 1)
                marked[p] = m | low
                continue
            ol = opens[p]
            span = len(ol) * width
            while True:
                j = int(u * span)
                li = ol[j // width]
                mv = (table[li].get(m & stop_masks[li]) or moves(li, m & stop_masks[li], c))[
                    j % width
                ]
                if mv:
                    break
                u = rand()
            a, g, num = mv
            hist.append(a)
            idx = p * L + li
            w = win[idx] - 1
            win[idx] = w
            if not w:
                ol.remove(li)
            wl = wleft[p] - 1
            wleft[p] = wl
            if not wl:
                unfinished -= 1
            if g:
                marked[p] = m | g
                if plus:
                    boxed[p] |= g
                    inter[p] = (*inter[p], num)
        rnd += 1
        for p in players:
            snaps[p].append(marked[p])
        if c == SIX or not unfinished:
            state._card = c
            state._total = len(pile)
            state._round = rnd - 1
            state._unfinished = unfinished
            state._end_round()
            if c == SIX:
                counts = state._counts
                pile = list(DECK)
    state._total = len(pile)
    state._round = rnd
    _settle(state, snaps, rnd0)
    return state


def _solo_playout(state: State, rand: Callable[[], float]) -> State:
    """``seeded_playout`` of a solo game from a chance node: the same loop, on locals."""
    t = state._t
    S = t.n_stations
    fb = t.free_base
    all_mask = t.all_mask
    stop_masks = t.stop_masks
    move_memo = t.move_memo
    moves = t.moves
    slots = t.slots
    win = state._win
    ol = [li for li in range(t.n_lines) if win[li]]
    nol = len(ol)
    app = state._history.append
    smix = state._smix
    counts = state._counts
    pile = list(DECK) if state._total == 14 else [k for k, m in enumerate(counts) for _ in range(m)]
    m = state._marked[0]
    bx = state._boxed[0]
    nums = list(state._inter[0])
    wl = state._wleft[0]
    rnd0 = rnd = state._round
    snaps: list[int] = []
    snap = snaps.append
    while wl:
        c = pile.pop(pick(smix, rnd, len(pile)))
        counts[c] -= 1
        app(c)
        u = rand()
        if c == FREE:
            z = ~m & all_mask
            for _ in range(int(u * (z.bit_count() + 1))):
                z &= z - 1
            if z:
                low = z & -z
                app(fb + low.bit_length() - 1)
                m |= low
            else:
                app(fb + S)
        else:
            width = slots[c]
            table = move_memo[c]
            span = nol * width
            while True:
                j = int(u * span)
                li = ol[j // width]
                mv = (table[li].get(m & stop_masks[li]) or moves(li, m & stop_masks[li], c))[
                    j % width
                ]
                if mv:
                    break
                u = rand()
            a, g, num = mv
            app(a)
            w = win[li] - 1
            win[li] = w
            if not w:
                ol.remove(li)
                nol -= 1
            wl -= 1
            if g:
                m |= g
                if c == PLUS:
                    bx |= g
                    nums.append(num)
        rnd += 1
        snap(m)
        if c == SIX:
            counts = list(DECK_COUNTS)
            pile = list(DECK)
    state._counts = counts
    state._total = len(pile)
    state._marked[0] = m
    state._boxed[0] = bx
    state._inter[0] = tuple(nums)
    state._wleft[0] = 0
    state._unfinished = 0
    state._card = -1
    state._round = rnd
    state._cur = TERMINAL
    _settle(state, [snaps], rnd0)
    return state


def _settle(state: State, snaps: list[list[int]], rnd0: int) -> None:
    """After a fused playout: the completions of its rounds and the line-local masks.

    ``snaps[p][i]`` is player ``p``'s sheet after round ``rnd0 + i + 1``. A line completed by
    someone in an earlier round than anyone else (and not taken before) earns
    ``first``, as in ``_end_round``.
    """
    t = state._t
    L = t.n_lines
    stop_masks = t.stop_masks
    local = state._local
    local_memo = t.local_memo
    local_of = t.local
    when = state._when
    n = state._n
    found: list[tuple[int, int, int]] = []
    best: dict[int, int] = {}
    for p in range(n):
        mp = state._marked[p]
        done = state._done[p]
        base = p * L
        sp = snaps[p]
        for li in range(L):
            sm = stop_masks[li]
            gm = mp & sm
            lm = local_memo[li].get(gm)
            local[base + li] = local_of(li, gm) if lm is None else lm
            if gm != sm or done >> li & 1:
                continue
            lo, hi = 0, len(sp) - 1
            while lo < hi:
                mid = (lo + hi) >> 1
                if sp[mid] & sm == sm:
                    hi = mid
                else:
                    lo = mid + 1
            r = rnd0 + lo + 1
            found.append((p, li, r))
            if r < best.get(li, r + 1):
                best[li] = r
    if not found:
        return
    taken = state._taken
    for p, li, r in found:
        bit = 1 << li
        state._done[p] |= bit
        when[p * L + li] = r
        if n == 1 or (r == best[li] and not taken & bit):
            state._firsts[p] |= bit
            state._lpts[p] += t.first[li]
        else:
            state._lpts[p] += t.others[li]
        state._taken |= bit


def _draw(state: State, rand: Any) -> None:
    counts = state._counts
    r = int(rand() * state._total)
    k = 0
    while r >= counts[k]:
        r -= counts[k]
        k += 1
    counts[k] -= 1
    state._total -= 1
    state._reveal(k)


def _random_action(state: State, rand: Any) -> int:
    acts = state.legal_actions()
    return acts[int(rand() * len(acts))]
