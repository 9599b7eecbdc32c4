"""Rendering speed: one sheet as SVG in-process, and a 10-copy PDF pad.

Targets (issue 3): SVG under 100 ms, 10-copy PDF pad under 1 s.
Run: python benchmarks/bench_render.py [MAP ...]  (default: the shipped cities,
else the fixture map in tests/golden/).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from mapkit.mapfile import load_map
from mapkit.render.export import svgs_to_pdf
from mapkit.render.svg import sheet_svg
from mapkit.resources import shipped_maps

ROOT = Path(__file__).resolve().parent.parent


def timed(fn, repeat: int) -> tuple[float, float]:
    """(median, best) wall time in seconds over ``repeat`` runs after one warm-up."""
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times)


def main(args: list[str]) -> None:
    paths = [Path(a) for a in args] or shipped_maps() or [ROOT / "tests/golden/fixture-city.json"]
    print(f"{'map':<16}{'svg ms':>9}{'+labels':>9}{'gray':>9}{'pdf pad x10 s':>15}{'KB':>7}")
    for path in paths:
        city = load_map(path)
        svg_ms, _ = timed(lambda c=city: sheet_svg(c), 20)
        lab_ms, _ = timed(lambda c=city: sheet_svg(c, labels=True), 10)
        gray_ms, _ = timed(lambda c=city: sheet_svg(c, grayscale=True), 10)

        def pad(c=city) -> bytes:
            return svgs_to_pdf([sheet_svg(c).svg] * 10)

        pad_s, _ = timed(pad, 3)
        size = len(pad()) / 1024
        print(
            f"{city.id:<16}{svg_ms * 1000:>9.1f}{lab_ms * 1000:>9.1f}{gray_ms * 1000:>9.1f}"
            f"{pad_s:>15.3f}{size:>7.0f}"
        )
    print("targets: svg < 100 ms, pdf pad of 10 copies < 1 s (each including the SVG drawing)")


if __name__ == "__main__":
    main(sys.argv[1:])
