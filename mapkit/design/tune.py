"""``mapkit tune``: search a map's windows and points towards the designer's targets, with
every candidate a valid map and guards against degenerate ones.

Every candidate passes the full validator (all layers, on the chosen paper: no error) before it
is measured; a window edit that makes it fail gets the changed lines' wagons placed again by the
layout (``mapkit.layout.wagons``) and is validated again; what still fails is rejected and
counted. Valid candidates are measured
by :func:`mapkit.design.profile.profile` on the **same** decks (``--games`` of ``--seed``), so
differences between candidates are the map's, not the cards'. The objective (lower is better) is
a sum over the targets set::

    J = ((mean - target_mean) / 2)^2                                   with --mean
      + (outside(mean / windows, shipped band) / 0.05)^2               with --per-line alone
      + sum_lines [ (outside(completion, band) / 0.05)^2
                  + (outside(bonus per window, band) / 0.25)^2
                  + (max(0, |rate / target_rate - 1| - 0.25) / 0.25)^2 ] / lines
                                                                       with --per-line
      + 100 * max(0, luck - max_luck)^2 / 0.01^2                       with --max-luck

``band`` is the shipped cities' (``mapkit.design.band``: every shipped line's completion and
bonus per window, measured on the same decks); ``rate`` is a line's bonus paid per game per
window, ``target_rate`` the median of the original map's rates, held inside the band: a line
that pays more than a quarter above or below it per turn spent on it is penalised, so bonuses
follow difficulty and an inflated line comes down instead of the others going up. The luck share
is the deck share of the score variance among greedy and lookahead (``profile``).

Search (``mapkit.design.edits``): each step measures every single-line edit of the current map
(windows +-1, ``first`` +-1, and the directed edits that set ``first`` to pay the target rate,
with the windows unchanged or +-1); then the best improving edit of every line, merged into one
candidate (only edits that mend their own line's share of J: the others may only be reacting to
another line's flaw), and the better half of them merged; the best candidate that lowers J is
taken. When
no single-line edit helps, a window moved from one line to another is tried before stopping.
Ties keep the first candidate in a fixed order, so a seed gives the same map.

Guards (a guard the original already fails only may not get worse): every line completable
(completion >= ``min_completion``); no dominant line (none pays more than ``dominance`` times the
mean line). After the search, decisions (``decisions.py``) are measured on the original and the
result; while the result's share of turns that matter or its regret of a random move is
significantly below the original's, or the share is below ``--min-decisions``, accepted steps
are undone, last first. Targets still missed are listed in ``TuneResult.unmet``.
"""

from __future__ import annotations

import copy
import json
import math
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from mapkit.design.band import Band, ShippedBand, bonus_per_window, mean_per_window, shipped_band
from mapkit.design.decisions import Decisions, measure_decisions
from mapkit.design.edits import Edit, line_edits, lines_named, merge, window_transfers
from mapkit.design.intervals import Z95, Estimate
from mapkit.design.profile import Profile, profile
from mapkit.design.sweep import Sweep
from mapkit.mapfile import LoadResult, model_layers
from mapkit.mapfile.model import CityMap

COMPLETION_UNIT = 0.05
MEAN_RATE_UNIT = 0.05
RATE_UNIT = 0.25
RATE_SLACK = 0.25
"""A line's rate may stray this far (relative) from the target before it costs anything."""
MEAN_TOLERANCE = 1.0
"""--mean is met within this many points."""


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
    paper: str = "a4"
    """Every candidate must validate on this paper."""
    min_completion: float = 0.05
    dominance: float = 3.0
    tolerance: float = 0.01
    """An edit must lower the objective by more than this (smaller gains are noise)."""
    decision_games: int = 6
    luck_games: int = 100
    """Decks on which lookahead plays for the luck share (only with --max-luck)."""
    special: bool = False
    jobs: int = 1
    """Candidates measured at once: local processes, or Dask workers for a local cluster."""
    engine: str = "local"
    """``local`` or ``dask`` (``mapkit.design.sweep``): the same result either way."""
    cluster: str | None = None
    """A Dask scheduler address; none: a local cluster of ``jobs`` workers."""
    scale: int = 1
    """The map's size factor (``mapkit.design.scale``): decisions valued every ``scale``-th
    turn."""


@dataclass(frozen=True)
class Aim:
    """What the objective compares a profile with, fixed for a whole search."""

    targets: Targets
    band: ShippedBand
    rate: float
    """Target bonus per window of every line."""


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
    aim: Aim
    steps: list[Step] = field(default_factory=list)
    undone: list[str] = field(default_factory=list)
    rejected: int = 0
    """Candidates that did not validate, even with their wagons placed again (never measured)."""
    moved: int = 0
    """Candidates made valid by placing their wagons again."""
    measured: int = 0
    decisions_before: Decisions | None = None
    decisions_after: Decisions | None = None

    @property
    def unmet(self) -> list[str]:
        return unmet(self.after, self.aim, self.decisions_after)


