"""``mapkit tune``: search a map's windows and points (and, asked, small station moves)
towards the designer's targets, with guards against degenerate maps.

Every candidate is measured by :func:`mapkit.design.profile.profile` on the **same** decks
(``--games`` of ``--seed``), so differences between candidates are the map's, not the cards'.
The objective (lower is better) is a sum of the targets set::

    J = ((mean - target_mean) / 2)^2                       with --mean (greedy solo mean)
      + sum_lines (first - fair_first)^2 / lines           with --per-line
      + 100 * max(0, luck - max_luck)^2 / 0.01^2          with --max-luck

``fair_first`` spreads the original map's total of ``first`` bonuses over its lines in proportion to
their measured difficulty (``mapkit simulate``'s ``difficulty``), so a line twice as hard
prints twice the bonus. Moves: a line's windows +-1 (1..8), its ``first`` +-1 (``others``
follows the map's printed others/first ratio, at least 1 and at most ``first``) and, with
``move_stations``, a station moved by +-``step`` in x or y when the moved map still validates
without errors. Each step evaluates every move from the current map and takes the best
(ties: the first in a fixed order), until no move lowers J by more than ``tolerance`` or
``steps`` are done: deterministic for a seed.

Guards, checked for every candidate (a guard the original already fails only may not get
worse): every line completable (greedy completion share >= ``min_completion``); no dominant
line (no line pays more than ``dominance`` times the mean points of all lines). After the
search, decisions (``decisions.py``) are measured on the original and the result; while the
result's share of turns that matter or its regret of a random move is significantly below the
original's (by more than 1.96 standard errors of the difference: a few games give noisy figures,
and undoing edits on noise would be arbitrary), or the share is below ``--min-decisions``,
accepted steps are undone, last first.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from mapkit.design.decisions import Decisions, measure_decisions
from mapkit.design.intervals import Z95, Estimate
from mapkit.design.profile import Profile, profile
from mapkit.design.sweep import Sweep
from mapkit.mapfile import load_source
from mapkit.mapfile.model import CityMap


@dataclass(frozen=True)
class Targets:
    mean: float | None = None
    per_line: bool = False
    min_decisions: float | None = None
    max_luck: float | None = None


@dataclass(frozen=True)
class TuneConfig:
    games: int = 300
    seed: int = 0
    players: int = 1
    steps: int = 20
    windows: bool = True
    points: bool = True
    move_stations: bool = False
    step: float = 5.0
    """Station move in map units (mm at print scale)."""
    min_completion: float = 0.05
    dominance: float = 3.0
    tolerance: float = 1e-9
    decision_games: int = 6
    special: bool = False
    jobs: int = 1
    """Candidates measured at once: local processes, or Dask workers for a local cluster."""
    engine: str = "local"
    """``local`` or ``dask`` (``mapkit.design.sweep``): the same result either way."""
    cluster: str | None = None
    """A Dask scheduler address; none: a local cluster of ``jobs`` workers."""


@dataclass
class Step:
    move: str
    objective: float


@dataclass
class TuneResult:
    doc: dict[str, Any]
    city: CityMap
    before: Profile
    after: Profile
    objective_before: float
    objective_after: float
    steps: list[Step] = field(default_factory=list)
    undone: list[str] = field(default_factory=list)
    decisions_before: Decisions | None = None
    decisions_after: Decisions | None = None


class TuneError(Exception):
    """The map cannot be tuned (for example: a guard fails that no move can mend)."""


def fair_firsts(p: Profile, total: float | None = None) -> dict[str, float]:
    """``first`` bonuses in proportion to measured difficulty, summing to ``total`` (the
    original map's sum of ``first``, so the search cannot shrink the pool to make it fair)."""
    if total is None:
        total = sum(ln.first for ln in p.lines.values())
    weight = sum(ln.difficulty for ln in p.lines.values())
    if weight == 0:
        return {lid: ln.first for lid, ln in p.lines.items()}
    return {lid: total * ln.difficulty / weight for lid, ln in p.lines.items()}


def objective(p: Profile, targets: Targets, pool: float) -> float:
    j = 0.0
    if targets.mean is not None:
        j += ((p.mean.value - targets.mean) / 2) ** 2
    if targets.per_line:
        fair = fair_firsts(p, pool)
        j += sum((ln.first - fair[lid]) ** 2 for lid, ln in p.lines.items()) / len(p.lines)
    if targets.max_luck is not None:
        j += 100 * max(0.0, p.luck - targets.max_luck) ** 2 / 0.01**2
    return j


def _below(before: Estimate, after: Estimate) -> bool:
    """Is ``after`` significantly below ``before`` (by more than 1.96 standard errors)?"""
    return after.value < before.value - Z95 * math.hypot(before.se, after.se)


def decisions_hold(before: Decisions, after: Decisions, targets: Targets) -> bool:
    """Decisions not below the original's: neither the share of turns that matter nor the
    regret of a random move significantly lower, and the share at least ``--min-decisions``."""
    return (
        not _below(before.share, after.share)
        and not _below(before.regret, after.regret)
        and after.share.value >= (targets.min_decisions or 0.0)
    )


def guard_failures(p: Profile, cfg: TuneConfig) -> set[str]:
    bad = {
        f"line {lid} not completable"
        for lid, ln in p.lines.items()
        if ln.completion.value < cfg.min_completion
    }
    mean_pts = sum(ln.points.value for ln in p.lines.values()) / len(p.lines)
    bad |= {
        f"line {lid} dominant"
        for lid, ln in p.lines.items()
        if mean_pts > 0 and ln.points.value > cfg.dominance * mean_pts
    }
    return bad


def city_of(doc: dict[str, Any], validate: bool) -> CityMap | None:
    """The model of a candidate document, or None when it is not a valid map."""
    result = load_source(json.dumps(doc), "<candidate>")
    if result.map is None:
        return None
    if validate:
        from mapkit.checks import run_layers
        from mapkit.notices import Severity

        if any(d.severity is Severity.ERROR for d in run_layers(result)):
            return None
    return result.map


def moves(doc: dict[str, Any], cfg: TuneConfig) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every single edit of the document, in a fixed order: (description, new document)."""
    lines = doc["lines"]
    sum_first = sum(ln["points"]["first"] for ln in lines) or 1
    ratio = sum(ln["points"]["others"] for ln in lines) / sum_first
    for i, ln in enumerate(lines):
        if cfg.windows:
            for dw in (1, -1):
                w = ln["windows"] + dw
                if 1 <= w <= 8:
                    new = copy.deepcopy(doc)
                    new["lines"][i]["windows"] = w
                    yield f"line {ln['id']} windows {ln['windows']} -> {w}", new
        if cfg.points:
            for df in (1, -1):
                f = ln["points"]["first"] + df
                if f >= 1:
                    others = max(1, min(f, round(f * ratio)))
                    new = copy.deepcopy(doc)
                    new["lines"][i]["points"] = {"first": f, "others": others}
                    old = f"{ln['points']['first']}/{ln['points']['others']}"
                    yield f"line {ln['id']} points {old} -> {f}/{others}", new
    if cfg.move_stations:
        for i, st in enumerate(doc["stations"]):
            for axis in ("x", "y"):
                for d in (cfg.step, -cfg.step):
                    new = copy.deepcopy(doc)
                    new["stations"][i][axis] = st[axis] + d
                    yield f"station {st['id']} {axis} {st[axis]:g} -> {st[axis] + d:g}", new


def evaluate(task: tuple[str, dict[str, Any], TuneConfig]) -> tuple[str, Profile | None]:
    """One candidate's profile (None: not a valid map); a pure function of the task."""
    desc, doc, cfg = task
    c = city_of(doc, validate=desc.startswith("station"))
    if c is None:
        return desc, None
    return desc, profile(c, cfg.games, cfg.seed, cfg.players, cfg.special)


def tune(
    doc: dict[str, Any],
    targets: Targets,
    cfg: TuneConfig,
    progress: Callable[[str], None] | None = None,
) -> TuneResult:
    """Search from the map document ``doc``; returns the tuned document and both profiles."""
    say = progress or (lambda _: None)
    city = city_of(doc, validate=False)
    if city is None:
        raise TuneError("the map does not load")

    with Sweep(cfg.engine, cfg.jobs, cfg.cluster) as sweep:
        result, path, steps = _search(doc, city, targets, cfg, sweep, say)
    if cfg.decision_games:
        say("measuring decisions before and after")
        d0 = measure_decisions(city, cfg.decision_games, cfg.seed, special=cfg.special)
        while True:
            d1 = measure_decisions(path[-1][1], cfg.decision_games, cfg.seed, special=cfg.special)
            if decisions_hold(d0, d1, targets) or len(path) == 1:
                break
            path.pop()
            result.undone.append(steps.pop().move)
            say(
                f"decisions {d1.share.value:.3f} (regret {d1.regret.value:.2f}) against "
                f"{d0.share.value:.3f} ({d0.regret.value:.2f}): undoing {result.undone[-1]}"
            )
        result.doc, result.city, result.after, result.objective_after = path[-1]
        result.steps = steps
        result.decisions_before, result.decisions_after = d0, d1
    return result


def _search(doc, city, targets, cfg, sweep, say):  # type: ignore[no-untyped-def]
    """The steepest-descent search; returns (result, path of accepted maps, steps)."""
    ((_, before),) = sweep.map(evaluate, [("original", doc, cfg)])
    pool = sum(ln.first for ln in before.lines.values())
    original_bad = guard_failures(before, cfg)
    path = [(doc, city, before, objective(before, targets, pool))]
    steps: list[Step] = []
    say(f"start: objective {path[0][3]:.4f}, greedy mean {before.mean.value:.2f}")
    for n in range(cfg.steps):
        cur_doc, _, _, cur_j = path[-1]
        candidates = list(moves(cur_doc, cfg))
        profiles = sweep.map(evaluate, [(desc, new, cfg) for desc, new in candidates])
        best = None
        for (desc, new), (_, p) in zip(candidates, profiles, strict=True):
            if p is None or guard_failures(p, cfg) - original_bad:
                continue
            j = objective(p, targets, pool)
            if j < cur_j - cfg.tolerance and (best is None or j < best[2]):
                best = (new, p, j, desc)
        if best is None:
            say(f"step {n + 1}: no move improves the objective; done")
            break
        new, p, j, desc = best
        c = city_of(new, validate=False)
        assert c is not None
        path.append((new, c, p, j))
        steps.append(Step(desc, j))
        say(f"step {n + 1}/{cfg.steps}: {desc}: objective {j:.4f} ({len(candidates)} candidates)")
    result = TuneResult(
        path[-1][0], path[-1][1], before, path[-1][2], path[0][3], path[-1][3], steps
    )
    return result, path, steps
