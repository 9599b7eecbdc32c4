"""Reference yardsticks for the bots, in plain Python and independent of the engine.

Two solo simulators of the full rules (number, express, interchange, free ride,
reshuffle after the ruleset's reshuffle card; solo scoring: completed lines score ``first``,
interchange numbers count double, minus the ruleset's penalty for the empty stations). The
deck and the penalty are the facts of a ruleset (``mapkit.rulesets``: the map's, or
``--ruleset``); the play is written here, independent of the engine:

* ``random``: a uniformly random line with an empty window, as many crosses as
  the card allows; a free ride marks a uniformly random empty station.
* ``maxfit``: the fan heuristic: complete a line now, else use the card exactly
  (a run of exactly the card's value), else the longest run. Interchange: the
  line whose next station carries the highest count. Free ride: the station
  that completes the most valuable line, else one on the line closest to done.

Loop lines and the special-station variant are out of scope (Metro City has
neither); the bots in ``mapkit.bots`` play every rule through the engine.

Run: ``python benchmarks/maxfit.py [MAP.json] [--games N] [--seed S] [--ruleset NAME]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from mapkit import cards
from mapkit.rulesets import Ruleset, get_ruleset, ruleset_from_doc

NUMBER, EXPRESS, PLUS, FREE = 0, 1, 2, 3


def deck_of(ruleset: Ruleset) -> list[tuple[int, int, bool]]:
    """The ruleset's pile as (kind, value, reshuffles) triples."""
    out = []
    for k in ruleset.deck:
        kind = (
            PLUS if k == cards.PLUS else FREE if k == cards.FREE
            else EXPRESS if cards.CARD_EXPRESS[k] else NUMBER
        )  # fmt: skip
        out.append((kind, cards.CARD_VALUE[k], k == ruleset.reshuffle))
    return out


METRO_CITY = Path(__file__).resolve().parent / "maps" / "metro-city.json"


class City:
    """A map reduced to integers: stops per line, windows, bonus, station counts."""

    def __init__(self, doc: dict, ruleset: Ruleset) -> None:
        self.deck = deck_of(ruleset)
        self.penalty = ruleset.penalty
        ids = [s["id"] for s in doc["stations"]]
        index = {sid: i for i, sid in enumerate(ids)}
        self.n = len(ids)
        self.stops = [[index[s] for s in ln["stops"]] for ln in doc["lines"]]
        self.windows = [int(ln["windows"]) for ln in doc["lines"]]
        self.first = [int(ln["points"]["first"]) for ln in doc["lines"]]
        count = [0] * self.n
        for stops in self.stops:
            for s in stops:
                count[s] += 1
        self.count = count
        self.lines_at = [[li for li, st in enumerate(self.stops) if s in st] for s in range(self.n)]
        if any(ln.get("loop") for ln in doc["lines"]):
            raise SystemExit("maxfit.py handles open lines only (no loops)")


def _run(stops: list[int], marked: set[int], kind: int, value: int) -> list[int]:
    """The stations a full use of the card marks on a line (rules-notes 1-3)."""
    out: list[int] = []
    i, n = 0, len(stops)
    while i < n and stops[i] in marked:
        i += 1
    while i < n and len(out) < value:
        s = stops[i]
        if s in marked:
            if kind != EXPRESS:
                break
        else:
            out.append(s)
        i += 1
    return out


def _score(city: City, marked: set[int], inter: int) -> int:
    lines = sum(f for f, st in zip(city.first, city.stops, strict=True) if marked.issuperset(st))
    return lines + 2 * inter - city.penalty(city.n - len(marked), 1)


