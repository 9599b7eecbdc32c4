"""The game kernel: the rules of the game once, and whole games of the kernel bots.

This module is the one place the rules live as code: the crosses a card allows
(:func:`most_crosses`), the dealer (:func:`mix`, :func:`nth_card`), a route's scan
(:func:`scan_route`), the legal moves of a line card, a move's marks, the completion race,
and the random, greedy and lookahead bots (the evaluation the clairvoyant bot uses too). What
an edition changes (the deck, the reshuffle card, the penalty) is data of a
:class:`~mapkit.rulesets.Ruleset`, read into ``Sheets`` as arrays; the ways a card travels a
line are the model's (``Line.routes``), and an action's layout is :mod:`mapkit.engine.actions`'.
The checked ``State`` calls the same functions; the differential harness
(``tests/test_kernel_agrees.py``) plays the same seeds through the checked engine and here and
requires identical games.

It is Cython in pure-Python mode: installing the package compiles this very file with Cython
and gcc into an extension module beside it (``hatch_build.py``), which Python imports
instead of the source. Uncompiled (``uncompiled()``), the same source runs as plain Python:
the fallback of the rules is never another copy of them. ``COMPILED`` tells which runs.
Uncompiled, an element of a numpy array is a numpy scalar, not a Python int: every function
Python code calls hands out Python ints, as the compiled module does (``int()`` at the
boundary; the map's flat tables are ``array.array``), and ``tests/test_kernel_uncompiled.py``
plays the same games through both.

Bot choices reproduce the Python bots exactly, including their ``random.Random`` streams
(MT19937, ``random()`` as CPython computes it) and the evaluation of ``bots/evaluate.py``.
Interface: :class:`Kernel` (``play_batch``, ``play_history``, ``play_turns``, ``sheet``).
"""

import array
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import cython

from mapkit.cards import CARD_EXPRESS, CARD_VALUE, FREE, N_KINDS, PLUS
from mapkit.engine.actions import CROSSES_MASK, LINE_SHIFT, MAX_ROUTES, ROUTE_MASK, ROUTE_SHIFT
from mapkit.engine.seats import SEAT_SEED_STRIDE

COMPILED: bool = cython.compiled
"""Is this the compiled extension module (``True``) or the source run as Python?"""

i64 = cython.typedef(cython.longlong)
u64 = cython.typedef(cython.ulonglong)
f64 = cython.typedef(cython.double)
V1 = cython.typedef(cython.longlong[:])
V2 = cython.typedef(cython.longlong[:, :])
V3 = cython.typedef(cython.longlong[:, :, :])
F1 = cython.typedef(cython.double[:])
B3 = cython.typedef(cython.schar[:, :, :])

RANDOM, GREEDY, LOOKAHEAD = 0, 1, 2
"""Bot codes of the kernel (``BOT_CODES`` maps the registry's names to them)."""
BOT_CODES = {"random": RANDOM, "greedy": GREEDY, "lookahead": LOOKAHEAD}
MAX_HISTORY = 4096

_FREE = cython.declare(i64, FREE)
_PLUS = cython.declare(i64, PLUS)
_N_KINDS = cython.declare(i64, N_KINDS)
# the action layout of mapkit.engine.actions, as C constants
_LSH = cython.declare(i64, LINE_SHIFT)
_RSH = cython.declare(i64, ROUTE_SHIFT)
_KMASK = cython.declare(i64, CROSSES_MASK)
_RMASK = cython.declare(i64, ROUTE_MASK)
_SEAT_STRIDE = cython.declare(i64, SEAT_SEED_STRIDE)
_RANDOM = cython.declare(i64, RANDOM)
_GREEDY = cython.declare(i64, GREEDY)
_LOOKAHEAD = cython.declare(i64, LOOKAHEAD)
_VALUE = cython.declare(V1, array.array("q", CARD_VALUE))
_EXPRESS = cython.declare(V1, array.array("q", [int(e) for e in CARD_EXPRESS]))

M32 = cython.declare(i64, 0xFFFFFFFF)
# MT19937's constants as C values (a literal above 2**31 would be a Python int in Cython)
_MT_UPPER = cython.declare(i64, 0x80000000)
_MT_MATRIX = cython.declare(i64, 0x9908B0DF)
_MT_TEMPER_B = cython.declare(i64, 0x9D2C5680)
_MT_TEMPER_C = cython.declare(i64, 0xEFC60000)
M64 = cython.declare(u64, (1 << 64) - 1)
_GOLDEN = cython.declare(u64, 0x9E3779B97F4A7C15)
_MIX1 = cython.declare(u64, 0xBF58476D1CE4E5B9)
_MIX2 = cython.declare(u64, 0x94D049BB133111EB)

Need = cython.struct(need=f64, empties=i64)
"""What a route still needs: ``need`` cards (the evaluation's estimate), ``empties`` stops."""
Scan = cython.struct(empties=i64, run=i64)
"""A route's empty stops: ``empties`` in all, ``run`` contiguous from the first one."""


