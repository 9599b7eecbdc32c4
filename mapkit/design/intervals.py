"""Confidence intervals used by every design figure (95 %, two-sided)."""

from __future__ import annotations

import math
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
    """Mean with Student's t interval (``se = sd / sqrt(n)``, ``n - 1`` degrees of freedom:
    the normal 1.96 covered 94.0 % for tension's drama over 60 games, t 94.7 %)."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan)
    m = math.fsum(values) / n
    if n == 1:
        return Estimate(m, m, m, 0.0)
    sd = math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))
    se = sd / math.sqrt(n)
    half = t975(n - 1) * se
    return Estimate(m, m - half, m + half, se)


def proportion_ci(successes: float, n: int) -> Estimate:
    """A share with the Wilson score interval (sound near 0 and 1, unlike mean ± 2 se)."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan)
    p = successes / n
    return _wilson(p, n, math.sqrt(p * (1 - p) / n))


def _wilson(p: float, n: float, se: float) -> Estimate:
    """Wilson's score interval of a share ``p`` on ``n`` (an effective size may be fractional)."""
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)), se)


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
    return _wilson(p, max(1.0, min(n_eff, float(g * size))), cl.se)


def credit_share_ci(credits: Sequence[float]) -> Estimate:
    """The mean of per-game credits in 0..1 (a seat's share of a win, ties shared): Wilson's
    interval on the effective sample size ``p(1-p) / se^2``, ``se`` from the credits' own
    spread. A shared win is worth less spread than a whole one, so a third of games tied makes
    the plain Wilson interval on the game count too wide (it covered 97.5-98 % of Berlin's seat
    shares, this one 94.8-95.0 %: benchmarks/bench_coverage.py)."""
    g = len(credits)
    if g == 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan)
    p = math.fsum(credits) / g
    cl = mean_ci(credits)
    n_eff = p * (1 - p) / cl.se**2 if cl.se > 0 else float(g)
    return _wilson(p, max(1.0, n_eff), cl.se)


T975 = (12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157)
"""Student's t 97.5 % quantiles for 1 to 9 degrees of freedom (beyond: :func:`t975`)."""


def t975(df: int) -> float:
    """Student's t 97.5 % quantile: the table below 10 degrees of freedom, else the
    Cornish-Fisher expansion about the normal quantile (within 0.0005 of the exact value)."""
    if df < 1:
        return math.inf
    if df <= len(T975):
        return T975[df - 1]
    z = Z95
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def clustered_ratio_ci(
    totals: Sequence[float], sizes: Sequence[float], bounds: tuple[float, float] | None = None
) -> Estimate:
    """``sum(totals) / sum(sizes)`` over independent clusters (a game's turns: how many
    mattered, or their regrets, over how many there were), with the cluster-robust standard
    error of a ratio (linearised: ``r = sum(y - R n)^2``, ``se = sqrt(G / (G - 1) * r) /
    sum(n)``) and Student's t with ``G - 1`` degrees of freedom: every unit of a cluster shares
    its noise (a decision game's cards and its playouts' noise alike), so the clusters are the
    sample, and with a handful of them the normal quantile is too narrow. ``bounds`` clips the
    interval (a share: 0..1)."""
    g = len(totals)
    n = math.fsum(sizes)
    if g == 0 or n == 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan)
    r = math.fsum(totals) / n
    if g == 1:
        return Estimate(r, r, r, 0.0)
    resid = math.fsum((y - r * m) ** 2 for y, m in zip(totals, sizes, strict=True))
    se = math.sqrt(g / (g - 1) * resid) / n
    half = t975(g - 1) * se
    lo, hi = r - half, r + half
    if bounds is not None:
        lo, hi = max(bounds[0], lo), min(bounds[1], hi)
    return Estimate(r, lo, hi, se)


def clustered_mean_ci(clusters: Sequence[Sequence[float]]) -> Estimate:
    """The mean over units grouped in equal clusters (the seats of one game): the mean of the
    clusters' means, with the interval of that mean (clusters are the independent units)."""
    return mean_ci([math.fsum(c) / len(c) for c in clusters])


def log_mean_ci(values: Sequence[float]) -> Estimate:
    """The mean of nonnegative values, Student's t interval built on the log scale and mapped
    back: ``mean * exp(±t se / mean)`` (the delta method: the error of ``log mean`` is
    ``se / mean``). A zero-heavy count (crosses lost at a station, 0 in most games) is skewed
    to the right, so the symmetric interval's lower end reaches below the sample's spread and
    its upper end falls short (Berlin's stations: 67.8-95.2 % coverage, this one 93.4-97.4 %:
    benchmarks/bench_coverage.py --stations-pooled); the log scale widens it upwards and keeps
    it above 0. Every value 0: ``[0, 0]`` (no spread to scale)."""
    e = mean_ci(values)
    if not e.value > 0:
        return Estimate(e.value, e.value, e.value, e.se)
    f = math.exp(t975(len(values) - 1) * e.se / e.value)
    return Estimate(e.value, e.value / f, e.value * f, e.se)


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def _expit(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def jackknife_ci(
    units: Sequence[object],
    statistic: Callable[[Sequence[object]], float],
    share: bool = False,
) -> Estimate:
    """A smooth statistic of independent units (decks, games) with the delete-one jackknife's
    standard error ``sqrt((n - 1) / n * sum (t_i - t_.)^2)``, ``t_i`` the statistic without unit
    ``i`` (Efron & Stein 1981; for a ratio of sums it is the linearised, delta-method error),
    and Student's t on ``n - 1`` degrees of freedom. ``share`` (a statistic inside 0..1, such
    as a variance share): the interval is built on the logit scale and mapped back, so it stays
    inside 0..1 and is skewed away from the nearer end as the statistic's spread is; its ``se``
    is the jackknife's on the share's own scale. One unit, or a share at 0 or 1: no spread."""
    units = list(units)
    n = len(units)
    value = statistic(units)
    if n < 2:
        return Estimate(value, value, value, 0.0)
    loo = [statistic(units[:i] + units[i + 1 :]) for i in range(n)]
    se = _jack_se(loo)
    q = t975(n - 1)
    if not share:
        return Estimate(value, value - q * se, value + q * se, se)
    if not 0 < value < 1 or not all(0 < t < 1 for t in loo):
        return _clipped(value, q * se, se)
    se_logit = _jack_se([_logit(t) for t in loo])
    centre = _logit(value)
    return Estimate(value, _expit(centre - q * se_logit), _expit(centre + q * se_logit), se)


def _jack_se(loo: Sequence[float]) -> float:
    n = len(loo)
    m = math.fsum(loo) / n
    return math.sqrt((n - 1) / n * math.fsum((t - m) ** 2 for t in loo))


def _clipped(value: float, half: float, se: float) -> Estimate:
    return Estimate(value, max(0.0, value - half), min(1.0, value + half), se)


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
