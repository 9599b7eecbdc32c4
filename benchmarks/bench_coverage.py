"""Do the report's 95 % intervals cover the truth 95 % of the time? (issue 17: 93-97 %)

    python benchmarks/bench_coverage.py --pooled pools/ --reps 2400 --out pooled.json
    python benchmarks/bench_coverage.py --races-only --reps 600 --jobs 1 --out races.json
    python benchmarks/bench_coverage.py --stations-pooled --reps 4000 --out stations.json
    python benchmarks/bench_coverage.py --reps 400 --slow-reps 200 --out coverage.json

Four ways to repeat the report on Berlin (``--map``), each checking every figure of its JSON
that carries an interval (``value``, ``lo``, ``hi``, ``se``) against its truth, each figure's
coverage printed with its Monte Carlo standard error ``sqrt(c (1 - c) / n)`` over its ``n``
repetitions (about 0.45 points at 2,400 repetitions, 0.9 at 600, 1.5 at 200):

- ``--pooled DIR``: the skill, difficulty, tension, decision and mixed figures. Their decks and
  games are played once into pools on a seed no repetition uses (``--pool-decks`` 20,000
  decks for every skill bot and each shipped city's greedy player, ``--pool-games`` 4,000
  tension and mixed games, ``--pool-decisions`` 1,200 decision games; cached in DIR: about 17
  minutes of CPU, mostly the clairvoyant bot and tension), and every repetition draws as many
  decks and games as a report at its defaults (200 decks, 60 tension, 6 decision and 60 mixed
  games, a third of those from each of the lookahead player's seats) *with replacement* and
  measures them with the report's own functions (``skill_of``, ``difficulty_of``,
  ``tension_of``, ``decisions_of``, ``mixed_of``). The pool is then the population exactly:
  the truth is its own value (the same statistics on all of it), the repetitions are
  independent, and one costs ~0.1 s instead of a whole report's ~12 s. What it takes for
  granted: that 20,000 decks and 4,000 games stand for the distribution they were drawn from
  (coverage is a smooth function of it), and that the report's stages are independent (they
  are: each plays its own games).
- ``--races-only``: the line races, pacing and stations, which need whole games with their
  records; every repetition plays 200 fresh three-player greedy games (run seed ``1000 +
  rep``) against the truth of ``--truth`` games (default 20,000) of the pools' seed.
- ``--stations-pooled``: the station figures alone, as ``--pooled`` does the others: the
  ``--truth`` games (of the pools' seed) are played and replayed once (``game_cuts``, about
  30 s of CPU), and every repetition draws as many of them as a report plays (200) with
  replacement and tallies them (``tally``), the pool's own tally being the truth. The races
  mode's fresh games would take ~1 s a repetition; this takes ~0.03 s, so thousands of
  repetitions tell an interval's bias from the noise of 400.
- none: whole reports (``design_report`` at its defaults without the sensitivity table,
  which prints no interval) on run seeds ``1000 + rep``, ``--slow-reps`` of them (spread
  evenly) with the slow figures, the others without the clairvoyant bot, tension, decisions
  and mixed skill. The kernel-played figures are checked against ``--truth`` games; the slow
  ones, which have no truth here, against the mean of the repetitions' estimates (the
  estimator's expectation: its O(1/n) bias is not seen, its spread is). End to end, but at
  ~12 s a report too slow for a precise coverage on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SLOW = ("skill.means.clairvoyant", "skill.luck_share", "skill.skill_share",
        "skill.relative_skill", "decisions.", "tension.", "mixed.")  # fmt: skip


def leaves(doc: object, path: str = "") -> dict[str, dict[str, float]]:
    """Every interval of a report's JSON by a stable path (lists keyed by line or station)."""
    out: dict[str, dict[str, float]] = {}
    if isinstance(doc, dict):
        if set(doc) == {"value", "lo", "hi", "se"}:
            return {path: doc}
        for k, v in doc.items():
            out |= leaves(v, f"{path}.{k}" if path else k)
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            key = v.get("line") or v.get("station") if isinstance(v, dict) else None
            out |= leaves(v, f"{path}[{key if key is not None else i}]")
    return out


def family(path: str) -> str:
    """``lines[B].completion`` -> ``lines[*].completion``: figures of one kind together."""
    import re

    return re.sub(r"\[[^\]]*\]", "[*]", path)


