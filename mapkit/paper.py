"""What a player has written on a paper sheet: the hand-off from engine to renderer.

The engine produces a :class:`PaperSheet` for a player at some point of a game;
the renderer draws it over the empty sheet. Neither needs to know the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

DiamondMark = Literal["open", "circled", "struck"]
SquareMark = Literal["open", "circled"]


@dataclass(frozen=True)
class Scoring:
    """The four end-game scoring boxes."""

    line_points: int
    interchange_points: int
    penalty: int
    total: int


@dataclass(frozen=True)
class PaperSheet:
    """One player's marks.

    ``windows`` holds, per line id, the values written into its window boxes in
    order (``"4"``, ``"3"`` for an express 3, ``"+"``). ``diamonds`` and
    ``squares`` say, per line id, how the bonus panel is marked: the diamond is
    circled by a first finisher and struck by everyone else once someone has
    finished first; the square is circled by a later finisher.
    """

    player: str
    crosses: frozenset[str] = frozenset()
    interchanges: Mapping[str, int] = field(default_factory=dict)
    windows: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    diamonds: Mapping[str, DiamondMark] = field(default_factory=dict)
    squares: Mapping[str, SquareMark] = field(default_factory=dict)
    scoring: Scoring | None = None
    round: int | None = None