class TuneError(Exception):
    """The map cannot be tuned (it does not load or does not validate)."""


def target_rate(p: Profile, band: ShippedBand) -> float:
    """The median bonus per window of a map's lines, held inside the shipped band."""
    median = statistics.median(bonus_per_window(ln) for ln in p.lines.values())
    return min(band.rate.hi, max(band.rate.lo, median))


def line_terms(p: Profile, aim: Aim) -> dict[str, float]:
    """Each line's share of the per-line objective (0: inside the band, at the target rate)."""
    b = aim.band
    out = {}
    for lid, ln in p.lines.items():
        rate = bonus_per_window(ln)
        off = max(0.0, abs(rate / aim.rate - 1) - RATE_SLACK)
        out[lid] = (
            (b.completion.distance(ln.completion.value) / COMPLETION_UNIT) ** 2
            + (b.rate.distance(rate) / RATE_UNIT) ** 2
            + (off / RATE_SLACK) ** 2
        )
    return out


def objective(p: Profile, aim: Aim) -> float:
    t = aim.targets
    j = 0.0
    if t.mean is not None:
        j += ((p.mean.value - t.mean) / 2) ** 2
    elif t.per_line:
        j += (aim.band.mean.distance(mean_per_window(p)) / MEAN_RATE_UNIT) ** 2
    if t.per_line:
        j += sum(line_terms(p, aim).values()) / len(p.lines)
    if t.max_luck is not None:
        j += 100 * max(0.0, p.luck - t.max_luck) ** 2 / 0.01**2
    return j


def _outside(band: Band, e: Estimate) -> bool:
    """Is a figure outside ``band`` beyond its 95 % interval (the interval misses the band)?"""
    return e.hi < band.lo or e.lo > band.hi


def unmet(p: Profile, aim: Aim, decisions: Decisions | None = None) -> list[str]:
    """The targets a profile misses, each with how close it is. A figure counts as outside a
    band only when its 95 % interval misses the band."""
    t, b = aim.targets, aim.band
    out = []
    if t.mean is not None and abs(p.mean.value - t.mean) > MEAN_TOLERANCE:
        out.append(f"greedy mean {p.mean.value:.1f} against --mean {t.mean:g}")
    if t.per_line:
        windows = sum(ln.windows for ln in p.lines.values())
        if t.mean is None and _outside(b.mean, Estimate(*(x / windows for x in p.mean))):
            out.append(f"greedy mean per window {mean_per_window(p):.2f} (shipped {b.mean.text()})")
        for lid, ln in p.lines.items():
            c, rate = ln.completion, bonus_per_window(ln)
            if _outside(b.completion, c):
                out.append(f"line {lid} completion {c.value:.2f} (shipped {b.completion.text()})")
            if _outside(b.rate, Estimate(*(x / ln.windows for x in ln.points))):
                out.append(f"line {lid} bonus per window {rate:.2f} (shipped {b.rate.text()})")
    if t.max_luck is not None and p.luck > t.max_luck:
        out.append(f"luck share {p.luck:.3f} against --max-luck {t.max_luck:g}")
    if t.min_decisions is not None and decisions and decisions.share.value < t.min_decisions:
        out.append(
            f"choice matters {decisions.share.value:.3f} against --min-decisions "
            f"{t.min_decisions:g}"
        )
    return out


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


def loaded(doc: dict[str, Any]) -> LoadResult:
    """The schema and identity layers over a candidate document (a dict tune built, so the
    syntax layer has nothing to find; the written map's text is validated whole)."""
    return model_layers(LoadResult("<candidate>", doc), doc)


def validation_errors(doc: dict[str, Any], paper: str = "a4") -> list[str]:
    """The error codes of the validator's layers on a document (empty: a valid map)."""
    from mapkit.checks import run_layers
    from mapkit.notices import Severity

    result = loaded(doc)
    diags = run_layers(result, paper) if result.map is not None else result.diagnostics
    return [d.code for d in diags if d.severity is Severity.ERROR] or (
        [] if result.map is not None else ["LOAD"]
    )


def city_of(doc: dict[str, Any], paper: str | None = "a4") -> CityMap | None:
    """The model of a document; None when it does not load or (with ``paper``) when the
    validator finds an error on that paper."""
    if paper is not None and validation_errors(doc, paper):
        return None
    return loaded(doc).map


