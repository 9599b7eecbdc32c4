"""Can a line's own windows complete it? Exact answers for DES001 and DES002.

The line gets the best help the map allows: every stop that another line also
serves ("shared") may be marked by that other line whenever it suits. Only the
line's unshared stops must then be crossed by its own cards, which move from
the wagon outward (rules-notes 1-3, 7):

- a number card (3..6) crosses a contiguous run of stops starting at the first
  empty one and stops at a marked stop, so it covers unshared stops whose
  positions fit in a window of its value (shared stops inside that window are
  left empty for it to cross);
- an express card (2, 3) skips marked stops, so it covers its value in unshared
  stops, however far apart;
- an interchange card marks one stop; a free ride fills no window.

Crossing more stops with a card never hurts (what is left is a suffix of what
was left), so each card greedily covers as many as it can. A loop line starts
at its first stop and each card picks a direction: forward cards eat the
unshared stops from the front, backward cards from the back.

DES001 uses the best cards without limit (a 6 recurs after every reshuffle).
DES002 asks how likely the line's next ``windows`` window-filling cards, from a
freshly shuffled real deck (reshuffled after the 6, rules-notes 10), complete
it: exact, by recursion over (line progress, cards left in the pile).
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Sequence
from functools import lru_cache

from mapkit import cards
from mapkit.rulesets import VOLL_VERPLANT, Ruleset

_WINDOW_CARDS = tuple(k for k in range(len(cards.CARD_NAMES)) if k != cards.FREE)
"""The engine's card kinds that fill a window (the free ride fills none), in kind order."""
CARD_KINDS: tuple[tuple[str, int], ...] = tuple(
    ("i", 1) if k == cards.PLUS else ("x" if cards.CARD_EXPRESS[k] else "n", cards.CARD_VALUE[k])
    for k in _WINDOW_CARDS
)
"""("n", v) number, ("x", v) express, ("i", 1) interchange: ``mapkit.cards`` read here."""
BEST_CARDS: tuple[tuple[str, int], ...] = (("n", 6), ("x", 3))

Structure = tuple[tuple[bool, ...], bool]  # (unshared flags in stop order, loop)


def structure(shared: Sequence[bool], loop: bool) -> Structure:
    """Cache key: which stops the line must cross itself."""
    return (tuple(not s for s in shared), loop)


class _Line:
    """Unshared stop positions and the greedy reach of a card."""

    def __init__(self, key: Structure) -> None:
        own, self.loop = key
        self.n = len(own)
        if self.loop:
            self.start_own = bool(own and own[0])
            self.pos = [i for i in range(1, self.n) if own[i]]
        else:
            self.start_own = False
            self.pos = [i for i in range(self.n) if own[i]]
        self.m = len(self.pos)
        back = [self.n - p for p in reversed(self.pos)]
        self.fwd = [self._reach(self.pos, i) for i in range(self.m + 1)]
        self.bwd = [self._reach(back, i) for i in range(self.m + 1)]

    @staticmethod
    def _reach(seq: list[int], i: int) -> list[int]:
        """For each card value v: how many items from seq[i] on fit in a run of v stops."""
        if i >= len(seq):
            return [0] * 7
        return [bisect.bisect_right(seq, seq[i] + v - 1, i) - i for v in range(7)]

    def initial(self) -> tuple[int, int, bool]:
        return (0, 0, not self.start_own)

    def done(self, state: tuple[int, int, bool]) -> bool:
        f, b, z = state
        return z and f + b >= self.m

    def advance(self, state: tuple[int, int, bool], card: tuple[str, int]) -> list[tuple]:
        """Best states after using ``card`` (one per direction for a loop)."""
        kind, v = card
        f, b, z = state
        left = self.m - f - b
        out = []
        for forward in (True, False) if self.loop else (True,):
            if not z:
                # loop whose first stop is unshared: the card starts there (position 0)
                if kind == "n":
                    dist = self.pos if forward else [self.n - p for p in reversed(self.pos)]
                    k = sum(1 for d in dist if d <= v - 1)
                else:
                    k = v - 1
                k = min(k, left)
                out.append((f + k, b, True) if forward else (f, b + k, True))
                continue
            if left == 0:
                out.append(state)
                continue
            table = self.fwd[f] if forward else self.bwd[b]
            k = min(table[v] if kind == "n" else v, left)
            out.append((f + k, b, z) if forward else (f, b + k, z))
        return out


@lru_cache(maxsize=4096)
def min_windows(key: Structure) -> int:
    """Fewest windows that complete the line with the best cards and the best help."""
    line = _Line(key)
    start = line.initial()
    if line.done(start):
        return 0
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        state, d = queue.popleft()
        for card in BEST_CARDS:
            for nxt in line.advance(state, card):
                if line.done(nxt):
                    return d + 1
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, d + 1))
    return line.m + 1  # unreachable: every card covers at least one stop


MAX_STATES = 15_000


class _TooBig(Exception):
    pass


@lru_cache(maxsize=4096)
def completion_chance(
    key: Structure, windows: int, ruleset: Ruleset = VOLL_VERPLANT
) -> float | None:
    """Probability that the next ``windows`` window cards of a fresh deck of ``ruleset``
    complete the line.

    None when the exact recursion would exceed MAX_STATES (only very long lines with many
    windows, far from any real map; such a line is not near-hopeless anyway).
    """
    line = _Line(key)
    start = line.initial()
    if line.done(start):
        return 1.0
    if line.m + (0 if line.initial()[2] else 1) <= windows:
        return 1.0  # every card covers at least one stop
    if min_windows(key) > windows:
        return 0.0
    memo: dict[tuple, float] = {}
    full = tuple(ruleset.counts[k] for k in _WINDOW_CARDS)
    reshuffle = _WINDOW_CARDS.index(ruleset.reshuffle)

    def chance(state: tuple[int, int, bool], deck: tuple[int, ...], w: int) -> float:
        if line.done(state):
            return 1.0
        left = line.m - state[0] - state[1] + (0 if state[2] else 1)
        if left <= w:
            return 1.0  # every card covers at least one stop
        if w == 0 or left > 6 * w:
            return 0.0
        k = (state, deck, w)
        hit = memo.get(k)
        if hit is not None:
            return hit
        total = sum(deck)
        acc = 0.0
        for i, count in enumerate(deck):
            if not count:
                continue
            nxt_deck = full if i == reshuffle else (*deck[:i], count - 1, *deck[i + 1 :])
            best = max(chance(s, nxt_deck, w - 1) for s in line.advance(state, CARD_KINDS[i]))
            acc += count / total * best
        memo[k] = acc
        if len(memo) > MAX_STATES:
            raise _TooBig
        return acc

    try:
        return chance(start, full, windows)
    except _TooBig:
        return None
