"""Confidence intervals used by every design figure (95 %, two-sided)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

Z95 = 1.959963984540054


class Estimate(NamedTuple):
    """A figure with its 95 % confidence interval (``lo``/``hi``) and standard error."""

    value: float
    lo: float
    hi: float
    se: float

    def to_dict(self, digits: int = 4) -> dict[str, float]:
        return {k: round(v, digits) for k, v in self._asdict().items()}

    def text(self, fmt: str = ".2f") -> str:
        return f"{self.value:{fmt}} [{self.lo:{fmt}}, {self.hi:{fmt}}]"


def mean_ci(values: Sequence[float]) -> Estimate:
    """Mean with a normal-approximation interval (``se = sd / sqrt(n)``)."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan)
    m = math.fsum(values) / n
    sd = math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    se = sd / math.sqrt(n)
    return Estimate(m, m - Z95 * se, m + Z95 * se, se)


def proportion_ci(successes: float, n: int) -> Estimate:
    """A share with the Wilson score interval (sound near 0 and 1, unlike mean ± 2 se)."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo, hi = max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))
    return Estimate(p, lo, hi, math.sqrt(p * (1 - p) / n))


def clustered_proportion_ci(successes: Sequence[int], size: int) -> Estimate:
    """A share over clusters of ``size`` units (the seats of one game), clusters independent,
    units within one not: Wilson's interval on the effective sample size ``p(1-p) / se^2``,
    ``se`` the standard error of the mean of the clusters' shares (the design effect of survey
    sampling; Korn & Graubard 1998). At most the number of units; with no spread between
    clusters (every share 0 or every share 1), the number of clusters."""
    g = len(successes)
    if g == 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan)
    shares = [k / size for k in successes]
    p = math.fsum(shares) / g
    cl = mean_ci(shares)
    n_eff = p * (1 - p) / cl.se**2 if cl.se > 0 else float(g)
    n_eff = max(1.0, min(n_eff, float(g * size)))
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n_eff)) / (1 + z2 / n_eff)
    half = Z95 * math.sqrt(p * (1 - p) / n_eff + z2 / (4 * n_eff * n_eff)) / (1 + z2 / n_eff)
    lo, hi = max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))
    return Estimate(p, lo, hi, cl.se)


def clustered_mean_ci(clusters: Sequence[Sequence[float]]) -> Estimate:
    """The mean over units grouped in equal clusters (the seats of one game): the mean of the
    clusters' means, with the interval of that mean (clusters are the independent units)."""
    return mean_ci([math.fsum(c) / len(c) for c in clusters])


def bootstrap_ci(
    units: Sequence[object],
    statistic: Callable[[Sequence[object]], float],
    seed: int,
    resamples: int = 200,
) -> Estimate:
    """Percentile bootstrap over independent units (games or decks), seeded: reproducible."""
    value = statistic(units)
    rng = random.Random(f"mapkit-bootstrap:{seed}")
    n = len(units)
    stats = sorted(statistic([units[rng.randrange(n)] for _ in range(n)]) for _ in range(resamples))
    lo = stats[int(0.025 * (resamples - 1))]
    hi = stats[math.ceil(0.975 * (resamples - 1))]
    m = math.fsum(stats) / resamples
    se = math.sqrt(math.fsum((s - m) ** 2 for s in stats) / max(1, resamples - 1))
    return Estimate(value, lo, hi, se)


def difference_ci(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """``mean(b) - mean(a)`` for independent samples (Welch's standard error)."""
    ea, eb = mean_ci(a), mean_ci(b)
    se = math.sqrt(ea.se**2 + eb.se**2)
    d = eb.value - ea.value
    return Estimate(d, d - Z95 * se, d + Z95 * se, se)


def paired_difference_ci(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """``mean(b - a)`` over paired samples (the same decks): far tighter than unpaired."""
    return mean_ci([y - x for x, y in zip(a, b, strict=True)])


def significant(e: Estimate) -> bool:
    """Does the 95 % interval of a difference exclude 0?"""
    return e.lo > 0 or e.hi < 0
