"""mapkit layout: time and quality on the shipped cities, the Metro X sheets and the bound map.

Run by hand: ``python benchmarks/bench_layout.py [--seed N] [--time-limit S]``. For every map
in maps/ and benchmarks/maps/ it lays out the map as it is and a copy whose stations are
jittered (each moved by up to a third of the median stop spacing, seeded: a drawing that is
not octilinear, as an imported network is), in-process and as a whole ``mapkit layout``
process, with and without ``--quick`` (the faithful search alone, no polish), and prints the
layout report's figures: share of stretches on the eight directions,
bend score (octi's weights: 135° = 1, 90° = 1.5, 45° = 2), hairpins, topology violations,
wagons without 1.5 mm of paper, and whether the result passes ``validate --strict`` on A4 and
Letter. Then the map at
every schema bound (400 stations, 26 lines of 100 stops) and benchmarks/city_map.py's
realistic city at ``--city-sizes`` stations (``--city-seeds``): time, peak memory and
outcome of the whole process at the default limit and at ``--bound-limit``
(``--only-big``: these alone). Targets: <= 1 s whole process for a 70-100-station map
(heuristic), <= 10 s with the repair, 0 topology violations.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))


def _maps() -> list[Path]:
    return sorted((ROOT / "maps").glob("*.json")) + sorted(
        (ROOT / "benchmarks" / "maps").glob("*.json")
    )


def _jittered(doc: dict, seed: int) -> dict:
    rng = random.Random(seed)
    xy = {s["id"]: (s["x"], s["y"]) for s in doc["stations"]}
    gaps = sorted(
        math.dist(xy[a], xy[b])
        for ln in doc["lines"]
        for a, b in zip(ln["stops"], ln["stops"][1:], strict=False)
    )
    r = gaps[len(gaps) // 2] / 3
    out = json.loads(json.dumps(doc))
    for s in out["stations"]:
        s["x"] = round(s["x"] + rng.uniform(-r, r), 3)
        s["y"] = round(s["y"] + rng.uniform(-r, r), 3)
    for ln in out["lines"]:
        ln.pop("shape", None)  # its points would no longer pass through the moved stops
    return out


def _whole_process(
    path: Path, out: Path, limit: float | None, quick: bool = False
) -> tuple[float, float, float, int, str]:
    """(wall seconds, CPU seconds (user + sys), peak MiB, exit code, last stderr line) of one
    ``mapkit layout`` process (``limit``: its ``--time-limit``, None for the default;
    ``quick``: with ``--quick``, the faithful search alone). The peak is GNU time's: a
    child forked from this process would report this process's own peak (Linux keeps the
    high-water mark across fork and exec), and by the shipped maps' turn that is ~140 MiB."""
    args = [sys.executable, "-m", "mapkit", "layout", str(path), "-o", str(out)]
    if quick:
        args.append("--quick")
    if limit is not None:
        args += ["--time-limit", str(limit)]
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as peak:
        t = time.perf_counter()
        proc = subprocess.Popen(
            ["/usr/bin/time", "-q", "-f", "%M", "-o", peak.name, *args],
            stdout=subprocess.DEVNULL, stderr=err, env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        _, status, used = os.wait4(proc.pid, 0)  # time's usage, its child's included
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        lines = err.read().decode("utf-8", "replace").splitlines()
        kib = float(peak.read().split()[-1])
    return (wall, used.ru_utime + used.ru_stime, kib / 1024, proc.returncode,
            lines[-1] if lines else "")  # fmt: skip


def _spacing_ratio(city) -> float:
    """The worst line's longest over shortest stop spacing (validate's DES006 measure)."""
    from mapkit.checks.design import layout_figures

    worst = 0.0
    for ln in city.lines:
        _, short, long = layout_figures(city, ln)
        worst = max(worst, long / short if short > 0 else math.inf)
    return worst


def _strict_ok(path: Path) -> bool:
    from mapkit.checks import validate_path
    from mapkit.notices import Severity

    for paper in ("a4", "letter"):
        rep = validate_path(path, paper=paper)
        bad = [d for d in rep.diagnostics if d.severity is not Severity.INFO]
        if bad:
            return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=None, help="jitter seed (default: fresh)")
    ap.add_argument("--time-limit", type=float, default=None, help="default: the layout's")
    ap.add_argument("--bound-limit", type=float, default=5.0, help="time limit for the big maps")
    ap.add_argument("--city-sizes", default="60,90,100,120,150,200,300,400")
    ap.add_argument("--city-seeds", default="1,2,3")
    ap.add_argument("--only-big", action="store_true", help="skip the shipped maps")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    load = os.getloadavg()[0]
    print(f"seed {seed}, load average {load:.1f} on {os.cpu_count()} cores")

    from mapkit.layout import LayoutConfig, LayoutError, layout
    from mapkit.mapfile import load_source, writer

    limit = args.time_limit if args.time_limit is not None else LayoutConfig().time_limit
    head = (
        f"{'map':<22} {'n':>3} {'in-proc':>8} {'process':>8} {'cpu':>6} {'quick':>6} "
        f"{'cpu':>6} {'q-bends':>7} {'octi':>6} "
        f"{'bends':>6} {'ratio':>5} {'hairp':>5} {'topo':>4} {'bundlx':>6} {'wagons':>6} "
        f"{'strict':>6}"
    )
    print(head)
    with tempfile.TemporaryDirectory() as tmp:
        for path in [] if args.only_big else _maps():
            doc = json.loads(path.read_text(encoding="utf-8"))
            for label, d in (("", doc), (" jittered", _jittered(doc, seed))):
                src = Path(tmp) / f"{path.stem}-in.json"
                src.write_text(writer.dumps(d))
                city = load_source(src.read_bytes(), str(src)).map
                t = time.perf_counter()
                try:
                    res = layout(city, LayoutConfig(time_limit=limit), doc=d)
                except LayoutError as exc:
                    took = time.perf_counter() - t
                    name = f"{path.stem + label:<22} {len(city.stations):>3}"
                    print(f"{name} {took:7.2f}s refused: {exc}")
                    continue
                inproc = time.perf_counter() - t
                out = Path(tmp) / f"{path.stem}-out.json"
                out.write_text(writer.dumps(res.doc))
                wall, cpu, _, code, _ = _whole_process(src, Path(tmp) / "p.json", limit)
                q_wall, q_cpu, _, q_code, _ = _whole_process(src, Path(tmp) / "q.json", limit, True)
                q_bends = (
                    layout(city, LayoutConfig(time_limit=limit, polish=False), doc=d).report
                ).bend_score
                rep = res.report
                print(
                    f"{path.stem + label:<22} {len(city.stations):>3} {inproc:7.2f}s "
                    f"{wall:7.2f}s {cpu:5.2f}s {q_wall:5.2f}s {q_cpu:5.2f}s {q_bends:7g} "
                    f"{rep.octilinear_share:6.0%} "
                    f"{rep.bend_score:6g} {_spacing_ratio(res.city):5.2f} {rep.hairpins:>5} "
                    f"{rep.topology_violations:>4} {rep.bundle_crossings:>6} "
                    f"{len(rep.wagons_unclear):>6} {'yes' if _strict_ok(out) else 'no':>6}"
                    + ("" if code == 0 else f"  (process exit {code})")
                    + ("" if q_code == 0 else f"  (--quick exit {q_code})")
                    + (
                        "  (stopped by the time limit)"
                        if any("time limit" in n for n in rep.notes)
                        else ""
                    )
                )
        from bounds_map import bounds_map

        big = Path(tmp) / "bounds.json"
        big.write_text(json.dumps(bounds_map()))
        wall, cpu, peak, code, why = _whole_process(big, Path(tmp) / "b.json", args.bound_limit)
        print(
            f"bound map (400 stations, 26 x 100 stops): {wall:.2f} s whole process "
            f"({cpu:.2f} s CPU), peak {peak:.0f} MiB, exit {code} (time limit "
            f"{args.bound_limit:g} s){': ' + why if code else ''}"
        )
        _cities(Path(tmp), args)


