"""Windows and points for an imported line, from its length, as the shipped sheets have them.

On the shipped and published sheets a line has one window more than it has stops of its
own (stops no other line serves) per 4.5, and its first-finisher bonus is about 0.42
points a stop, the later finishers' two less (one less below 4). Windows then grow until
validate's completion tests (DES001, DES002) pass; ``mapkit tune`` refines both from play.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from mapkit.checks.completion import completion_chance, min_windows, structure
from mapkit.checks.design import MIN_CHANCE

MAX_WINDOWS = 8


@dataclass(frozen=True)
class Bonus:
    windows: int
    first: int
    others: int


def bonus(shared: Sequence[bool], loop: bool) -> Bonus:
    """Windows and points of a line whose stops are ``shared`` (True: another line stops there)."""
    key = structure(shared, loop)
    own = sum(not s for s in shared)
    windows = max(1 + math.ceil(own / 4.5), min_windows(key))
    while windows < MAX_WINDOWS:
        chance = completion_chance(key, windows)
        if chance is None or chance >= MIN_CHANCE:
            break
        windows += 1
    windows = min(windows, MAX_WINDOWS)
    first = min(10, max(2, round(0.42 * len(shared))))
    others = first - 2 if first >= 4 else first - 1
    return Bonus(windows, first, others)
