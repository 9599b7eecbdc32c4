"""What one game leaves behind: plain data, the same whichever engine played it.

The runner (``GameRunner``) fills these from the kernel's or the checked engine's games;
statistics, design figures and records only ever read them, so they can be tested with
hand-made outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from mapkit.engine.scoring import Breakdown
from mapkit.rulesets import VOLL_VERPLANT, Ruleset


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One player's end of game."""

    bot: str
    score: int
    rank: int
    """1 for a winner; equal scores split by fewer empty stations, still equal share the rank."""
    completed: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Scoring unit (line id, or ``A2`` for a branch) -> (round of completion, 1-based; points
    it paid: what ``scoring.paying_units`` says, so 0 for a branch its line's better branch
    outdoes under ``branch_scoring`` best)."""
    first: frozenset[str] = frozenset()
    """Lines this player completed for the ``first`` bonus."""
    interchanges: dict[str, int] = field(default_factory=dict)
    """station id -> the lines there, which its interchange counts (``Ruleset.written``: what
    the edition writes into it)."""
    empty: frozenset[str] = frozenset()
    """Stations still empty at the end."""
    all_lines: int = 0
    """The all-lines bonus scored (0 if not met, or the map has none)."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    index: int
    """The game's number in its run (deck seed ``game_seed(run seed, index)``)."""
    seed: int
    rounds: int
    seats: tuple[SeatOutcome, ...]
    engine: str = ""
    """``kernel`` or ``checked``: the engine that played it (empty: made by hand)."""
    history: tuple[int, ...] = ()
    """Every card and action, when the run kept histories (``RunConfig.records``)."""
    turns: tuple[int, ...] = ()
    """Beside each history entry who played it (``Kernel.play_turns``)."""
    ruleset: Ruleset = VOLL_VERPLANT
    """The rules it was played under (scoring, the tie-break)."""

    def with_history(self, history: list[int], turns: list[int]) -> GameOutcome:
        return replace(self, history=tuple(history), turns=tuple(turns))

    def breakdown(self, seat: int) -> Breakdown:
        """Seat ``seat``'s four scoring boxes (interchange numbers in station order)."""
        s = self.seats[seat]
        lines = {lid: pts for lid, (_, pts) in s.completed.items() if pts}
        inter = tuple(s.interchanges.values())
        return Breakdown(
            lines, inter, len(s.empty), len(self.seats), self.ruleset, all_lines=s.all_lines
        )
