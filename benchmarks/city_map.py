"""A realistic big city for ``mapkit layout``: seeded, deterministic, up to 400 stations.

``city_map(stations, lines, seed)`` draws a city as an import from real data would give it:
``lines`` lines (at most 26) of 10-30 stops, most of them diametral (from a terminus on the
edge through the centre to the other side, each on a gently curving course), a few
tangential ones crossing them away from the centre; stops about one spacing apart along
each course with some jitter, so the stations sit at "geographic", non-octilinear places;
where a course passes an existing station (another line's) it stops there: the
interchanges, many in the centre. Lines are drawn until they hold ``stations`` stations, then
termini cut off until they hold exactly that many (fewer when ``lines`` lines cannot).

Run by hand: ``python benchmarks/city_map.py [--stations N] [--lines L] [--seed S] [-o OUT]``
writes the map (default 400 stations, 26 lines, seed 1, to stdout). ``bench_layout.py``
lays it out at several sizes; tests lay out a small one.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from typing import Any

from mapkit.checks.colour import PALETTE

SPACING = 10.0
"""Map units between consecutive stops, before the jitter."""
SNAP = 0.6
"""A course passing within this share of a spacing of another line's station stops there."""
MIN_STOPS, MAX_STOPS = 10, 30
MORE_COLORS = [
    "#e3001b", "#0065ae", "#00a44f", "#f39200", "#8e4a97", "#00a0d6", "#a0522d", "#e5007d",
    "#7cb92c", "#b8860b", "#2e8b57", "#4b0082", "#d2691e", "#008b8b", "#800000",
]  # fmt: skip
COLORS = [*PALETTE.values(), *MORE_COLORS]
"""validate's recommended palette first (every pair tells apart: DES003), then more for a
city with more lines than it has (those may warn)."""


def _course(rng: random.Random, k: int, lines: int, radius: float) -> tuple[float, float, float]:
    """Start point and heading of line ``k``: diametral lines start on the edge heading
    for (near) the centre, every fourth one is tangential, starting off-centre."""
    theta = math.pi * k / lines * 2.0 + rng.uniform(-0.25, 0.25)
    if k % 4 == 3:  # tangential: from the edge, passing the centre at a distance
        r = radius * rng.uniform(0.8, 1.0)
        x, y = r * math.cos(theta), r * math.sin(theta)
        heading = theta + math.pi + rng.choice((-1, 1)) * rng.uniform(0.5, 0.8)
        return x, y, heading
    r = radius * rng.uniform(0.75, 1.0)
    x, y = r * math.cos(theta), r * math.sin(theta)
    return x, y, theta + math.pi + rng.uniform(-0.2, 0.2)


def _trim(lines: list[dict[str, Any]], stations: int) -> None:
    """Termini served by one line only cut off (the last line's first, then the others',
    from the longest line) until the lines hold ``stations`` stations, no line below
    ``MIN_STOPS`` stops."""
    count: dict[int, int] = {}
    for ln in lines:
        for s in ln["stops"]:
            count[s] = count.get(s, 0) + 1
    while len(count) > stations:
        for ln in sorted(lines, key=lambda ln: -len(ln["stops"])):
            stops = ln["stops"]
            end = next((i for i in (-1, 0) if count[stops[i]] == 1), None)
            if len(stops) > MIN_STOPS and end is not None:
                del count[stops.pop(end)]
                break
        else:
            return


def city_map(stations: int = 400, lines: int = 26, seed: int = 1) -> dict[str, Any]:
    """The map document (see the module's docstring). ``lines`` at most 26; ``stations``
    between 10 and 400 (the schema's bound)."""
    if not 1 <= lines <= 26 or not MIN_STOPS <= stations <= 400:
        raise ValueError("1-26 lines and 10-400 stations")
    rng = random.Random(seed)
    # a city whose area holds the stations at about one spacing apart
    radius = SPACING * math.sqrt(stations / math.pi) * 1.3
    xy: list[tuple[float, float]] = []
    grid: dict[tuple[int, int], list[int]] = {}

    def near(x: float, y: float, used: set[int], reach: float) -> int | None:
        cx, cy = int(x // SPACING), int(y // SPACING)
        best, best_d = None, reach
        for gx in range(cx - 1, cx + 2):
            for gy in range(cy - 1, cy + 2):
                for i in grid.get((gx, gy), ()):
                    d = math.dist(xy[i], (x, y))
                    if i not in used and d < best_d:
                        best, best_d = i, d
        return best

    def add(x: float, y: float) -> int:
        xy.append((x, y))
        grid.setdefault((int(x // SPACING), int(y // SPACING)), []).append(len(xy) - 1)
        return len(xy) - 1

    out_lines = []
    # stops per line so that the lines together hold the stations with about a third shared
    mean = min(MAX_STOPS, max(MIN_STOPS, round(stations * 1.8 / lines)))
    for k in range(lines):
        if len(xy) >= stations:
            break
        want = max(MIN_STOPS, min(MAX_STOPS, mean + rng.randint(-5, 5)))
        x, y, heading = _course(rng, k, lines, radius)
        bend = rng.uniform(-0.06, 0.06)
        stops: list[int] = []
        while len(stops) < want:
            at = near(x, y, set(stops), SPACING * SNAP)
            stops.append(add(x, y) if at is None else at)
            step = SPACING * rng.uniform(0.8, 1.2)
            heading += bend + rng.uniform(-0.12, 0.12)
            x += step * math.cos(heading)
            y += step * math.sin(heading)
            if math.hypot(x, y) > radius * 1.25 and len(stops) >= MIN_STOPS:
                break
        lid = chr(ord("A") + len(out_lines))
        out_lines.append(
            {"id": lid, "name": f"Line {lid}", "color": COLORS[len(out_lines)],
             "stops": stops}
        )  # fmt: skip
    _trim(out_lines, stations)
    for ln in out_lines:
        first = xy[ln["stops"][0]]
        ln["depot"] = {"x": round(first[0] - 4.0, 3), "y": round(first[1], 3)}
        ln["windows"] = max(2, round(len(ln["stops"]) / 4))
        ln["points"] = {"first": max(2, len(ln["stops"]) // 3), "others": 1}
        ln["stops"] = [f"c{i}" for i in ln["stops"]]
    used = sorted({s for ln in out_lines for s in ln["stops"]}, key=lambda s: int(s[1:]))
    docs = [
        {"id": sid, "x": round(xy[int(sid[1:])][0], 3), "y": round(xy[int(sid[1:])][1], 3),
         "name": f"Station {sid[1:]}"}
        for sid in used
    ]  # fmt: skip
    return {
        "format": "mapkit-map/1", "id": f"city-{stations}-{lines}-{seed}",
        "name": f"Big City {stations}", "stations": docs, "lines": out_lines,
    }  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stations", type=int, default=400)
    ap.add_argument("--lines", type=int, default=26)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", help="default: stdout")
    args = ap.parse_args()
    text = json.dumps(city_map(args.stations, args.lines, args.seed), indent=1)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
