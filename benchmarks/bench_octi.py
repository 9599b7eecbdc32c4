"""mapkit layout against a clean-room baseline of octi's published method, on the same networks.

Run by hand: ``python benchmarks/bench_octi.py [--seed N] [--time-limit S]``. The networks:
every map in maps/ and benchmarks/maps/, each also jittered as bench_layout.py jitters it (each
station moved by up to a third of the median stop spacing, seeded), and the Los Angeles Metro
Rail import (``mapkit import gtfs tests/data/la-metro-rail.zip --no-layout``: its projected
geography). For each one it runs benchmarks/octi_baseline.py (Bast, Brosi and Storandt's
approximation as published, reimplemented here; not octi itself) on each grid size and keeps
the drawing with the fewest topology violations, then the lowest bend score (the choice most
favourable to the baseline among its most faithful drawings), and ``mapkit.layout.layout`` with
its defaults. Both drawings are maps, measured by the same function (mapkit/layout/report.py's
``measure``): bend score under octi's weights (135° = 1, 90° = 1.5, 45° = 2), hairpins, share
of stretches on the eight directions, topology violations against the input; edge crossings are
counted on the drawn polylines (bends included) by :func:`drawn_crossings`, for both; "close"
is how many of validate's print-scale problems between stations and lines (GEO001, GEO002,
GEO007 on A4 and Letter: ``engine.sheet_problems``) the drawing has. Times are
in-process: the baseline's for its chosen grid and for all its grids, mapkit's for the whole
call (wagons and report included).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))


def drawn_crossings(city) -> int:
    """Pairs of stretches whose drawn polylines cross (or touch) away from a shared station."""
    from mapkit.layout.network import build_network
    from mapkit.layout.report import drawn_crossings as pairs

    return len(pairs(build_network(city), city))


def networks(seed: int):
    """(label, map document) for every network compared."""
    from bench_layout import _jittered, _maps

    from mapkit.importers import ImportConfig, network_to_map, read_gtfs

    for path in _maps():
        doc = json.loads(path.read_text(encoding="utf-8"))
        yield path.stem, doc
        yield path.stem + " jittered", _jittered(doc, seed)
    feed = ROOT / "tests" / "data" / "la-metro-rail.zip"
    yield "la-metro (import)", network_to_map(read_gtfs(feed), ImportConfig(layout=False)).doc


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=None, help="jitter seed (default: fresh)")
    ap.add_argument("--time-limit", type=float, default=20.0, help="mapkit layout's limit")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    print(f"seed {seed}, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    import octi_baseline as ob

    from mapkit.layout import LayoutConfig, LayoutError, layout
    from mapkit.layout.engine import sheet_problems
    from mapkit.layout.report import measure
    from mapkit.mapfile import load_source, writer

    print(
        f"{'network':<22} {'n':>3} | baseline (grid): {'bends':>6} {'hairp':>5} {'octi':>5} "
        f"{'cross':>5} {'topo':>4} {'close':>5} {'time':>6} {'all':>6} | mapkit: {'bends':>6} "
        f"{'hairp':>5} {'octi':>5} {'cross':>5} {'topo':>4} {'close':>5} {'time':>6}"
    )
    totals = {"baseline": 0.0, "mapkit": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        for label, doc in networks(seed):
            src = Path(tmp) / "in.json"
            src.write_text(writer.dumps(doc))
            city = load_source(src.read_bytes(), str(src)).map
            reports = {}

            def score(d, city=city, reports=reports):
                rep = reports.setdefault(id(d), measure(city, d.city, d.seconds))
                return rep.topology_violations, rep.bend_score

            try:
                best, tried = ob.best_of_grids(city, doc, score)
                base = reports[id(best)]
                base_cols = (
                    f"({best.cell_share:4g}) {base.bend_score:6g} {base.hairpins:>5} "
                    f"{base.octilinear_share:5.0%} {drawn_crossings(best.city):>5} "
                    f"{base.topology_violations:>4} {len(sheet_problems(best.city)):>5} "
                    f"{best.seconds:5.1f}s "
                    f"{sum(d.seconds for d in tried):5.1f}s"
                )
                note = "" if best.relaxed == 0 else f"  (baseline relaxed {best.relaxed} edges)"
            except ob.RoutingError as exc:
                base, base_cols, note = None, f"{'no drawing':>58}", f"  (baseline: {exc})"
            t = time.perf_counter()
            try:
                res = layout(city, LayoutConfig(time_limit=args.time_limit), doc=doc)
            except LayoutError as exc:
                print(f"{label:<22} {len(city.stations):>3} | {base_cols} | mapkit refused: {exc}")
                continue
            took = time.perf_counter() - t
            rep = res.report
            if base is not None:
                totals["baseline"] += base.bend_score
                totals["mapkit"] += rep.bend_score
            print(
                f"{label:<22} {len(city.stations):>3} | {base_cols} | mapkit: "
                f"{rep.bend_score:6g} {rep.hairpins:>5} {rep.octilinear_share:5.0%} "
                f"{drawn_crossings(res.city):>5} {rep.topology_violations:>4} "
                f"{len(sheet_problems(res.city)):>5} {took:5.1f}s{note}"
            )
    print(
        "bend score summed over the networks both drew: "
        + ", ".join(f"{k} {v:g}" for k, v in totals.items())
    )


if __name__ == "__main__":
    main()