def with_wagons_placed(
    doc: dict[str, Any], lines: Iterable[str], paper: str = "a4"
) -> dict[str, Any] | None:
    """``doc`` with the wagons of ``lines`` placed again by the layout's wagon placement
    (``mapkit.layout.wagons``: beside the first station, clear of everything on A4 and Letter,
    else on ``paper`` alone), or None when it finds no clear spot or a line is drawn with a
    ``shape`` (which starts at the depot: moving the wagon would leave the drawing behind)."""
    from mapkit.layout.wagons import WagonError, place_wagons

    lines = list(lines_named(doc, lines))
    city = loaded(doc).map
    if city is None or any(city.line(lid).shape for lid in lines):
        return None
    for papers in (("a4", "letter"), (paper,)):
        try:
            depots = place_wagons(city, papers, lines)
            break
        except WagonError:
            continue
    else:
        return None
    new = copy.deepcopy(doc)
    for ln in new["lines"]:
        if ln["id"] in depots:
            x, y = depots[ln["id"]]
            ln["depot"] = {**ln["depot"], "x": round(x, 2), "y": round(y, 2)}
    return new


@dataclass(frozen=True)
class Task:
    """One candidate to measure: a pure function of these fields, wherever it runs."""

    doc: dict[str, Any]
    cfg: TuneConfig
    luck_games: int
    wagons: tuple[str, ...] = ()
    """Lines whose windows changed: their wagons may be placed again to make the map valid."""


@dataclass(frozen=True)
class Evaluated:
    """A candidate as measured: its document (wagons perhaps moved) and profile."""

    doc: dict[str, Any]
    profile: Profile
    moved: tuple[str, ...] = ()
    """Lines whose wagon was placed again."""


def evaluate(task: Task) -> Evaluated | None:
    """One candidate's profile, or None when it does not validate (validation comes first, so
    an invalid map is never measured). A candidate whose grown or shrunk wagons make it
    invalid gets those wagons placed again, and is measured if that makes it valid."""
    doc, moved = task.doc, ()
    if validation_errors(doc, task.cfg.paper):
        placed = with_wagons_placed(doc, task.wagons, task.cfg.paper) if task.wagons else None
        if placed is None or validation_errors(placed, task.cfg.paper):
            return None
        doc, moved = placed, task.wagons
    c = loaded(doc).map
    assert c is not None
    cfg = task.cfg
    p = profile(c, cfg.games, cfg.seed, cfg.players, cfg.special, 1, task.luck_games)
    return Evaluated(doc, p, moved)


Node = tuple[dict[str, Any], CityMap, Profile, float]
"""An accepted map on the search path: document, model, profile, objective."""