def one_report(args: tuple[str, int, bool | None]) -> dict[str, dict[str, float]]:
    """One repetition: the whole report, or (``full`` off) the report without its slow
    figures (no clairvoyant, one tension and one decision game, no mixed table)."""
    from mapkit.design.report import ReportConfig, design_report
    from mapkit.mapfile import load_map

    path, seed, full = args
    if full is None:  # --races-only: the line races, pacing and stations alone
        from mapkit.design.report import _races

        races, pace, stations = _races(load_map(path), ReportConfig(seed=seed))
        doc = {"lines": [r.to_dict() for r in races], "pacing": pace.to_dict(),
               "stations": stations.to_dict()}  # fmt: skip
        return leaves(doc)
    cfg = ReportConfig(seed=seed, sensitivity=False)
    if not full:
        cheap = {"tension_games": 1, "decision_games": 1, "mixed_games": 0}
        bots = ("random", "greedy", "lookahead")
        cfg = ReportConfig(seed=seed, sensitivity=False, skill_bots=bots, **cheap)
    doc = leaves(design_report(load_map(path), cfg).to_dict())
    return doc if full else {k: v for k, v in doc.items() if not k.startswith(SLOW)}


def truth_of(path: str, games: int, races_only: bool = False) -> dict[str, float]:
    """The kernel-played figures on ``games`` games of ``POOL_SEED`` (``races_only``: the
    races, pacing and stations alone)."""
    from mapkit.design.pacing import _late
    from mapkit.design.races import races_of
    from mapkit.design.skill import solo_scores
    from mapkit.design.stations import stations_of
    from mapkit.engine import Game
    from mapkit.mapfile import load_map
    from mapkit.resources import shipped_maps
    from mapkit.simulate import RunConfig, simulate

    city = load_map(path)
    played = simulate(city, RunConfig(("greedy",) * 3, games, POOL_SEED, records=True))
    doc = {"lines": [r.to_dict() for r in races_of(city, played)],
           "stations": stations_of(Game(city, players=3), played).to_dict()}  # fmt: skip
    truth = {k: v["value"] for k, v in leaves(doc).items()}
    truth["pacing.late_share"] = _late(played)  # the statistic itself: no jackknife of 20,000
    for p in range(3):
        shared = sum((o.seats[p].rank == 1) / sum(s.rank == 1 for s in o.seats) for o in played)
        truth[f"pacing.seat_wins[{p}]"] = shared / games
    if races_only:
        return truth
    skill = {b: solo_scores(city, b, games, POOL_SEED) for b in ("random", "greedy", "lookahead")}
    cities = {(c := load_map(m)).id: solo_scores(c, "greedy", games, POOL_SEED)
              for m in shipped_maps()}  # fmt: skip
    return truth | deck_truth(skill, cities)


POOL_SEED = 999_999
"""The seed of the truth's games and of the pools (no repetition's run seed)."""


def build_pools(path: str, pool_dir: Path, decks: int, games: int,
                decisions: int) -> dict[str, Any]:  # fmt: skip
    """The pools ``--pooled`` draws from, played once on ``POOL_SEED`` and cached in
    ``pool_dir``: every skill bot's solo scores and each shipped city's greedy solo scores on
    ``decks`` decks, the figures of ``games`` tension and mixed games and of ``decisions``
    decision games (each game's, as the report's aggregators take them)."""
    from mapkit.design.decisions import play_decisions
    from mapkit.design.mixed import play_mixed
    from mapkit.design.report import ReportConfig
    from mapkit.design.skill import SKILL_BOTS, solo_scores
    from mapkit.design.tension import play_tension
    from mapkit.mapfile import load_map
    from mapkit.resources import shipped_maps

    city, players, threshold = load_map(path), ReportConfig.players, ReportConfig.threshold
    makers = {
        "skill": lambda: {b: solo_scores(city, b, decks, POOL_SEED) for b in SKILL_BOTS},
        "cities": lambda: {(c := load_map(p)).id: solo_scores(c, "greedy", decks, POOL_SEED)
                           for p in shipped_maps()},
        "tension": lambda: [list(g) for g in play_tension(city, players, games, POOL_SEED)],
        "decisions": lambda: [list(g) for g in play_decisions(city, decisions, POOL_SEED,
                                                              threshold=threshold)],
        "mixed": lambda: play_mixed(city, players, games, POOL_SEED),
    }  # fmt: skip
    pool_dir.mkdir(parents=True, exist_ok=True)
    pools: dict[str, Any] = {}
    for name, make in makers.items():
        f = pool_dir / f"{Path(path).stem}-{name}.json"
        if not f.exists():
            t = time.process_time()
            f.write_text(json.dumps(make()))
            print(f"  pool {name}: {time.process_time() - t:.0f} s CPU", file=sys.stderr)
        pools[name] = json.loads(f.read_text())
    return pools


