"""In-process validate time per map (target: under 50 ms after import), and what it reports.

Run by hand: ``python benchmarks/bench_validate.py``. Covers the shipped maps that exist and
the Metro X benchmark maps in benchmarks/maps/.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _maps() -> list[Path]:
    shipped = sorted((ROOT / "maps").glob("*.json"))
    shared = sorted((ROOT / "benchmarks" / "maps").glob("*.json"))
    return shipped + shared


def main() -> None:
    t0 = time.perf_counter()
    import shapely  # noqa: F401  (import time is not part of the per-map figure)

    from mapkit.checks import validate_source
    from mapkit.checks.completion import completion_chance, min_windows

    maps = _maps()
    if maps:
        validate_source(maps[0].read_bytes())  # loads networkx and jsonschema lazily
    print(f"import and first use: {(time.perf_counter() - t0) * 1000:.0f} ms")
    print(f"{'map':<28} {'first':>8} {'median':>8} {'max':>8}  findings")
    for path in maps:
        data = path.read_bytes()
        completion_chance.cache_clear()
        min_windows.cache_clear()
        t = time.perf_counter()
        report = validate_source(data, str(path))
        first = (time.perf_counter() - t) * 1000
        runs = []
        for _ in range(20):
            completion_chance.cache_clear()
            min_windows.cache_clear()
            t = time.perf_counter()
            validate_source(data, str(path))
            runs.append((time.perf_counter() - t) * 1000)
        codes = ", ".join(report.codes()) or "clean"
        print(
            f"{path.name:<28} {first:7.1f}m {statistics.median(runs):7.1f}m "
            f"{max(runs):7.1f}m  {codes}"
        )
    print("(times in ms; caches cleared before every run, so these are cold figures)")


if __name__ == "__main__":
    main()