def uncompiled() -> ModuleType:
    """This module's source run as plain Python (the fallback, and what the harness checks
    against the compiled module): a fresh module object, not the one ``import`` gives."""
    source = Path(__file__).with_name("kernel.py")
    spec = importlib.util.spec_from_file_location("mapkit.engine._kernel_source", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------ the rules
@cython.ccall
@cython.exceptval(check=False)
def most_crosses(card: i64, empties: i64, run: i64) -> i64:
    """The most crosses a number or express card allows on a line (rules-notes 1-3).

    ``empties``: empty stops left on the route; ``run``: the empty stops contiguous from the
    first one. An express card skips marked stops (any ``empties``), a number card stops at
    one (only the ``run``)."""
    reach: i64 = empties if _EXPRESS[card] else run
    v: i64 = _VALUE[card]
    return v if v < reach else reach


@cython.ccall
@cython.exceptval(check=False)
def nth_card(counts: V1, r: i64) -> i64:
    """The card kind of the ``r``-th card of a pile held as a count per kind (kind order)."""
    k: i64 = 0
    while r >= counts[k]:
        r -= counts[k]
        k += 1
    return k


@cython.ccall
@cython.exceptval(check=False)
def mix(x: u64) -> u64:
    """splitmix64's finaliser: the dealer's counter-based hash. The dealer draws the card of
    round ``r`` from the seed and ``r`` alone (:func:`pick`), not from a generator, so a state
    clones without copying generator state and a state rebuilt from a record deals the same
    future."""
    x = (x + _GOLDEN) & M64
    x = ((x ^ (x >> 30)) * _MIX1) & M64
    x = ((x ^ (x >> 27)) * _MIX2) & M64
    return x ^ (x >> 31)


def seed_key(seed: int) -> int:
    """The hash of a game's seed that :func:`pick` starts from (computed once per game)."""
    return mix(seed & ((1 << 64) - 1))


@cython.ccall
@cython.exceptval(check=False)
def pick(key: u64, rnd: i64, total: i64) -> i64:
    """Index (``0 <= i < total``) of the card round ``rnd`` reveals among the ``total`` cards
    left, from the seed's hash ``key``: the dealer depends on nothing else."""
    return cython.cast(i64, mix(key ^ cython.cast(u64, rnd)) % cython.cast(u64, total))


@cython.ccall
@cython.exceptval(check=False)
def race_firsts(players: i64, completed: i64, taken: i64) -> i64:
    """Rules-notes 8-9, the completion race: of the lines a player completed this round
    (``completed``, a bitmask of lines), those that score ``first``. Solo, all of them;
    otherwise those no player completed in an earlier round (``taken``). Everyone completing a
    line in the same round scores ``first``; the lines of this round join ``taken`` after the
    round's last decision."""
    return completed if players == 1 else completed & ~taken


@cython.ccall
@cython.exceptval(check=False)
def owed_extras(card: i64, pending: i64, earned: i64, windows_left: i64) -> i64:
    """Rules-notes 12-13 (special-station variant): a move that marks ``earned`` special
    stations owes that many extra decisions with the same card, first earned first served; a
    free ride earns none; extras are lost once the player has no empty window. Returns the
    extras still owed after the next decision, or -1: the player's turn is over."""
    owed: i64 = pending + (0 if card == _FREE else earned)
    return owed - 1 if owed and windows_left else -1


# ------------------------------------------------------------------ the map as arrays
@cython.cclass
class KernelMap:
    """One map as arrays (from ``Tables``): what the kernel's functions read."""

    nst: V1  # stops per line
    stops: V2  # [line, position] -> station
    route: V3  # [line, route, t] -> position of the t-th stop in route order
    rlen: V2  # [line, route] -> stops on the route (all of them, but a branching line's)
    nroutes: V1  # routes per line (``Line.routes``)
    branching: V1  # 1: a branching line (its routes are its scoring units)
    best: V1  # 1: a line pays its best completed unit only (``branch_scoring`` best)
    unit_base: V1  # [line] its first scoring unit (``CityMap.units``; unit = line on plain maps)
    unit_line: V1  # [unit] -> line
    unit_need: V1  # [unit] stops to mark
    unit_first: V1
    unit_others: V1
    uocc_start: V1  # CSR: the scoring units through each station
    uocc_unit: V1
    windows: V1
    first: V1
    others: V1
    count: V1  # interchange number of each station
    special: V1
    occ_start: V1  # CSR: the lines through each station
    occ_line: V1
    route_base: V1  # route index of (line, forward): the bots' ``ri``
    slots: V1  # sampling slots per card kind (``Tables.slots``)
    mt_init: V1  # MT19937's init_genrand(19650218), where every seeding starts
    n_lines = cython.declare(i64, visibility="readonly")
    n_units = cython.declare(i64, visibility="readonly")
    n_stations = cython.declare(i64, visibility="readonly")
    max_stops = cython.declare(i64, visibility="readonly")
    all_cond: i64  # the all-lines bonus: 0 none, 1 every line has a cross, 2 every line complete
    all_first: i64
    all_others: i64

    def __init__(self, arrays: dict[str, Any]) -> None:
        self.all_cond, self.all_first, self.all_others = arrays["all_lines"]
        self.nst = arrays["nst"]
        self.stops = arrays["stops"]
        self.route = arrays["route"]
        self.rlen = arrays["rlen"]
        self.nroutes = arrays["nroutes"]
        self.branching = arrays["branching"]
        self.best = arrays["best"]
        self.unit_base = arrays["unit_base"]
        self.unit_line = arrays["unit_line"]
        self.unit_need = arrays["unit_need"]
        self.unit_first = arrays["unit_first"]
        self.unit_others = arrays["unit_others"]
        self.uocc_start = arrays["uocc_start"]
        self.uocc_unit = arrays["uocc_unit"]
        self.windows = arrays["windows"]
        self.first = arrays["first"]
        self.others = arrays["others"]
        self.count = arrays["count"]
        self.special = arrays["special"]
        self.occ_start = arrays["occ_start"]
        self.occ_line = arrays["occ_line"]
        self.route_base = arrays["route_base"]
        self.slots = arrays["slots"]
        self.mt_init = arrays["mt_init"]
        self.n_lines = len(arrays["nst"])
        self.n_units = len(arrays["unit_line"])
        self.n_stations = len(arrays["count"])
        self.max_stops = arrays["stops"].shape[1]


@cython.ccall
@cython.exceptval(check=False)
def completion_points(km: KernelMap, completed: i64, firsts: i64, paid: V1) -> i64:
    """The points the scoring units in ``completed`` (bitmasks of units) add: ``first`` for
    those in ``firsts``, ``others`` for the rest; a line that pays its best unit only
    (rules-notes 23) adds what beats what it paid before. ``paid``: [line] what each line
    has paid the player so far, updated."""
    pts: i64 = 0
    u: i64
    li: i64
    v: i64
    for u in range(km.n_units):
        if completed >> u & 1:
            v = km.unit_first[u] if firsts >> u & 1 else km.unit_others[u]
            li = km.unit_line[u]
            if km.best[li]:
                if v > paid[li]:
                    pts += v - paid[li]
                    paid[li] = v
            else:
                pts += v
                paid[li] += v
    return pts


@cython.ccall
@cython.exceptval(check=False)
def lines_of(km: KernelMap, units: i64) -> i64:
    """The lines (a bitmask) with a scoring unit in ``units`` (a bitmask of units)."""
    out: i64 = 0
    u: i64
    for u in range(km.n_units):
        if units >> u & 1:
            out |= cython.cast(i64, 1) << km.unit_line[u]
    return out


def kernel_map(t: Any) -> KernelMap:
    """The map of a ``Tables`` (``t``) as the kernel reads it."""
    import numpy as np

    L, S = t.n_lines, t.n_stations
    maxn = max(len(st) for st in t.stops)
    stops = np.zeros((L, maxn), np.int64)
    wide = max(len(r) for r in t.routes)  # routes of the line that has most
    route = np.zeros((L, wide, maxn), np.int64)
    rlen = np.zeros((L, wide), np.int64)
    occ: list[list[int]] = [[] for _ in range(S)]
    uocc: list[list[int]] = [[] for _ in range(S)]
    for li, st in enumerate(t.stops):
        stops[li, : len(st)] = st
        for r, order in enumerate(t.routes[li]):
            route[li, r, : len(order)] = order
            rlen[li, r] = len(order)
        for s in st:
            occ[s].append(li)
    for u, unit in enumerate(t.units):
        for j in unit.positions:
            uocc[t.stops[unit.line][j]].append(u)
    start = [0] * (S + 1)
    ustart = [0] * (S + 1)
    for s in range(S):
        start[s + 1] = start[s] + len(occ[s])
        ustart[s + 1] = ustart[s] + len(uocc[s])
    base = [0] * L
    ri = 0
    for li in range(L):
        base[li] = ri
        ri += len(t.routes[li])

    def ints(values: Any) -> Any:
        # array.array, not numpy: run uncompiled, indexing it gives Python ints, as compiled
        return array.array("q", values)

    return KernelMap(
        {
            "nst": ints([len(st) for st in t.stops]),
            "stops": stops,
            "route": route,
            "rlen": rlen,
            "nroutes": ints([len(r) for r in t.routes]),
            "branching": ints([int(bool(ln.branches)) for ln in t.city.lines]),
            "best": ints([int(ln.branch_scoring == "best") for ln in t.city.lines]),
            "unit_base": ints(t.unit_base),
            "unit_line": ints([u.line for u in t.units]),
            "unit_need": ints([len(u.positions) for u in t.units]),
            "unit_first": ints([u.first for u in t.units]),
            "unit_others": ints([u.others for u in t.units]),
            "uocc_start": ints(ustart),
            "uocc_unit": ints([u for o in uocc for u in o] or [0]),
            "windows": ints(t.windows),
            "first": ints(t.first),
            "others": ints(t.others),
            "count": ints(t.intersections),
            "special": ints(t.special),
            "occ_start": ints(start),
            "occ_line": ints([li for o in occ for li in o] or [0]),
            "route_base": ints(base),
            "slots": ints(t.slots),
            "mt_init": ints(_init_genrand(19650218)),
            "all_lines": t.all_lines,
        }
    )


@cython.cclass
class BotParams:
    """The greedy evaluation's weights as tables, so the kernel's floats equal Python's."""

    need: F1  # need[seg] = ceil(seg / card) as the evaluator computes it (float)
    beta_pow: F1  # beta ** need for every integral need
    over: f64
    card: f64
    cap: f64
    noise: f64
    extra: f64
    width: i64
    discount: f64

    def __init__(
        self, need: Any, beta_pow: Any, over: float, card: float, cap: float, noise: float,
        extra: float, width: int, discount: float,
    ) -> None:  # fmt: skip
        self.need = need
        self.beta_pow = beta_pow
        self.over = over
        self.card = card
        self.cap = cap
        self.noise = noise
        self.extra = extra
        self.width = width
        self.discount = discount


def bot_params(weights: Any, noise: float, extra: float, width: int, discount: float) -> BotParams:
    """The evaluator's float arithmetic (``Evaluator._line_value``) as tables, from Python."""
    import numpy as np

    need = np.array([float(-(-seg // weights.card)) for seg in range(129)])
    pow_ = np.array([weights.beta ** float(k) for k in range(129)])
    return BotParams(
        need, pow_, weights.over, weights.card, weights.cap, noise, extra, width, discount
    )


# ------------------------------------------------------------------ random streams
def _init_genrand(s: int) -> list[int]:
    """MT19937's ``init_genrand(s)``: the start of every ``init_by_array`` (always 19650218)."""
    mt = [s]
    for i in range(1, 624):
        mt.append((1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF)
    return mt


@cython.cfunc
@cython.exceptval(check=False)
def _mt_seed(mt: V1, seed: i64, seat: i64, init: V1) -> cython.void:
    """``random.Random(seats.seat_seed(seed, seat))`` (``init_by_array`` of its 32-bit words,
    from ``init``: ``init_genrand(19650218)``, the same for every seed); ``mt[624]`` is the
    index."""
    w0: i64 = (seed & M32) * _SEAT_STRIDE + seat
    w1: i64 = (seed >> 32) * _SEAT_STRIDE + (w0 >> 32)
    key0: i64 = w0 & M32
    key1: i64 = w1 & M32
    key2: i64 = w1 >> 32
    klen: i64 = 3 if key2 else (2 if key1 else 1)
    i: i64
    for i in range(624):
        mt[i] = init[i]
    i = 1
    j: i64 = 0
    kj: i64
    _n: i64
    for _n in range(624):
        kj = key0 if j == 0 else (key1 if j == 1 else key2)
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + kj + j) & M32
        i += 1
        j += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        if j >= klen:
            j = 0
    for _n in range(623):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & M32
        i += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
    mt[0] = _MT_UPPER
    mt[624] = 624


@cython.cfunc
@cython.exceptval(check=False)
def _mt_next(mt: V1) -> i64:
    """The next 32-bit output. MT19937's twist, one word at a time as it is drawn: the twist
    updates ``mt`` in place in index order, word ``k`` reading only words ``> k`` (not yet
    updated) and ``< k`` (updated), so twisting word ``k`` just before it is read gives the
    very words of the whole twist, without computing the 624 words a short game never reads."""
    kk: i64 = mt[624]
    if kk >= 624:
        kk = 0
    y: i64 = (mt[kk] & _MT_UPPER) | ((mt[kk + 1] if kk < 623 else mt[0]) & 0x7FFFFFFF)
    v: i64 = mt[kk + 397 if kk < 227 else kk - 227] ^ (y >> 1)
    y = v ^ _MT_MATRIX if y & 1 else v
    mt[kk] = y
    mt[624] = kk + 1
    y ^= y >> 11
    y ^= (y << 7) & _MT_TEMPER_B
    y ^= (y << 15) & _MT_TEMPER_C
    y ^= y >> 18
    return y


@cython.cfunc
@cython.exceptval(check=False)
def _rand(mt: V1) -> f64:
    """``random.Random.random()``: 53 bits from two 32-bit outputs, as CPython builds it."""
    a: i64 = _mt_next(mt) >> 5
    b: i64 = _mt_next(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


# ------------------------------------------------------------------ a route and its moves
@cython.cfunc
@cython.exceptval(check=False)
def scan_route(km: KernelMap, mk: V1, li: i64, d: i64, buf: V1) -> Scan:
    """Empty stops of line ``li`` along its route ``d`` (``Line.routes``: 0 from the wagon)
    into ``buf`` (positions). A number card may mark the first ``k <= run``, an express card
    the first ``k <= empties`` (marked stops skipped). ``mk``: 1 = marked."""
    ne: i64 = 0
    run: i64 = 0
    open_run: cython.bint = True
    t: i64
    j: i64
    for t in range(km.rlen[li, d]):
        j = km.route[li, d, t]
        if mk[km.stops[li, j]] == 0:
            buf[ne] = j
            ne += 1
            if open_run:
                run += 1
        elif ne:
            open_run = False
    return Scan(empties=ne, run=run)


@cython.cclass
class Scratch:
    """Work arrays of one decision (allocated once per kernel)."""

    bf: V1  # route scans: route 0's, the route being listed, an earlier one to compare
    bb: V1
    bo: V1
    keep: V1  # [crosses] is the listed route's move still unlike every earlier route's
    rank: V1
    ch: V1
    marks: V1
    aff: V1
    seen: V1
    base: F1
    isfull: V1
    lost: V1
    allf: F1  # [line] its chance of meeting the all-lines bonus's condition (_all_lines_factor)
    base2: F1
    isfull2: V1
    allf2: F1
    cd: F1  # candidates: gain, line (-1: free ride), route, crosses, station
    cl: V1
    cdr: V1
    ck: V1
    cs: V1
    order: V1
    top_cd: F1  # the lookahead's best candidates
    top_cl: V1
    top_cdr: V1
    top_ck: V1
    top_cs: V1
    top_marks: V1

    def __init__(self, km: KernelMap) -> None:
        import numpy as np

        L, S, maxn = km.n_lines, km.n_stations, km.max_stops
        C = S + MAX_ROUTES * L + 2

        def z(n: int) -> Any:
            return np.zeros(n, np.int64)

        self.bf, self.bb, self.bo = z(maxn + 1), z(maxn + 1), z(maxn + 1)
        self.keep, self.rank = z(CROSSES_MASK + 1), np.full(maxn + 1, -1, np.int64)
        self.ch, self.marks, self.aff, self.seen = (
            z(MAX_ROUTES * (CROSSES_MASK + 1) + 2),
            z(maxn + 1),
            z(L),
            z(S),
        )
        self.base, self.isfull, self.lost, self.allf = np.zeros(L), z(L), z(L), np.zeros(L)
        self.base2, self.isfull2, self.allf2 = np.zeros(L), z(L), np.zeros(L)
        self.cd, self.cl, self.cdr, self.ck, self.cs = np.zeros(C), z(C), z(C), z(C), z(C)
        self.order = z(C)
        self.top_cd, self.top_cl, self.top_cdr = np.zeros(C), z(C), z(C)
        self.top_ck, self.top_cs, self.top_marks = z(C), z(C), z(maxn + 1)


@cython.cfunc
@cython.exceptval(check=False)
def _same_prefix(bf: V1, bb: V1, k: i64, rank: V1) -> cython.bint:
    """Do the first ``k`` empties of two routes (scanned into ``bf`` and ``bb``) mark the
    same stops?"""
    i: i64
    r: i64
    for i in range(k):
        rank[bf[i]] = i
    top: i64 = -1
    for i in range(k):
        r = rank[bb[i]]
        if r < 0 or r > top:
            top = r if r >= 0 else 1 << 30
    for i in range(k):
        rank[bf[i]] = -1
    return top < k


@cython.cfunc
@cython.exceptval(check=False)
def _entry_differs(b: Scan, o: Scan, bb: V1, bo: V1) -> cython.bint:
    """Does an interchange on the route scanned into ``bb`` (``b``) box another stop than on
    the route scanned into ``bo`` (``o``)? No empty stop: it boxes none."""
    if b.empties == 0 or o.empties == 0:
        return (b.empties == 0) != (o.empties == 0)
    return bb[0] != bo[0]


@cython.cfunc
@cython.exceptval(check=False)
def _choices(km: KernelMap, mk: V1, li: i64, card: i64, sc: Scratch) -> i64:
    """The legal ``actions.choice(route, crosses)`` of a line card (``Tables.choices`` asks),
    in ``legal_actions`` order, into ``sc.ch``; returns how many. Route 0's moves, then each
    further route's that mark other stops than every earlier route's move with as many
    crosses (one that marks the same is listed once, as the earliest route's)."""
    f: Scan = scan_route(km, mk, li, 0, sc.bf)
    b: Scan
    o: Scan
    d: i64
    r: i64
    k: i64
    n: i64 = 1
    nr: i64 = km.nroutes[li]
    sc.ch[0] = 0
    if card == _PLUS:
        for d in range(1, nr):
            b = scan_route(km, mk, li, d, sc.bb)
            if not _entry_differs(b, f, sc.bb, sc.bf):
                continue
            for r in range(1, d):
                o = scan_route(km, mk, li, r, sc.bo)
                if not _entry_differs(b, o, sc.bb, sc.bo):
                    break
            else:
                sc.ch[n] = d << _RSH
                n += 1
        return n
    m: i64 = most_crosses(card, f.empties, f.run)
    for k in range(1, m + 1):
        sc.ch[k] = k
    n = m + 1
    mb: i64
    mo: i64
    for d in range(1, nr):
        b = scan_route(km, mk, li, d, sc.bb)
        mb = most_crosses(card, b.empties, b.run)
        for k in range(1, mb + 1):
            sc.keep[k] = k > m or not _same_prefix(sc.bf, sc.bb, k, sc.rank)
        for r in range(1, d):
            o = scan_route(km, mk, li, r, sc.bo)
            mo = most_crosses(card, o.empties, o.run)
            for k in range(1, mb + 1):
                if sc.keep[k] and k <= mo and _same_prefix(sc.bo, sc.bb, k, sc.rank):
                    sc.keep[k] = 0
        for k in range(1, mb + 1):
            if sc.keep[k]:
                sc.ch[n] = d << _RSH | k
                n += 1
    return n


@cython.cfunc
@cython.exceptval(check=False)
def _canonical(km: KernelMap, mk: V1, li: i64, d: i64, k: i64, card: i64, sc: Scratch) -> i64:
    """A later route's move that marks what an earlier route's marks is the earliest such
    (``State.canonical``): what :func:`_choices` lists."""
    if not d or (k == 0 and card != _PLUS):
        return li << _LSH | k
    b: Scan = scan_route(km, mk, li, d, sc.bb)
    o: Scan
    r: i64
    for r in range(d):
        o = scan_route(km, mk, li, r, sc.bo)
        if card == _PLUS:
            if not _entry_differs(b, o, sc.bb, sc.bo):
                return li << _LSH | r << _RSH
        elif k <= most_crosses(card, o.empties, o.run) and _same_prefix(sc.bo, sc.bb, k, sc.rank):
            return li << _LSH | r << _RSH | k
    return li << _LSH | d << _RSH | k


def station_marks(km: KernelMap) -> Any:
    """A zeroed station array (1 = marked) as the rule functions read a sheet."""
    import numpy as np

    return np.zeros(km.n_stations, np.int64)


class RouteScan(NamedTuple):
    """A line's route as a card finds it (rules-notes 1-3 and 7)."""

    empties: tuple[int, ...]
    """Positions of the empty stops in route order: a card enters at the first; an express
    card marks the first ``k`` (marked stops skipped)."""
    run: int
    """How many of them are contiguous from the first: a number card marks ``k <= run``."""


def route_scan(km: KernelMap, mk: V1, li: int, d: int, sc: Scratch) -> RouteScan:
    """:func:`scan_route` for Python callers (the checked engine's tables)."""
    f: Scan = scan_route(km, mk, li, d, sc.bf)
    return RouteScan(tuple([int(sc.bf[i]) for i in range(f.empties)]), int(f.run))


def line_choices(km: KernelMap, mk: V1, li: int, card: int, sc: Scratch) -> tuple[int, ...]:
    """The legal ``actions.choice(route, crosses)`` of a line card on line ``li`` (given a
    window), in the order ``State.legal_actions`` lists them: route 0 with 0..most crosses,
    then each further route's moves that mark other stops than every earlier route's with as
    many crosses."""
    n: i64 = _choices(km, mk, li, card, sc)
    return tuple([int(sc.ch[i]) for i in range(n)])


def canonical_move(km: KernelMap, mk: V1, li: int, d: int, k: int, card: int, sc: Scratch) -> int:
    """A legal line move as listed: a later route's move that marks what an earlier route's
    move with as many crosses marks is the earliest such (``actions.line_move``)."""
    return int(_canonical(km, mk, li, d, k, card, sc))


# ------------------------------------------------------------------ the sheets
@cython.cclass
class Sheets:
    """Every player's sheet and the shared deck, reset per game (``_reset``)."""

    mk = cython.declare(V2, visibility="readonly")  # [player, station] 1 = marked
    boxed = cython.declare(V2, visibility="readonly")  # [player, station]
    lpts = cython.declare(V1, visibility="readonly")  # [player] line points
    umark: V2  # [player, scoring unit] stops marked
    paid: V2  # [player, line] what the line's completed units have paid
    win: V2  # [player, line] windows left
    wleft: V1  # [player]
    inter: V1  # [player] sum of interchange numbers
    newly: V1  # [player] scoring units completed this round (bitmask: model.MAX_UNITS)
    done: V1  # [player] scoring units completed (bitmask)
    firsts: V2  # [player, unit]
    when: V2  # [player, unit] round of completion (1-based), 0 if none
    taken: i64  # scoring units some player completed in an earlier round (bitmask)
    bonus = cython.declare(V1, visibility="readonly")  # [player] all-lines points, -1: not met
    bonus_taken: i64  # someone met the all-lines bonus in an earlier round
    counts: V1  # [card kind] the draw pile
    total: i64  # cards in the pile
    rnd: i64  # rounds completed
    unfinished: i64  # players with an empty window
    players: i64
    deck: V1  # [card kind] a full pile (the ruleset's)
    deck_size: i64
    reshuffle: i64  # the card kind after whose round the pile is full again
    pen: V1  # [empty stations] the penalty at this player count (the ruleset's, as a table)
    weight: f64  # the bots' weight of an empty station (``Ruleset.empty_weight``)

    def __init__(self, km: KernelMap, n: int, ruleset: Any) -> None:
        import numpy as np

        S, L, U = km.n_stations, km.n_lines, km.n_units

        def z(*shape: int) -> Any:
            return np.zeros(shape, np.int64)

        self.mk, self.boxed, self.lpts = z(n, S), z(n, S), z(n)
        self.umark, self.paid = z(n, U), z(n, L)
        self.win, self.wleft, self.inter = z(n, L), z(n), z(n)
        self.newly, self.done, self.firsts, self.when = z(n), z(n), z(n, U), z(n, U)
        self.counts = z(N_KINDS)
        self.players = n
        self.total = self.rnd = self.unfinished = self.taken = self.bonus_taken = 0
        self.bonus = z(n)
        self.deck = np.array(ruleset.counts, np.int64)
        self.deck_size = ruleset.deck_size
        self.reshuffle = ruleset.reshuffle
        self.pen = np.array([ruleset.penalty(e, n) for e in range(S + 1)], np.int64)
        self.weight = ruleset.empty_weight(n)


@cython.cfunc
@cython.exceptval(check=False)
def _reset(km: KernelMap, sh: Sheets) -> cython.void:
    p: i64
    li: i64
    s: i64
    tot: i64 = 0
    for p in range(sh.players):
        for s in range(km.n_stations):
            sh.mk[p, s] = 0
            sh.boxed[p, s] = 0
        tot = 0
        for li in range(km.n_lines):
            sh.paid[p, li] = 0
            sh.win[p, li] = km.windows[li]
            tot += km.windows[li]
        for li in range(km.n_units):
            sh.umark[p, li] = 0
            sh.firsts[p, li] = 0
            sh.when[p, li] = 0
        sh.wleft[p] = tot
        sh.newly[p] = 0
        sh.done[p] = 0
        sh.inter[p] = 0
        sh.lpts[p] = 0
        sh.bonus[p] = -1
    sh.taken = 0
    sh.bonus_taken = 0
    for s in range(_N_KINDS):
        sh.counts[s] = sh.deck[s]
    sh.total = sh.deck_size
    sh.rnd = 0
    sh.unfinished = sh.players if tot else 0


@cython.cfunc
@cython.exceptval(check=False)
def _mark(km: KernelMap, sh: Sheets, p: i64, s: i64) -> i64:
    """Mark station ``s`` on seat ``p``'s sheet; returns 1 if it is special."""
    o: i64
    u: i64
    sh.mk[p, s] = 1
    for o in range(km.uocc_start[s], km.uocc_start[s + 1]):
        u = km.uocc_unit[o]
        sh.umark[p, u] += 1
        if sh.umark[p, u] == km.unit_need[u]:
            sh.newly[p] |= cython.cast(i64, 1) << u
    return km.special[s]


@cython.cfunc
@cython.exceptval(check=False)
def _play_line(
    km: KernelMap, sh: Sheets, p: i64, card: i64, li: i64, d: i64, k: i64, buf: V1
) -> i64:
    """Play ``card`` on line ``li`` along its route ``d`` with ``k`` crosses (legal) on seat
    ``p``'s sheet; returns the special stations marked (extra actions earned)."""
    sh.win[p, li] -= 1
    sh.wleft[p] -= 1
    if sh.wleft[p] == 0:
        sh.unfinished -= 1
    f: Scan = scan_route(km, sh.mk[p], li, d, buf)
    nsp: i64 = 0
    s: i64
    i: i64
    if card == _PLUS:
        if f.empties:
            s = km.stops[li, buf[0]]
            nsp += _mark(km, sh, p, s)
            sh.boxed[p, s] = 1
            sh.inter[p] += km.count[s]
        return nsp
    for i in range(k):
        nsp += _mark(km, sh, p, km.stops[li, buf[i]])
    return nsp


@cython.cfunc
@cython.exceptval(check=False)
def _deal(sh: Sheets, key: u64) -> i64:
    """The seeded card of this round among the cards left (as ``State.deal`` draws it)."""
    k: i64 = nth_card(sh.counts, pick(key, sh.rnd, sh.total))
    sh.counts[k] -= 1
    sh.total -= 1
    return k


@cython.cfunc
@cython.exceptval(check=False)
def _end_round(km: KernelMap, sh: Sheets, card: i64) -> cython.void:
    """After the round's last decision: the completion race (:func:`race_firsts`), the
    reshuffle after the ruleset's reshuffle card (the 6), the next round."""
    rnd: i64 = sh.rnd + 1
    now: i64 = 0
    li: i64
    p: i64
    completed: i64
    firsts: i64
    for p in range(sh.players):
        completed = sh.newly[p]
        if not completed:
            continue
        now |= completed
        firsts = race_firsts(sh.players, completed, sh.taken)
        sh.lpts[p] += completion_points(km, completed, firsts, sh.paid[p])
        sh.done[p] |= completed
        sh.newly[p] = 0
        for li in range(km.n_units):
            if completed >> li & 1:
                sh.when[p, li] = rnd
                sh.firsts[p, li] = firsts >> li & 1
    sh.taken |= now
    if km.all_cond:
        _all_lines_race(km, sh)
    if card == sh.reshuffle:
        for p in range(_N_KINDS):
            sh.counts[p] = sh.deck[p]
        sh.total = sh.deck_size
    sh.rnd = rnd


@cython.ccall
@cython.exceptval(check=False)
def all_lines_met(cond: i64, n_lines: i64, done: i64, marked_lines: i64) -> cython.bint:
    """Rules-notes 22: is the all-lines bonus's condition met? ``cond`` 1: every line has a
    cross (``marked_lines``: a bitmask of the lines with at least one marked stop); 2: every
    line is complete (``done``: the lines with a completed scoring unit, :func:`lines_of`)."""
    full: i64 = (cython.cast(i64, 1) << n_lines) - 1
    return (marked_lines if cond == 1 else done) == full


@cython.cfunc
@cython.exceptval(check=False)
def _all_lines_race(km: KernelMap, sh: Sheets) -> cython.void:
    """After the round's line completions: the players who now meet the all-lines bonus's
    condition score it, ``first`` unless someone met it in an earlier round (solo: always)."""
    now: i64 = 0
    p: i64
    u: i64
    lines: i64
    for p in range(sh.players):
        if sh.bonus[p] >= 0:
            continue
        lines = 0
        for u in range(km.n_units):
            if sh.umark[p, u]:
                lines |= cython.cast(i64, 1) << km.unit_line[u]
        if all_lines_met(km.all_cond, km.n_lines, lines_of(km, sh.done[p]), lines):
            now = 1
            sh.bonus[p] = (
                km.all_first if race_firsts(sh.players, 1, sh.bonus_taken) else km.all_others
            )
            sh.lpts[p] += sh.bonus[p]
    sh.bonus_taken |= now


# ------------------------------------------------------------------ the bots
@cython.cfunc
@cython.exceptval(check=False)
def _random_move(km: KernelMap, mk: V1, win: V1, card: i64, mt: V1, sc: Scratch) -> i64:
    """``State.random_action``: (open line, slot) pairs drawn until a slot is a listed move.
    A free ride returns the station (``n_stations``: none)."""
    S: i64 = km.n_stations
    s: i64
    e: i64 = 0
    skip: i64
    if card == _FREE:
        for s in range(S):
            if not mk[s]:
                e += 1
        skip = cython.cast(i64, _rand(mt) * (e + 1))
        for s in range(S):
            if not mk[s]:
                if skip == 0:
                    return s
                skip -= 1
        return S
    L: i64 = km.n_lines
    nol: i64 = 0
    li: i64
    x: i64
    for li in range(L):
        if win[li]:
            nol += 1
    width: i64 = km.slots[card]
    span: i64 = nol * width
    j: i64
    q: i64
    n: i64
    while True:
        j = cython.cast(i64, _rand(mt) * span)
        q = j // width
        li = 0
        for x in range(L):
            if win[x]:
                if q == 0:
                    li = x
                    break
                q -= 1
        n = _choices(km, mk, li, card, sc)
        j %= width
        if j < n:
            return li << _LSH | sc.ch[j]


@cython.cfunc
@cython.exceptval(check=False)
def _line_value(km: KernelMap, bp: BotParams, mk: V1, li: i64, windows: i64, lost: i64) -> f64:
    """A line's value: bonus · P(complete) + worth of the windows left (``bots/evaluate.py``);
    the bonus is ``others`` when another player has taken its ``first`` (``lost``)."""
    if km.branching[li]:
        return _branching_value(km, bp, mk, li, windows, lost)
    bonus: i64 = km.others[li] if lost else km.first[li]
    best: f64 = -1.0
    r: Need = Need(need=0.0, empties=0)
    d: i64
    for d in range(km.nroutes[li]):
        r = _route_need(km, bp, mk, li, d)
        if best < 0 or r.need < best:
            best = r.need
    if r.empties == 0:
        return cython.cast(f64, bonus)
    w: f64 = windows * bp.card
    return bonus * _chance(bp, best, windows) + bp.cap * (w if w < r.empties else r.empties)


@cython.cfunc
@cython.exceptval(check=False)
def _route_need(km: KernelMap, bp: BotParams, mk: V1, li: i64, d: i64) -> Need:
    """The cards route ``d`` of line ``li`` still needs (each empty stretch between marked
    stops its own, ``bp.need``) and its empty stops."""
    need: f64 = 0.0
    seg: i64 = 0
    e: i64 = 0
    t: i64
    for t in range(km.rlen[li, d]):
        if mk[km.stops[li, km.route[li, d, t]]]:
            if seg:
                need += bp.need[seg]
                seg = 0
        else:
            seg += 1
            e += 1
    if seg:
        need += bp.need[seg]
    return Need(need=need, empties=e)


@cython.cfunc
@cython.exceptval(check=False)
def _chance(bp: BotParams, need: f64, windows: i64) -> f64:
    """P(complete) of a route that needs ``need`` cards with ``windows`` windows left."""
    p: f64 = bp.beta_pow[cython.cast(i64, need)]
    if need > windows:
        p *= bp.over
    return p


@cython.cfunc
@cython.exceptval(check=False)
def _branching_value(km: KernelMap, bp: BotParams, mk: V1, li: i64, windows: i64, lost: i64) -> f64:
    """A branching line's value: per branch (scoring unit) its bonus · P(trunk and branch
    complete), the best of them (``best`` scoring) or their sum (``each``), plus the worth of
    the windows left over the line's empty stops."""
    acc: f64 = 0.0
    v: f64
    r: Need
    u: i64
    d: i64
    t: i64
    for d in range(km.nroutes[li]):
        u = km.unit_base[li] + d
        r = _route_need(km, bp, mk, li, d)
        v = cython.cast(f64, km.unit_others[u] if lost else km.unit_first[u])
        if r.empties:
            v *= _chance(bp, r.need, windows)
        if km.best[li]:
            if v > acc:
                acc = v
        else:
            acc += v
    empties: i64 = 0
    for t in range(km.nst[li]):
        if not mk[km.stops[li, t]]:
            empties += 1
    if empties == 0:
        return acc
    w: f64 = windows * bp.card
    return acc + bp.cap * (w if w < empties else empties)


@cython.cfunc
@cython.exceptval(check=False)
def _all_lines_factor(km: KernelMap, bp: BotParams, mk: V1, li: i64, windows: i64) -> f64:
    """Line ``li``'s chance of meeting the all-lines bonus's condition (rules-notes 22) as the
    bots see it: 1 once it has a cross (``every_line_has_cross``) or is complete, by any route
    (``every_line_completed``); else the chance that one of its windows left brings a cross,
    each as likely as a card that one stretch needs (:func:`_chance`), or the chance of the
    cards its likeliest route needs."""
    t: i64
    d: i64
    if km.all_cond == 1:
        for t in range(km.nst[li]):
            if mk[km.stops[li, t]]:
                return 1.0
        q: f64 = 1.0 - _chance(bp, 1.0, windows)
        miss: f64 = q
        _w: i64
        for _w in range(1, windows):
            miss *= q
        return 1.0 - miss
    best: f64 = 0.0
    p: f64
    r: Need
    for d in range(km.nroutes[li]):
        r = _route_need(km, bp, mk, li, d)
        if r.empties == 0:
            return 1.0
        p = _chance(bp, r.need, windows)
        if p > best:
            best = p
    return best


@cython.cfunc
@cython.exceptval(check=False)
def _all_lines_change(
    km: KernelMap, bp: BotParams, mk: V1, win: V1, li: i64, aff: V1, isfull: V1, allf: F1
) -> f64:
    """The change of the chance of meeting the all-lines bonus's condition (the product of
    every line's :func:`_all_lines_factor`) by a move that touches the lines in ``aff`` and
    fills a window of ``li`` (-1: none); ``allf``: the factors before it."""
    before: f64 = 1.0
    after: f64 = 1.0
    lj: i64
    for lj in range(km.n_lines):
        before *= allf[lj]
        if aff[lj] and not isfull[lj]:
            after *= _all_lines_factor(km, bp, mk, lj, win[lj] - (1 if lj == li else 0))
        else:
            after *= allf[lj]
    return after - before


@cython.cfunc
@cython.exceptval(check=False)
def _gain(
    km: KernelMap, bp: BotParams, mk: V1, win: V1, li: i64, marks: V1, nm: i64, bonus: f64,
    pw: f64, base: F1, isfull: V1, lost: V1, aff: V1, allb: f64, allf: F1,
) -> f64:  # fmt: skip
    """The evaluation's change by a move whose ``marks[:nm]`` are set in ``mk`` and that fills
    a window of line ``li`` (-1: none): only the lines it touches are re-valued; with the
    all-lines bonus open (``allb`` points), plus ``allb`` times the change of the chance of
    meeting its condition."""
    d: f64 = pw * nm + bonus
    i: i64
    o: i64
    lj: i64
    s: i64
    for i in range(nm):
        s = marks[i]
        for o in range(km.occ_start[s], km.occ_start[s + 1]):
            aff[km.occ_line[o]] = 1
    if li >= 0:
        aff[li] = 1
    if allb > 0.0:
        d += allb * _all_lines_change(km, bp, mk, win, li, aff, isfull, allf)
    for lj in range(km.n_lines):
        if not aff[lj]:
            continue
        aff[lj] = 0
        if isfull[lj]:
            continue
        d += (
            _line_value(km, bp, mk, lj, win[lj] - (1 if lj == li else 0), lost[lj])
            - base[lj]
        )  # fmt: skip
    return d


@cython.cfunc
@cython.exceptval(check=False)
def _bases(
    km: KernelMap, bp: BotParams, mk: V1, win: V1, lost: V1, base: F1, isfull: V1, allb: f64,
    allf: F1,
) -> cython.void:  # fmt: skip
    """Every line's value before a move (``isfull``: completed, no value) and, with the
    all-lines bonus open (``allb`` points), its :func:`_all_lines_factor` into ``allf``."""
    li: i64
    j: i64
    full: cython.bint
    for li in range(km.n_lines):
        full = True
        for j in range(km.nst[li]):
            if not mk[km.stops[li, j]]:
                full = False
                break
        isfull[li] = full
        if allb > 0.0:
            allf[li] = 1.0 if full else _all_lines_factor(km, bp, mk, li, win[li])
        if full:
            base[li] = 0.0
            continue
        base[li] = _line_value(km, bp, mk, li, win[li], lost[li])


@cython.cfunc
@cython.exceptval(check=False)
def _candidate(sc: Scratch, n: i64, gain: f64, li: i64, d: i64, k: i64, s: i64) -> i64:
    sc.cd[n] = gain
    sc.cl[n] = li
    sc.cdr[n] = d
    sc.ck[n] = k
    sc.cs[n] = s
    return n + 1


@cython.cfunc
@cython.exceptval(check=False)
def _candidates(
    km: KernelMap, bp: BotParams, mk: V1, win: V1, card: i64, pw: f64, base: F1, isfull: V1,
    lost: V1, extra: f64, allb: f64, allf: F1, sc: Scratch,
) -> i64:  # fmt: skip
    """Greedy's candidates in its order, with their gains (plus ``extra`` per
    special station marked: the variant's bonus of ``GreedyBot.scored``; ``allb``, ``allf``:
    the all-lines bonus still open and the lines' factors, :func:`_gain`). Line cards: the full
    run (or the interchange) on every route of every line with a window; a free ride: the
    first empty stop and every isolated empty stop of each open line's routes, then none."""
    L: i64 = km.n_lines
    n: i64 = 0
    li: i64
    d: i64
    t: i64
    i: i64
    s: i64
    N: i64
    first: i64
    k: i64
    nsp: i64
    g: f64
    bonus: f64
    f: Scan
    if card == _FREE:
        for li in range(L):
            if isfull[li]:
                continue
            for d in range(km.nroutes[li]):
                N = km.rlen[li, d]
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
                        km, bp, mk, win, -1, sc.marks, 1, 0.0, pw, base, isfull, lost, sc.aff,
                        allb, allf,
                    )  # fmt: skip
                    mk[s] = 0
                    if extra:
                        g += extra * km.special[s]
                    n = _candidate(sc, n, g, -1, 0, 0, s)
        for i in range(n):
            sc.seen[sc.cs[i]] = 0
        return _candidate(sc, n, 0.0, -1, 0, 0, -1)
    for li in range(L):
        if not win[li]:
            continue
        for d in range(km.nroutes[li]):
            f = scan_route(km, mk, li, d, sc.bf)
            bonus = 0.0
            s = -1
            if card == _PLUS:
                k = 1 if f.empties else 0
                if k:
                    s = km.stops[li, sc.bf[0]]
                    bonus = 2.0 * km.count[s]
            else:
                k = most_crosses(card, f.empties, f.run)
            nsp = 0
            for i in range(k):
                sc.marks[i] = km.stops[li, sc.bf[i]]
                mk[sc.marks[i]] = 1
                nsp += km.special[sc.marks[i]]
            g = _gain(
                km, bp, mk, win, li, sc.marks, k, bonus, pw, base, isfull, lost, sc.aff, allb,
                allf,
            )  # fmt: skip
            for i in range(k):
                mk[sc.marks[i]] = 0
            if extra:
                g += extra * nsp
            n = _candidate(sc, n, g, li, d, 0 if card == _PLUS else k, s)
    return n


class Candidate(NamedTuple):
    """One of greedy's candidate moves with its gain (:func:`candidates`)."""

    gain: float
    line: int
    """-1: a free ride."""
    route: int
    crosses: int
    station: int
    """The boxed or free-ride station, -1 if none."""
    marks: int
    """The stations the move marks (a bitmask over stations)."""


def candidates(
    km: KernelMap, bp: BotParams, mk: V1, win: V1, lost: V1, pw: float, allb: float, card: int,
    extra: float, sc: Scratch,
) -> list[Candidate]:  # fmt: skip
    """Greedy's candidates for one sheet (``mk`` marked stations, ``win`` windows left, ``lost``
    lines whose ``first`` bonus is gone, ``pw`` the weight of an empty station, ``allb`` the
    all-lines bonus points still open), in greedy's order, with their gains (``extra`` per
    special station marked): the evaluation the Python bots (greedy, lookahead, the
    clairvoyant beam) read."""
    _bases(km, bp, mk, win, lost, sc.base, sc.isfull, allb, sc.allf)
    n: i64 = _candidates(
        km, bp, mk, win, card, pw, sc.base, sc.isfull, lost, extra, allb, sc.allf, sc
    )
    out = []
    i: i64
    j: i64
    nm: i64
    for i in range(n):
        nm = _move_marks(km, mk, sc.cl[i], sc.cdr[i], sc.ck[i], card, sc.cs[i], sc)
        marks: object = 0  # a Python int: a map has up to 400 stations
        for j in range(nm):
            marks |= 1 << int(sc.marks[j])
        out.append(
            Candidate(
                float(sc.cd[i]), int(sc.cl[i]), int(sc.cdr[i]), int(sc.ck[i]), int(sc.cs[i]), marks
            )
        )
    return out


def best_gain(
    km: KernelMap, bp: BotParams, mk: V1, win: V1, lost: V1, pw: float, allb: float, card: int,
    sc: Scratch,
) -> float:  # fmt: skip
    """The best of greedy's gains on one sheet for ``card`` (the lookahead's next-card term)."""
    _bases(km, bp, mk, win, lost, sc.base, sc.isfull, allb, sc.allf)
    n: i64 = _candidates(
        km, bp, mk, win, card, pw, sc.base, sc.isfull, lost, 0.0, allb, sc.allf, sc
    )
    g: f64 = sc.cd[0]
    q: i64
    for q in range(1, n):
        if sc.cd[q] > g:
            g = sc.cd[q]
    return g


def line_value(km: KernelMap, bp: BotParams, mk: V1, li: int, windows: int, lost: int) -> float:
    """The evaluation of an open line: its bonus (``others`` when ``lost``) · P(complete) +
    worth of its windows left."""
    return _line_value(km, bp, mk, li, windows, lost)


def all_lines_value(km: KernelMap, bp: BotParams, mk: V1, win: V1, allb: float) -> float:
    """The evaluation's all-lines term: the bonus still open (``allb`` points) times the chance
    of meeting its condition, the product of every line's :func:`_all_lines_factor`."""
    if allb <= 0.0:
        return 0.0
    p: f64 = 1.0
    li: i64
    for li in range(km.n_lines):
        p *= _all_lines_factor(km, bp, mk, li, win[li])
    return allb * p


@cython.cfunc
@cython.exceptval(check=False)
def _all_lines_open(km: KernelMap, sh: Sheets, p: i64) -> f64:
    """The all-lines bonus points seat ``p`` can still score (``State.all_lines_open``)."""
    if not km.all_cond or sh.bonus[p] >= 0:
        return 0.0
    return km.all_first if race_firsts(sh.players, 1, sh.bonus_taken) else km.all_others


@cython.cfunc
@cython.exceptval(check=False)
def _lost(km: KernelMap, sh: Sheets, p: i64, lost: V1) -> cython.void:
    """Lines with a scoring unit whose ``first`` bonus another player has taken (seat ``p``
    has not completed it)."""
    gone: i64 = lines_of(km, sh.taken & ~sh.done[p]) if sh.players > 1 else 0
    li: i64
    for li in range(km.n_lines):
        lost[li] = gone >> li & 1


@cython.cfunc
@cython.exceptval(check=False)
def _action(km: KernelMap, mk: V1, li: i64, d: i64, k: i64, s: i64, card: i64, sc: Scratch) -> i64:
    """A candidate as an action: a free ride's station (``n_stations``: none) or the
    canonical line move."""
    if li < 0:
        return (km.n_lines << _LSH) + (km.n_stations if s < 0 else s)
    return _canonical(km, mk, li, d, k, card, sc)


@cython.cfunc
@cython.exceptval(check=False)
def _evaluated(
    km: KernelMap, bp: BotParams, sh: Sheets, p: i64, card: i64, special: cython.bint,
    sc: Scratch,
) -> i64:  # fmt: skip
    """Greedy's candidates of seat ``p`` for ``card`` with their gains; returns how many."""
    mk: V1 = sh.mk[p]
    win: V1 = sh.win[p]
    pw: f64 = sh.weight
    allb: f64 = _all_lines_open(km, sh, p)
    _lost(km, sh, p, sc.lost)
    _bases(km, bp, mk, win, sc.lost, sc.base, sc.isfull, allb, sc.allf)
    extra: f64 = bp.extra if special else 0.0
    return _candidates(
        km, bp, mk, win, card, pw, sc.base, sc.isfull, sc.lost, extra, allb, sc.allf, sc
    )


@cython.cfunc
@cython.exceptval(check=False)
def _greedy_pick(
    km: KernelMap, bp: BotParams, mk: V1, n: i64, card: i64, mt: V1, sc: Scratch
) -> i64:
    """``GreedyBot.pick``: the first candidate with the best gain plus uniform noise (the
    kernel plays the bots with their default noise, > 0), as an action."""
    best: f64 = -1e300
    bi: i64 = -1
    v: f64
    i: i64
    for i in range(n):
        v = sc.cd[i] + bp.noise * _rand(mt)
        if bi < 0 or v > best:
            best = v
            bi = i
    return _action(km, mk, sc.cl[bi], sc.cdr[bi], sc.ck[bi], sc.cs[bi], card, sc)


@cython.cfunc
@cython.exceptval(check=False)
def _before(km: KernelMap, sc: Scratch, x: i64, y: i64) -> cython.bint:
    """Does candidate ``x`` sort before ``y`` in descending (gain, route, crosses, station)?"""
    if sc.cd[x] != sc.cd[y]:
        return sc.cd[x] > sc.cd[y]
    rx: i64 = -1 if sc.cl[x] < 0 else km.route_base[sc.cl[x]] + sc.cdr[x]
    ry: i64 = -1 if sc.cl[y] < 0 else km.route_base[sc.cl[y]] + sc.cdr[y]
    if rx != ry:
        return rx > ry
    if sc.ck[x] != sc.ck[y]:
        return sc.ck[x] > sc.ck[y]
    return sc.cs[x] > sc.cs[y]


@cython.cfunc
@cython.exceptval(check=False)
def _move_marks(
    km: KernelMap, mk: V1, li: i64, d: i64, k: i64, card: i64, s: i64, sc: Scratch
) -> i64:
    """The stations a candidate marks, into ``sc.marks``; returns how many."""
    if li < 0:
        if s < 0:
            return 0
        sc.marks[0] = s
        return 1
    f: Scan = scan_route(km, mk, li, d, sc.bf)
    i: i64
    if card == _PLUS:
        if f.empties:
            sc.marks[0] = km.stops[li, sc.bf[0]]
            return 1
        return 0
    for i in range(k):
        sc.marks[i] = km.stops[li, sc.bf[i]]
    return k


@cython.cfunc
@cython.exceptval(check=False)
def _lookahead_move(
    km: KernelMap, bp: BotParams, sh: Sheets, p: i64, card: i64, mt: V1,
    special: cython.bint, is_extra: cython.bint, sc: Scratch,
) -> i64:  # fmt: skip
    """``LookaheadBot.choose``: greedy gain + E[best greedy gain of the next card] for the
    ``width`` best moves (expectimax over the draw pile; the full deck after the 6)."""
    mk: V1 = sh.mk[p]
    win: V1 = sh.win[p]
    pw: f64 = sh.weight
    allb: f64 = _all_lines_open(km, sh, p)
    n: i64 = _evaluated(km, bp, sh, p, card, special, sc)
    if n == 1 or is_extra:
        return _greedy_pick(km, bp, mk, n, card, mt, sc)
    i: i64
    j: i64
    x: i64
    o: i64
    for i in range(n):  # sorted(moves, reverse=True) over (gain, route, crosses, station)
        sc.order[i] = i
    for i in range(1, n):
        x = sc.order[i]
        j = i - 1
        while j >= 0 and _before(km, sc, x, sc.order[j]):
            sc.order[j + 1] = sc.order[j]
            j -= 1
        sc.order[j + 1] = x
    top: i64 = n if n < bp.width else bp.width
    for i in range(top):
        o = sc.order[i]
        sc.top_cd[i] = sc.cd[o]
        sc.top_cl[i] = sc.cl[o]
        sc.top_cdr[i] = sc.cdr[o]
        sc.top_ck[i] = sc.ck[o]
        sc.top_cs[i] = sc.cs[o]
    six: cython.bint = card == sh.reshuffle
    tot: i64 = sh.deck_size if six else sh.total
    best: f64 = -1e300
    ba: i64 = -1
    a: i64
    li: i64
    nm: i64
    m: i64
    c: i64
    cnt: i64
    q: i64
    m2: i64
    left: i64
    lj: i64
    future: f64
    g: f64
    total: f64
    for i in range(top):
        li = sc.top_cl[i]
        a = _action(km, mk, li, sc.top_cdr[i], sc.top_ck[i], sc.top_cs[i], card, sc)
        nm = _move_marks(km, mk, li, sc.top_cdr[i], sc.top_ck[i], card, sc.top_cs[i], sc)
        for m in range(nm):
            sc.top_marks[m] = sc.marks[m]
            mk[sc.top_marks[m]] = 1
        if li >= 0:
            win[li] -= 1
        future = 0.0
        left = 0
        for lj in range(km.n_lines):
            left += win[lj]
        if left:
            _bases(km, bp, mk, win, sc.lost, sc.base2, sc.isfull2, allb, sc.allf2)
            for c in range(_N_KINDS):
                cnt = sh.deck[c] if six else sh.counts[c]
                if not cnt:
                    continue
                m2 = _candidates(
                    km, bp, mk, win, c, pw, sc.base2, sc.isfull2, sc.lost, 0.0, allb, sc.allf2,
                    sc,
                )  # fmt: skip
                g = sc.cd[0]
                for q in range(1, m2):
                    if sc.cd[q] > g:
                        g = sc.cd[q]
                future += cython.cast(f64, cnt) / tot * g
        for m in range(nm):
            mk[sc.top_marks[m]] = 0
        if li >= 0:
            win[li] += 1
        total = sc.top_cd[i] + bp.discount * future + bp.noise * _rand(mt)
        if ba < 0 or total > best:
            best = total
            ba = a
    return ba


# ------------------------------------------------------------------ whole games
@cython.cfunc
@cython.exceptval(check=False)
def _play(
    km: KernelMap, bp: BotParams, sh: Sheets, sc: Scratch, seed: i64, bots: V1,
    special: cython.bint, mts: V2, hist: V1, turns: V1,
) -> i64:  # fmt: skip
    """One game from the seed: the seeded deck, seat ``p`` playing bot ``bots[p]`` with the
    stream ``random.Random(seat_seed(seed, p))``. Writes the history (cards and actions) into
    ``hist`` as far as it has room, and beside each entry into ``turns`` who played it:
    ``-1`` for a card, else ``seat + 8 * extra actions it earned`` (the special stations it
    marked, in the special-station variant: what a record needs to nest extra actions);
    returns its length."""
    n: i64 = sh.players
    S: i64 = km.n_stations
    fb: i64 = km.n_lines << _LSH
    p: i64
    _reset(km, sh)
    for p in range(n):
        _mt_seed(mts[p], seed, p, km.mt_init)
    key: u64 = mix(cython.cast(u64, seed))
    cap: i64 = hist.shape[0]
    h: i64 = 0
    card: i64
    pending: i64
    is_extra: cython.bint
    bot: i64
    a: i64
    nsp: i64
    while sh.unfinished > 0:
        card = _deal(sh, key)
        if h < cap:
            hist[h] = card
            turns[h] = -1
        h += 1
        for p in range(n):
            if sh.wleft[p] == 0:
                continue
            pending = 0
            is_extra = False
            bot = bots[p]
            while True:
                if bot == _RANDOM:
                    a = _random_move(km, sh.mk[p], sh.win[p], card, mts[p], sc)
                    if card == _FREE:
                        a += fb
                elif bot == _GREEDY:
                    a = _greedy_pick(
                        km, bp, sh.mk[p], _evaluated(km, bp, sh, p, card, special, sc), card,
                        mts[p], sc,
                    )  # fmt: skip
                else:
                    a = _lookahead_move(km, bp, sh, p, card, mts[p], special, is_extra, sc)
                nsp = 0
                if card == _FREE:
                    if a - fb < S:
                        _mark(km, sh, p, a - fb)
                else:
                    nsp = _play_line(
                        km, sh, p, card, a >> _LSH, a >> _RSH & _RMASK, a & _KMASK, sc.bf
                    )
                if h < cap:
                    hist[h] = a
                    turns[h] = p + 8 * nsp * special
                h += 1
                if special:
                    pending = owed_extras(card, pending, nsp, sh.wleft[p])
                    if pending >= 0:
                        is_extra = True
                        continue
                break
        _end_round(km, sh, card)
    return h


class Batch(NamedTuple):
    """Per-game results of :meth:`Kernel.play_batch`, ``G`` games, ``n`` seats."""

    scores: Any  # [G, n]
    rounds: Any  # [G]
    when: Any  # [G, n, U] completion round of each scoring unit, 0 if not completed
    firsts: Any  # [G, n, U] 1 if completed for the first bonus
    empty: Any  # [G, n, S] 1 if empty at the end
    boxed: Any  # [G, n, S] 1 if carrying an interchange number
    bonus: Any  # [G, n] the all-lines bonus scored (included in the score), 0 if none


def play_games(
    km: KernelMap, bp: BotParams, sh: Sheets, sc: Scratch, seeds: V1, bots: V1,
    special: cython.bint, mts: V2, hist: V1, turns: V1, scores: V2, rounds: V1, when: V3,
    firsts: B3, empty: B3, boxed: B3, bonus: V2,
) -> i64:  # fmt: skip
    """Play ``seeds``' games; per game the scores, rounds, completion rounds, ``first``
    bonuses, empty and boxed stations (what ``simulate``'s statistics read). Writes the
    history of the last game into ``hist`` and ``turns`` (``_play``) as far as they have room
    and returns its length."""
    n: i64 = sh.players
    g: i64
    p: i64
    s: i64
    li: i64
    e: i64
    em: i64
    h: i64 = 0
    for g in range(seeds.shape[0]):
        h = _play(km, bp, sh, sc, seeds[g], bots, special, mts, hist, turns)
        rounds[g] = sh.rnd
        for p in range(n):
            e = 0
            for s in range(km.n_stations):
                em = 1 - sh.mk[p, s]
                empty[g, p, s] = em
                boxed[g, p, s] = sh.boxed[p, s]
                e += em
            scores[g, p] = sh.lpts[p] + 2 * sh.inter[p] - sh.pen[e]
            bonus[g, p] = sh.bonus[p] if sh.bonus[p] > 0 else 0
            for li in range(km.n_units):
                when[g, p, li] = sh.when[p, li]
                firsts[g, p, li] = sh.firsts[p, li]
    return h


class Kernel:
    """The kernel for one map (``Tables.kernel``) and seating: ``play_batch(seeds)``,
    ``play_history(seed)`` and ``play_turns(seed)``."""

    def __init__(
        self, km: KernelMap, bots: tuple[str, ...], special: bool, params: BotParams,
        ruleset: Any,
    ) -> None:  # fmt: skip
        import numpy as np

        self.km = km
        self.bp = params
        self.n = len(bots)
        self.bots = np.array([BOT_CODES[b] for b in bots], np.int64)
        self.special = bool(special)
        self.sh = Sheets(self.km, self.n, ruleset)
        self.sc = Scratch(self.km)
        self.mts = np.zeros((self.n, 625), np.int64)
        self.no_history = np.zeros(0, np.int64)

    def play_batch(self, seeds: Any) -> Batch:
        return self._run(seeds, self.no_history, self.no_history)[0]

    def _run(self, seeds: Any, hist: Any, turns: Any) -> tuple[Batch, int]:
        """Per-game results of ``seeds``' games and the length of the last one's history
        (written into ``hist`` and ``turns`` as far as they have room)."""
        import numpy as np

        G, L, S = len(seeds), self.km.n_units, self.km.n_stations
        out = Batch(
            np.zeros((G, self.n), np.int64), np.zeros(G, np.int64),
            np.zeros((G, self.n, L), np.int64), np.zeros((G, self.n, L), np.int8),
            np.zeros((G, self.n, S), np.int8), np.zeros((G, self.n, S), np.int8),
            np.zeros((G, self.n), np.int64),
        )  # fmt: skip
        h = play_games(
            self.km, self.bp, self.sh, self.sc, np.asarray(seeds, np.int64), self.bots,
            self.special, self.mts, hist, turns, *out,
        )  # fmt: skip
        return out, h

    def play_history(self, seed: int) -> list[int]:
        """Every action of game ``seed`` (cards and moves interleaved, as ``State.history``)."""
        return self.play_turns(seed)[0]

    def play_turns(self, seed: int) -> tuple[list[int], list[int]]:
        """Game ``seed``'s history and, per entry, who played it: ``-1`` for a card, else
        ``seat + 8 * extra actions it earned`` (a record's moves, nested, without a replay)."""
        import numpy as np

        hist = np.zeros(MAX_HISTORY, np.int64)
        turns = np.zeros(MAX_HISTORY, np.int64)
        _, h = self._run(np.array([seed], np.int64), hist, turns)
        if h > MAX_HISTORY:
            raise RuntimeError(f"a game of {h} actions: MAX_HISTORY is {MAX_HISTORY}")
        return [int(x) for x in hist[:h]], [int(x) for x in turns[:h]]

    def sheet(self, p: int) -> tuple[int, int, int]:
        """After ``play_history``: seat ``p``'s (marked mask, boxed mask, line points)."""
        import numpy as np

        mk = sum(1 << s for s in np.flatnonzero(np.asarray(self.sh.mk[p])).tolist())
        bx = sum(1 << s for s in np.flatnonzero(np.asarray(self.sh.boxed[p])).tolist())
        return mk, bx, int(self.sh.lpts[p])