def games_doc(pools: dict[str, Any], tension: list[int] | None = None,
              decisions: list[int] | None = None,
              mixed: list[int] | None = None) -> dict[str, Any]:  # fmt: skip
    """The tension, decision and mixed figures (the report's aggregators) of the pools' games
    at the given indices (None: every game, the pool's own value)."""
    from mapkit.design.decisions import GameDecisions, decisions_of
    from mapkit.design.mixed import mixed_of
    from mapkit.design.report import ReportConfig
    from mapkit.design.tension import GameTension, tension_of

    players, threshold = ReportConfig.players, ReportConfig.threshold

    def take(name: str, at: list[int] | None) -> list[Any]:
        units = pools[name]
        return units if at is None else [units[i] for i in at]

    return {
        "tension": tension_of(players, [GameTension(*g) for g in take("tension", tension)]),
        "decisions": decisions_of([GameDecisions(*g) for g in take("decisions", decisions)],
                                  threshold),
        "mixed": mixed_of(players, take("mixed", mixed)),
    }  # fmt: skip


def pooled_figures(pools: dict[str, Any], rep: int) -> dict[str, dict[str, float]]:
    """Repetition ``rep``: the report's figures (its own aggregators) on as many decks and
    games as a report at its defaults, drawn with replacement from the pools, seeded by
    ``rep``; the mixed games a third from each of the lookahead player's seats, as the
    report seats them."""
    import random

    from mapkit.design.difficulty import difficulty_of
    from mapkit.design.report import ReportConfig
    from mapkit.design.skill import skill_of

    cfg = ReportConfig()
    rng = random.Random(f"mapkit-coverage:{rep}")

    def pick(units: object, n: int, blocks: int = 1) -> list[int]:
        size = len(units) // blocks  # type: ignore[arg-type]
        return [b * size + rng.randrange(size) for b in range(blocks) for _ in range(n // blocks)]

    skill, cities = pools["skill"], pools["cities"]
    decks = pick(skill["greedy"], cfg.games)
    scores = {b: [s[i] for i in decks] for b, s in skill.items()}
    own = difficulty_of(scores["greedy"], {c: [s[i] for i in decks] for c, s in cities.items()})
    doc = {"skill": skill_of(scores, len(decks)), "difficulty": own}
    doc |= games_doc(pools, pick(pools["tension"], cfg.tension_games),
                     pick(pools["decisions"], cfg.decision_games),
                     pick(pools["mixed"], cfg.mixed_games, cfg.players))  # fmt: skip
    return leaves({k: v.to_dict() for k, v in doc.items()})


def deck_truth(skill: dict[str, list[int]], cities: dict[str, list[int]]) -> dict[str, float]:
    """The skill and difficulty figures of solo scores on many decks, computed directly (the
    same functions the report calls; the jackknife over 20,000 decks would take hours): the
    luck and skill shares and relative skill only when every bot they need played."""
    from mapkit.design.difficulty import _index
    from mapkit.design.skill import COMPETENT, luck_share, relative_skill, skill_share

    n = len(skill["greedy"])
    truth: dict[str, float] = {f"skill.means.{b}": statistics.fmean(s) for b, s in skill.items()}
    truth["skill.skill_headroom"] = statistics.fmean(
        g - r for g, r in zip(skill["greedy"], skill["random"], strict=True))  # fmt: skip
    if set(COMPETENT) | {"random"} <= set(skill):
        comp = [tuple(skill[b][i] for b in COMPETENT) for i in range(n)]
        truth["skill.luck_share"], truth["skill.skill_share"] = luck_share(comp), skill_share(comp)
        rel = [tuple(skill[b][i] for b in ("random", "lookahead", "clairvoyant"))
               for i in range(n)]  # fmt: skip
        truth["skill.relative_skill"] = relative_skill(rel)
    truth["difficulty.greedy_mean"] = statistics.fmean(skill["greedy"])
    truth |= {f"difficulty.cities.{c}": statistics.fmean(s) for c, s in cities.items()}
    columns = [skill["greedy"], *cities.values()]
    truth["difficulty.index"] = _index([tuple(c[i] for c in columns) for i in range(n)])
    return truth


def pooled_truth(pools: dict[str, Any]) -> dict[str, float]:
    """The pools' own values: the population the repetitions draw from."""
    whole = leaves({k: v.to_dict() for k, v in games_doc(pools).items()})
    return deck_truth(pools["skill"], pools["cities"]) | {k: v["value"] for k, v in whole.items()}


def one_pooled(rep: int) -> dict[str, dict[str, float]]:
    """One ``--pooled`` repetition (in a worker: the pools were set before it forked)."""
    assert _pools is not None
    return pooled_figures(_pools, rep)


def stations_pool(path: str, games: int) -> tuple[Any, list[Any]]:
    """``games`` three-player greedy games of ``POOL_SEED``, replayed for their cuts."""
    from mapkit.design.report import ReportConfig
    from mapkit.design.stations import game_cuts
    from mapkit.engine import Game
    from mapkit.mapfile import load_map
    from mapkit.simulate import RunConfig, simulate

    city, players = load_map(path), ReportConfig.players
    played = simulate(city, RunConfig(("greedy",) * players, games, POOL_SEED, records=True))
    game = Game(city, players=players)
    return game, [game_cuts(game, o.history) for o in played]


def one_stations(rep: int) -> dict[str, dict[str, float]]:
    """One ``--stations-pooled`` repetition: a report's games drawn from the pool, seeded by
    ``rep``, tallied (in a worker: the pool was set before it forked)."""
    import random

    from mapkit.design.report import ReportConfig
    from mapkit.design.stations import tally

    assert _stations is not None
    game, per_game = _stations
    rng = random.Random(f"mapkit-coverage:{rep}")
    drawn = [per_game[rng.randrange(len(per_game))] for _ in range(ReportConfig.games)]
    return leaves({"stations": tally(game, drawn).to_dict()})


_stations: tuple[Any, list[Any]] | None = None
"""The game and the pool's cuts of a ``--stations-pooled`` run, set before the fork."""

_pools: dict[str, Any] | None = None
"""The pools of a ``--pooled`` run, set before the repetitions' pool of processes forks."""


def main() -> None:
    global _pools, _stations
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--map", default=str(ROOT / "maps" / "berlin.json"))
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument(
        "--slow-reps",
        type=int,
        default=100,
        help="repetitions that also measure the slow figures (spread among the others)",
    )
    ap.add_argument("--truth", type=int, default=20_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, help="write every figure's coverage here (JSON)")
    ap.add_argument("--truth-from", type=Path, help="a truth file an earlier run wrote")
    ap.add_argument("--races-only", action="store_true",
                    help="only the races, pacing and stations (kernel games)")  # fmt: skip
    ap.add_argument("--pooled", type=Path, metavar="DIR",
                    help="draw the skill, difficulty, tension, decision and mixed figures' "
                         "decks and games from pools played once (cached in DIR)")  # fmt: skip
    ap.add_argument("--stations-pooled", action="store_true",
                    help="the station figures alone, from --truth games played once")  # fmt: skip
    ap.add_argument("--pool-decks", type=int, default=20_000)
    ap.add_argument("--pool-games", type=int, default=4_000, help="tension and mixed games")
    ap.add_argument("--pool-decisions", type=int, default=1_200, help="decision games")
    args = ap.parse_args()
    t0, c0, load0 = time.time(), time.process_time(), os.getloadavg()
    if args.pooled:
        _pools = build_pools(args.map, args.pooled, args.pool_decks, args.pool_games,
                             args.pool_decisions)  # fmt: skip
        truth = pooled_truth(_pools)
        work: Callable[[Any], dict[str, dict[str, float]]] = one_pooled
        seeds: list[Any] = list(range(args.reps))
        args.slow_reps = 0
    elif args.stations_pooled:
        from mapkit.design.stations import tally

        _stations = stations_pool(args.map, args.truth)
        whole = leaves({"stations": tally(*_stations).to_dict()})
        truth = {k: v["value"] for k, v in whole.items()}
        work, seeds, args.slow_reps = one_stations, list(range(args.reps)), 0
    else:
        cache = Path(f"{args.out}.truth.json") if args.out else None
        if args.truth_from:
            cache = args.truth_from
        if cache is not None and cache.exists():
            truth = json.loads(cache.read_text())
        else:
            truth = truth_of(args.map, args.truth, args.races_only)
            if cache is not None:
                cache.write_text(json.dumps(truth))
        # the slow repetitions spread evenly among the others, so a run stopped early has both
        every = max(1, args.reps // max(1, args.slow_reps))
        work = one_report
        seeds = [(args.map, 1000 + rep, None if args.races_only else
                  rep % every == 0 and rep // every < args.slow_reps)
                 for rep in range(args.reps)]  # fmt: skip
    with Pool(args.jobs) as pool:
        reps = []
        for i, r in enumerate(pool.imap(work, seeds)):
            reps.append(r)
            if (i + 1) % 50 == 0:
                print(f"  {i + 1} repetitions, {time.time() - t0:.0f} s", file=sys.stderr)
                if args.out:
                    summary(reps, truth, args, t0, c0, load0, quiet=True)
    summary(reps, truth, args, t0, c0, load0)


def summary(reps, truth, args, t0, c0, load0, quiet=False) -> None:  # type: ignore[no-untyped-def]
    """Print (unless ``quiet``) and write each figure's coverage over the repetitions so far,
    with its Monte Carlo standard error ``sqrt(c (1 - c) / n)`` over its ``n`` repetitions.
    A figure whose truth is exactly 0 (a station never cut in the truth's games) is left out
    and counted: every interval from 0 covers it, so its coverage says nothing (the report's
    ``[0, hi]`` there is an upper bound)."""
    slow_reps = sum(1 for r in reps if "decisions.share" in r)
    cover: dict[str, dict[str, float]] = {}
    undefined = 0
    for k in reps[0]:
        slow = k.startswith(SLOW) and k not in truth
        have = [r[k] for r in reps if k in r]
        if (not slow and k not in truth) or len(have) < (slow_reps if slow else len(reps)):
            continue
        if not slow and truth[k] == 0:
            undefined += 1
            continue
        mean = statistics.fmean(e["value"] for e in have)
        t = mean if slow else truth[k]
        c = sum(e["lo"] <= t <= e["hi"] for e in have) / len(have)
        se = (c * (1 - c) / len(have)) ** 0.5
        cover[k] = {"coverage": c, "mc_se": se, "reps": len(have), "truth": t, "mean": mean}
    fams: dict[str, list[dict[str, float]]] = defaultdict(list)
    for k, c in cover.items():
        fams[family(k)].append(c)
    out = []
    for f, cs in fams.items():
        cs.sort(key=lambda c: c["coverage"])
        lo, hi = cs[0], cs[-1]
        span = (f"{lo['coverage']:.1%} (se {lo['mc_se']:.1%})" if len(cs) == 1 else
                f"{lo['coverage']:.1%} to {hi['coverage']:.1%}")  # fmt: skip
        med = statistics.median(c["coverage"] for c in cs)
        out.append(f"{f:<40} {len(cs):>3}  {span:<22} median {med:.1%}  n {lo['reps']:.0f}")
    values = sorted(c["coverage"] for c in cover.values())
    far = sum(abs(c["coverage"] - 0.95) > 0.02 + 2 * c["mc_se"] for c in cover.values())
    out.append(
        f"{len(values)} figures, {len(reps)} repetitions ({slow_reps} for the slow figures): "
        f"coverage {values[0]:.1%} to {values[-1]:.1%}, median {statistics.median(values):.1%}; "
        f"{sum(0.93 <= v <= 0.97 for v in values)} within 93-97 %, "
        f"{far} outside it by more than 2 Monte Carlo se; {undefined} with a truth of 0 "
        "(undefined)"
    )
    wall, cpu = time.time() - t0, time.process_time() - c0
    out.append(
        f"wall {wall:.0f} s (main process CPU {cpu:.0f} s), load before {load0[0]:.2f}, "
        f"now {os.getloadavg()[0]:.2f}, {args.jobs} jobs on {os.cpu_count()} cores"
    )
    if not quiet:
        print("\n".join(out))
    if args.out:
        doc = {"map": args.map, "reps": len(reps), "slow_reps": slow_reps, "coverage": cover,
               "summary": out}  # fmt: skip
        args.out.write_text(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
