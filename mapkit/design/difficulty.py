"""Difficulty on the scale of the four shipped cities, measured on the spot.

The greedy solo mean of the map and of each shipped city on the same decks (same seed and
number of games). ``index`` places the map linearly between the easiest and the hardest city
measured: 0 = as easy as the easiest, 1 = as hard as the hardest (outside 0..1: beyond them).
"""

from __future__ import annotations

from dataclasses import dataclass

from mapkit.design.intervals import Estimate, mean_ci
from mapkit.design.skill import solo_scores
from mapkit.mapfile.model import CityMap


@dataclass
class Difficulty:
    mean: Estimate
    cities: dict[str, Estimate]
    index: float
    between: str

    def to_dict(self) -> dict[str, object]:
        return {
            "greedy_mean": self.mean.to_dict(),
            "cities": {c: e.to_dict() for c, e in self.cities.items()},
            "index": round(self.index, 4),
            "placement": self.between,
        }


def measure_difficulty(
    city: CityMap, games: int, seed: int, special: bool = False, jobs: int = 1
) -> Difficulty:
    from mapkit.mapfile import load_map
    from mapkit.resources import shipped_maps

    own = mean_ci(solo_scores(city, "greedy", games, seed, special, jobs))
    cities = {}
    for path in shipped_maps():
        other = load_map(path)
        cities[other.id] = mean_ci(solo_scores(other, "greedy", games, seed, special, jobs))
    ranked = sorted(cities.items(), key=lambda kv: -kv[1].value)
    easiest, hardest = ranked[0][1].value, ranked[-1][1].value
    index = (easiest - own.value) / (easiest - hardest) if easiest != hardest else 0.0
    harder_than = [c for c, e in ranked if e.value > own.value]
    easier_than = [c for c, e in ranked if e.value <= own.value]
    same = [c for c, e in ranked if e.value == own.value]
    if same:
        between = f"as hard as {same[0]}"
    elif not harder_than:
        between = f"easier than {ranked[0][0]}"
    elif not easier_than:
        between = f"harder than {ranked[-1][0]}"
    else:
        between = f"between {harder_than[-1]} and {easier_than[0]}"
    return Difficulty(own, cities, index, between)
