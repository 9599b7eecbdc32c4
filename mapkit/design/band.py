"""The band of the shipped cities: what a playable line and a playable map look like.

Measured on the spot (the same decks as the map under study), never copied from a table:
for every line of the four shipped cities, greedy solo play gives its **completion** (share of
games in which it is completed) and its **bonus per window** (the bonus points it really pays
per game, divided by its windows: every window is spent in a game, so this is what one turn
given to the line earns in bonuses). The band of a figure is its lowest to its highest value
over the 39 shipped lines. The map's own figure is the greedy solo mean **per window** (points
per turn: a game lasts as many turns as the map has windows, so a small map is not measured
against a big city's total); its band, the lowest to the highest city.
``tune --per-line`` brings every line and the mean inside these bands, and the report's
findings flag what falls outside them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from mapkit.design.profile import LineProfile, Profile, profile


@dataclass(frozen=True)
class Band:
    lo: float
    hi: float

    def distance(self, x: float) -> float:
        """How far ``x`` lies outside the band (0 inside)."""
        return max(0.0, self.lo - x, x - self.hi)

    def text(self, fmt: str = ".2f") -> str:
        return f"{self.lo:{fmt}}-{self.hi:{fmt}}"

    def to_dict(self) -> dict[str, float]:
        return {"lo": round(self.lo, 4), "hi": round(self.hi, 4)}


def bonus_per_window(line: LineProfile) -> float:
    """The bonus points a line pays per game, per window it has."""
    return line.points.value / line.windows


def mean_per_window(p: Profile) -> float:
    """The greedy solo mean per window of the map (points per turn)."""
    return p.mean.value / sum(ln.windows for ln in p.lines.values())


@dataclass(frozen=True)
class ShippedBand:
    games: int
    seed: int
    completion: Band
    rate: Band
    """Bonus per window."""
    mean: Band
    """Greedy solo mean per window of a city."""

    def to_dict(self) -> dict[str, object]:
        return {
            "games": self.games,
            "seed": self.seed,
            "completion": self.completion.to_dict(),
            "bonus_per_window": self.rate.to_dict(),
            "greedy_mean_per_window": self.mean.to_dict(),
        }


def band_of(profiles: list[Profile]) -> tuple[Band, Band, Band]:
    """(completion, bonus per window, mean) bands over some maps' profiles."""
    lines = [ln for p in profiles for ln in p.lines.values()]
    comp = [ln.completion.value for ln in lines]
    rate = [bonus_per_window(ln) for ln in lines]
    means = [mean_per_window(p) for p in profiles]
    return (
        Band(min(comp), max(comp)),
        Band(min(rate), max(rate)),
        Band(min(means), max(means)),
    )


@functools.cache
def shipped_band(games: int, seed: int, special: bool = False) -> ShippedBand:
    """The shipped cities' band on decks ``0 .. games-1`` of ``seed`` (cached per process)."""
    from mapkit.mapfile import load_map
    from mapkit.resources import shipped_maps

    profiles = [profile(load_map(p), games, seed, 1, special) for p in shipped_maps()]
    return ShippedBand(games, seed, *band_of(profiles))
