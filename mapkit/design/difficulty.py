"""Difficulty on the scale of the four shipped cities, measured on the spot.

The greedy solo mean of the map and of each shipped city on the same decks (same seed and
number of games). ``index`` places the map linearly between the easiest and the hardest city
measured: 0 = as easy as the easiest, 1 = as hard as the hardest (outside 0..1: beyond them).
Its interval is the jackknife's over decks (``intervals.jackknife_ci``): every map played the
same decks, so a deck's row holds the map's score and every city's, and leaving out a row keeps
the pairing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mapkit.design.intervals import Estimate, jackknife_ci, mean_ci
from mapkit.design.skill import solo_scores
from mapkit.mapfile.model import CityMap


@dataclass
class Difficulty:
    mean: Estimate
    cities: dict[str, Estimate]
    index: Estimate
    between: str

    def to_dict(self) -> dict[str, object]:
        return {
            "greedy_mean": self.mean.to_dict(),
            "cities": {c: e.to_dict() for c, e in self.cities.items()},
            "index": self.index.to_dict(),
            "placement": self.between,
        }


def _index(rows: Sequence[Sequence[float]]) -> float:
    """(easiest city - map) / (easiest - hardest) of rows (map, city, city, ...)."""
    means = [sum(r[j] for r in rows) / len(rows) for j in range(len(rows[0]))]
    own, cities = means[0], means[1:]
    easiest, hardest = max(cities), min(cities)
    return (easiest - own) / (easiest - hardest) if easiest != hardest else 0.0


def measure_difficulty(
    city: CityMap, games: int, seed: int, special: bool = False, jobs: int = 1
) -> Difficulty:
    from mapkit.mapfile import load_map
    from mapkit.resources import shipped_maps

    own_scores = solo_scores(city, "greedy", games, seed, special, jobs)
    scores = {}
    for path in shipped_maps():
        other = load_map(path)
        scores[other.id] = solo_scores(other, "greedy", games, seed, special, jobs)
    return difficulty_of(own_scores, scores)


def difficulty_of(own_scores: Sequence[int], scores: dict[str, Sequence[int]]) -> Difficulty:
    """The difficulty of the map's greedy solo scores among the cities' on the same decks."""
    own = mean_ci(own_scores)
    cities = {c: mean_ci(s) for c, s in scores.items()}
    ranked = sorted(cities.items(), key=lambda kv: -kv[1].value)
    columns = [own_scores, *scores.values()]
    rows = [tuple(col[i] for col in columns) for i in range(len(own_scores))]
    index = jackknife_ci(rows, _index)
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