def _cities(tmp: Path, args: argparse.Namespace) -> None:
    """benchmarks/city_map.py's realistic city at each size (a line every 10 stations, at
    most 26), at the default limit and at ``--bound-limit``: time, memory and the outcome."""
    from city_map import city_map

    from mapkit.layout.report import measure
    from mapkit.mapfile import load_map

    print("realistic city (benchmarks/city_map.py), whole process:")
    for stations in (int(n) for n in args.city_sizes.split(",")):
        for seed in (int(n) for n in args.city_seeds.split(",")):
            doc = city_map(stations, min(26, max(1, stations // 10)), seed)
            src, out = tmp / f"city-{stations}-{seed}.json", tmp / "city-out.json"
            src.write_text(json.dumps(doc))
            for limit in (None, args.bound_limit):
                out.unlink(missing_ok=True)
                wall, cpu, peak, code, why = _whole_process(src, out, limit)
                head = (
                    f"  {len(doc['stations'])} stations, {len(doc['lines'])} lines, seed {seed}, "
                    f"limit {'default' if limit is None else f'{limit:g} s'}: {wall:.2f} s "
                    f"({cpu:.2f} s CPU), peak {peak:.0f} MiB, exit {code}"
                )
                if code:
                    print(f"{head}: {why}")
                    continue
                before, after = load_map(src), load_map(out)
                rep = measure(before, after, 0.0)
                print(
                    f"{head}: written, {rep.octilinear_share:.0%} octilinear, "
                    f"{rep.topology_violations} topology violations, validate on A4 and "
                    f"Letter: {_findings(out)}"
                )


def _findings(path: Path) -> str:
    """validate's errors and warnings on A4 and Letter, by code ("clean" when none)."""
    from collections import Counter

    from mapkit.checks import validate_path
    from mapkit.notices import Severity

    codes = Counter(
        f"{d.severity} {d.code}"
        for paper in ("a4", "letter")
        for d in validate_path(path, paper=paper).diagnostics
        if d.severity is not Severity.INFO
    )
    return ", ".join(f"{n} {c}" for c, n in sorted(codes.items())) or "clean"


if __name__ == "__main__":
    main()