class Search:
    """The steepest-descent search with merged and pair moves (module docstring)."""

    def __init__(
        self,
        doc: dict[str, Any],
        targets: Targets,
        cfg: TuneConfig,
        sweep: Sweep,
        say: Callable[[str], None],
    ) -> None:
        self.doc, self.targets, self.cfg, self.sweep, self.say = doc, targets, cfg, sweep, say
        self.luck_games = cfg.luck_games if targets.max_luck is not None else 0
        self.cache: dict[str, Evaluated | None] = {}
        self.rejected = 0
        self.measured = 0
        self.moved = 0

    def measure(
        self, docs: list[dict[str, Any]], wagons: list[tuple[str, ...]] | None = None
    ) -> list[Evaluated | None]:
        """Documents measured (None: not valid), each once per search; ``wagons``: per
        document, the lines whose wagons may be placed again."""
        wagons = wagons or [()] * len(docs)
        keys = [json.dumps(d, sort_keys=True) for d in docs]
        todo = {
            k: Task(d, self.cfg, self.luck_games, w)
            for k, d, w in zip(keys, docs, wagons, strict=True)
            if k not in self.cache
        }
        fresh = self.sweep.map(evaluate, list(todo.values()))
        for k, e in zip(todo, fresh, strict=True):
            self.cache[k] = e
            self.measured += 1
            self.rejected += e is None
            self.moved += e is not None and bool(e.moved)
        return [self.cache[k] for k in keys]

    def run(self, city: CityMap) -> tuple[TuneResult, list[Node]]:
        cfg, say = self.cfg, self.say
        (first,) = self.measure([self.doc])
        assert first is not None
        before = first.profile
        band = shipped_band(cfg.games, cfg.seed, cfg.special)
        aim = Aim(self.targets, band, target_rate(before, band))
        self.aim = aim
        self.original_bad = guard_failures(before, cfg)
        path: list[Node] = [(self.doc, city, before, objective(before, aim))]
        steps: list[Step] = []
        say(f"start: objective {path[0][3]:.4f}, greedy mean {before.mean.value:.2f}")
        for n in range(cfg.steps):
            best = self.step(path[-1])
            if best is None:
                say(f"step {n + 1}: no edit improves the objective; done")
                break
            edit, new, p, j = best
            c = city_of(new, None)
            assert c is not None
            path.append((new, c, p, j))
            steps.append(Step(edit.description, j))
            say(f"step {n + 1}/{cfg.steps}: {edit.description}: objective {j:.4f}")
        result = TuneResult(
            path[-1][0], path[-1][1], before, path[-1][2], path[0][3], path[-1][3], aim, steps
        )
        result.rejected, result.measured, result.moved = self.rejected, self.measured, self.moved
        return result, path

    def _scored(self, node: Node, edits: list[Edit]) -> list[tuple[Edit, dict, Profile, float]]:
        """The edits that give a valid map passing the guards, with profile and objective."""
        docs = [e.apply(node[0]) for e in edits]
        wagons = [tuple(c.line for c in e.changes if c.windows is not None) for e in edits]
        out = []
        for e, ev in zip(edits, self.measure(docs, wagons), strict=True):
            if ev is None or guard_failures(ev.profile, self.cfg) - self.original_bad:
                continue
            if ev.moved:
                e = Edit(e.changes, f"{e.description} (wagon {', '.join(ev.moved)} placed again)")
            out.append((e, ev.doc, ev.profile, objective(ev.profile, self.aim)))
        return out

    def step(self, node: Node) -> tuple[Edit, dict, Profile, float] | None:
        """The best improving candidate from ``node``, or None."""
        cfg = self.cfg
        cur = node[3] - cfg.tolerance
        completion = {lid: ln.completion.value for lid, ln in node[2].lines.items()}
        rate = self.aim.rate if self.targets.per_line else None
        singles = self._scored(
            node, list(line_edits(node[0], completion, rate, cfg.windows, cfg.points))
        )
        improving = [s for s in singles if s[3] < cur]
        if not improving and cfg.windows:
            pairs = self._scored(node, list(window_transfers(node[0])))
            improving = [s for s in pairs if s[3] < cur]
        if not improving:
            return None
        per_line: dict[frozenset[str], tuple[Edit, dict, Profile, float]] = {}
        for s in improving:
            if s[0].lines not in per_line or s[3] < per_line[s[0].lines][3]:
                per_line[s[0].lines] = s
        # merge the edits that mend their own line (its share of the objective falls): an
        # edit that only helps the total may be reacting to another line's flaw
        own = line_terms(node[2], self.aim) if self.targets.per_line else {}
        mending = sorted(
            (
                s
                for s in per_line.values()
                if len(s[0].lines) == 1
                and own.get(lid := next(iter(s[0].lines)), 0) - line_terms(s[2], self.aim)[lid]
                > cfg.tolerance
            ),
            key=lambda s: s[3],
        )
        sizes = {len(mending), (len(mending) + 1) // 2} - {0, 1}
        merged = [merge([s[0] for s in mending[:k]]) for k in sorted(sizes)]
        candidates = improving + [s for s in self._scored(node, merged) if s[3] < cur]
        return min(candidates, key=lambda s: s[3])


def tune(
    doc: dict[str, Any],
    targets: Targets,
    cfg: TuneConfig,
    progress: Callable[[str], None] | None = None,
) -> TuneResult:
    """Search from the map document ``doc``; returns the tuned document and both profiles.

    Raises :class:`TuneError` when ``doc`` does not validate on ``cfg.paper``."""
    say = progress or (lambda _: None)
    errors = validation_errors(doc, cfg.paper)
    if errors:
        codes = ", ".join(sorted(set(errors)))
        raise TuneError(f"the map does not validate on {cfg.paper} ({codes}); fix it first")
    city = city_of(doc, None)
    assert city is not None
    with Sweep(cfg.engine, cfg.jobs, cfg.cluster) as sweep:
        search = Search(doc, targets, cfg, sweep, say)
        result, path = search.run(city)
    if cfg.decision_games:
        say("measuring decisions before and after")
        d0 = measure_decisions(
            city, cfg.decision_games, cfg.seed, special=cfg.special, stride=cfg.scale
        )
        while True:
            d1 = measure_decisions(
                path[-1][1], cfg.decision_games, cfg.seed, special=cfg.special, stride=cfg.scale
            )
            if decisions_hold(d0, d1, targets) or len(path) == 1:
                break
            path.pop()
            result.undone.append(result.steps.pop().move)
            say(
                f"decisions {d1.share.value:.3f} (regret {d1.regret.value:.2f}) against "
                f"{d0.share.value:.3f} ({d0.regret.value:.2f}): undoing {result.undone[-1]}"
            )
        result.doc, result.city, result.after, result.objective_after = path[-1]
        result.decisions_before, result.decisions_after = d0, d1
    return result
