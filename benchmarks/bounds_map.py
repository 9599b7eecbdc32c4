"""A map at every bound of the schema, and how long ``mapkit validate`` takes on it.

Run by hand: ``python benchmarks/bounds_map.py`` (target: under 2 s, whole process and
in-process). ``bounds_map()`` is also what tests/test_limits.py checks the bounds with.
400 stations on a 20 x 20 grid, 26 lines of 100 stops each with a 398-point shape,
8 windows and 100 points a line, the longest names the schema allows.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SIDE = 20  # stations per grid row: SIDE * SIDE = 400, the schema's maxItems


def _snake(k: int) -> list[tuple[int, int]]:
    """100 distinct grid cells in boustrophedon order, starting at a different row per line."""
    cells = []
    for row in range(SIDE):
        cols = range(SIDE) if row % 2 == 0 else range(SIDE - 1, -1, -1)
        cells += [(c, row) for c in cols]
    start = (k * 11) % (len(cells) - 100)
    return cells[start : start + 100]


def bounds_map() -> dict[str, Any]:
    stations = [
        {"id": f"s{c}-{r}", "x": c * 10, "y": r * 10, "name": f"{'N' * 54}{c:03d}{r:03d}",
         "special": (c + r) % 7 == 0}
        for r in range(SIDE)
        for c in range(SIDE)
    ]  # fmt: skip
    letters = [chr(ord("A") + i) for i in range(26)]
    lines = []
    for k, lid in enumerate(letters):
        cells = _snake(k)
        depot = (-30.0 - 2 * k, cells[0][1] * 10.0)
        shape = [list(depot)]
        pts = [(c * 10.0, r * 10.0) for c, r in cells]
        for i, p in enumerate(pts):
            shape.append(list(p))
            if i + 1 < len(pts):
                q = pts[i + 1]
                step = ((q[0] - p[0]) / 4, (q[1] - p[1]) / 4)
                shape += [[p[0] + step[0] * t, p[1] + step[1] * t] for t in (1, 2, 3)]
        lines.append(
            {"id": lid, "name": "L" * 40, "color": f"#{(k * 9) % 256:02x}{(k * 37) % 256:02x}80",
             "windows": 8, "points": {"first": 100, "others": 0},
             "depot": {"x": depot[0], "y": depot[1], "max_width_mm": 1000},
             "stops": [f"s{c}-{r}" for c, r in cells], "shape": shape}
        )  # fmt: skip
    return {
        "format": "mapkit-map/1", "id": "b" * 64, "name": "B" * 80,
        "description": "D" * 10000, "author": "A" * 80,
        "sheet": {"color": "#ffffff", "subtitle": "S" * 80},
        "stations": stations, "lines": lines,
    }  # fmt: skip


def legal_map(side: int = 20, rows: int = 7, cols: int = 7, step: float = 10.0) -> dict[str, Any]:
    """The biggest map of this kind that validates on A4 (``bench_bounds.py`` tunes it): a
    ``side`` x ``side`` grid of which ``rows`` rows and ``cols`` columns are lines of ``side``
    stops (231 stations, 14 lines, the scoring panel's most on A4, 42 windows). A 21-wide grid
    puts stations too close at print scale (GEO002); the bounds map does not validate at all."""
    at_rows = [round(i * (side - 1) / (rows - 1)) for i in range(rows)]
    at_cols = [round(i * (side - 1) / (cols - 1)) for i in range(cols)]
    cells = {(c, r) for r in at_rows for c in range(side)}
    cells |= {(c, r) for c in at_cols for r in range(side)}
    stations = [
        {"id": f"s{c}-{r}", "x": c * step, "y": r * step, "name": f"S{c}-{r}"}
        for c, r in sorted(cells, key=lambda p: (p[1], p[0]))
    ]
    paths = [((-3 * step, r * step), [(c, r) for c in range(side)]) for r in at_rows]
    paths += [
        ((c * step, -(3 + 2 * (k % 2)) * step), [(c, r) for r in range(side)])  # staggered wagons
        for k, c in enumerate(at_cols, start=len(at_rows))
    ]
    lines = [
        {"id": chr(ord("A") + k), "color": f"#{(k * 9) % 256:02x}{(k * 37) % 256:02x}80",
         "windows": 3, "points": {"first": 5 + k % 7, "others": 1 + k % 3},
         "depot": {"x": depot[0], "y": depot[1]}, "stops": [f"s{c}-{r}" for c, r in stops]}
        for k, (depot, stops) in enumerate(paths)
    ]  # fmt: skip
    return {"format": "mapkit-map/1", "id": "big-legal", "name": "Big legal",
            "stations": stations, "lines": lines}  # fmt: skip


def fuzzed_map(seed: int, side: int = 12, step: float = 16.0) -> dict[str, Any]:
    """A random 26-line map (the attack of issue 21): ``side`` x ``side`` stations, each line
    a random walk of 3 to 40 grid neighbours with 1 to 8 windows and random points."""
    import random

    rng = random.Random(seed)
    stations = [
        {"id": f"s{c}-{r}", "x": c * step, "y": r * step, "name": f"S{c}-{r}"}
        for r in range(side)
        for c in range(side)
    ]
    lines = []
    for k in range(26):
        c, r = rng.randrange(side), rng.randrange(side)
        walk = [(c, r)]
        for _ in range(rng.randint(3, 40) - 1):
            steps = [(c + dc, r + dr) for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            free = [p for p in steps if 0 <= p[0] < side and 0 <= p[1] < side and p not in walk]
            if not free:
                break
            c, r = rng.choice(free)
            walk.append((c, r))
        first = rng.randint(1, 20)
        points = {"first": first, "others": rng.randint(0, first)}
        depot = {"x": walk[0][0] * step - 5, "y": walk[0][1] * step - 5}
        lines.append(
            {"id": chr(ord("A") + k), "name": f"Line {k + 1}",
             "color": f"#{rng.randrange(1 << 24):06x}", "windows": rng.randint(1, 8),
             "points": points, "depot": depot, "stops": [f"s{c}-{r}" for c, r in walk]}
        )  # fmt: skip
    return {"format": "mapkit-map/1", "id": f"fuzz-{seed}", "name": f"Fuzzed {seed}",
            "stations": stations, "lines": lines}  # fmt: skip


def main() -> None:
    import os
    import tempfile

    text = json.dumps(bounds_map(), indent=1)
    print(f"map at the bounds: {len(text) / 1024:.0f} KiB; load {os.getloadavg()[0]:.2f}")
    from mapkit.checks import validate_source

    validate_source(text)  # imports and lazy caches, not part of the figure
    t = time.perf_counter()
    report = validate_source(text, "bounds.json")
    took = time.perf_counter() - t
    print(f"in-process validate: {took:.2f} s ({len(report.diagnostics)} diagnostics)")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        fh.write(text)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mapkit", "validate", fh.name],
                   capture_output=True, cwd=ROOT, check=False)  # fmt: skip
    print(f"whole process `mapkit validate`: {time.perf_counter() - t:.2f} s")
    os.unlink(fh.name)


if __name__ == "__main__":
    main()
