"""What one simulated game leaves behind: plain data, independent of the engine.

The runner fills these from a finished engine state; the statistics only ever
read them, so they can be tested with hand-made outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One player's end of game."""

    bot: str
    score: int
    rank: int
    """1 for a winner; equal scores split by fewer empty stations, still equal share the rank."""
    completed: dict[str, tuple[int, int]] = field(default_factory=dict)
    """line id -> (round of completion, 1-based; points it earned)."""
    first: frozenset[str] = frozenset()
    """Lines this player completed for the ``first`` bonus."""
    interchanges: dict[str, int] = field(default_factory=dict)
    """station id -> the number written into it."""
    empty: frozenset[str] = frozenset()
    """Stations still empty at the end."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    index: int
    seed: int
    rounds: int
    seats: tuple[SeatOutcome, ...]


def ranks(scores: list[int], empties: list[int]) -> list[int]:
    """Competition ranks: higher score first, then fewer empty stations; equals share."""
    keys = [(-s, e) for s, e in zip(scores, empties, strict=True)]
    return [1 + sum(1 for other in keys if other < k) for k in keys]