def play_random(city: City, rng: random.Random) -> int:
    marked: set[int] = set()
    windows = city.windows[:]
    open_lines = [i for i, w in enumerate(windows) if w]
    deck = city.deck[:]
    rng.shuffle(deck)
    pos = inter = 0
    rand = rng.random
    while open_lines:
        kind, value, reshuffle = deck[pos]
        pos += 1
        if kind == FREE:
            empty = [s for s in range(city.n) if s not in marked]
            if empty:
                marked.add(empty[int(rand() * len(empty))])
        else:
            li = open_lines[int(rand() * len(open_lines))]
            windows[li] -= 1
            if not windows[li]:
                open_lines.remove(li)
            if kind == PLUS:
                for s in city.stops[li]:
                    if s not in marked:
                        marked.add(s)
                        inter += city.count[s]
                        break
            else:
                marked.update(_run(city.stops[li], marked, kind, value))
        if reshuffle:
            rng.shuffle(deck)
            pos = 0
    return _score(city, marked, inter)


def _empties(stops: list[int], marked: set[int]) -> int:
    return sum(1 for s in stops if s not in marked)


def play_maxfit(city: City, rng: random.Random) -> int:
    marked: set[int] = set()
    windows = city.windows[:]
    open_lines = [i for i, w in enumerate(windows) if w]
    deck = city.deck[:]
    rng.shuffle(deck)
    pos = inter = 0
    stops_of, first = city.stops, city.first
    while open_lines:
        kind, value, reshuffle = deck[pos]
        pos += 1
        if kind == FREE:
            best, best_key = None, None
            for li, stops in enumerate(stops_of):
                left = [s for s in stops if s not in marked]
                if not left:
                    continue
                key = (len(left) == 1, first[li] if len(left) == 1 else -len(left), rng.random())
                if best_key is None or key > best_key:
                    best, best_key = left[0], key
            if best is not None:
                marked.add(best)
        else:
            best_li, best_key, best_run = -1, None, []
            for li in open_lines:
                stops = stops_of[li]
                left = _empties(stops, marked)
                if kind == PLUS:
                    nxt = next((s for s in stops if s not in marked), None)
                    run = [] if nxt is None else [nxt]
                    gain = 0 if nxt is None else city.count[nxt]
                    key = (left == 1, gain, rng.random())
                else:
                    run = _run(stops, marked, kind, value)
                    key = (
                        bool(run) and len(run) == left,
                        len(run) == value,
                        len(run),
                        rng.random(),
                    )
                if best_key is None or key > best_key:
                    best_li, best_key, best_run = li, key, run
            windows[best_li] -= 1
            if not windows[best_li]:
                open_lines.remove(best_li)
            if kind == PLUS and best_run:
                inter += city.count[best_run[0]]
            marked.update(best_run)
        if reshuffle:
            rng.shuffle(deck)
            pos = 0
    return _score(city, marked, inter)


POLICIES = {"random": play_random, "maxfit": play_maxfit}


def measure(city: City, policy: str, games: int, seed: int) -> tuple[float, float, float]:
    """(games per second, mean score, standard error of the mean)."""
    play = POLICIES[policy]
    rng = random.Random(seed)
    t0 = time.perf_counter()
    scores = [play(city, rng) for _ in range(games)]
    dt = time.perf_counter() - t0
    mean = statistics.fmean(scores)
    se = statistics.stdev(scores) / games**0.5 if games > 1 else 0.0
    return games / dt, mean, se


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("map", nargs="?", default=str(METRO_CITY))
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", help="default: the map's own")
    args = ap.parse_args()
    doc = json.loads(Path(args.map).read_text(encoding="utf-8"))
    ruleset = get_ruleset(args.ruleset) if args.ruleset else ruleset_from_doc(doc.get("ruleset"))
    city = City(doc, ruleset)
    print(f"{doc['name']}, {ruleset.id}, {args.games} games, seed {args.seed}")
    for policy in POLICIES:
        rate, mean, se = measure(city, policy, args.games, args.seed)
        print(f"{policy:7s} {rate:9.0f} games/s   mean solo score {mean:6.2f} ± {se:.2f} (s.e.)")


if __name__ == "__main__":
    main()
