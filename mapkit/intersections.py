"""How many lines meet at each station: the number an Interchange card writes."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mapkit.mapfile import CityMap


@dataclass(frozen=True)
class StationLines:
    id: str
    name: str | None
    lines: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.lines)


@dataclass(frozen=True)
class IntersectionReport:
    map_id: str
    stations: tuple[StationLines, ...]

    @property
    def histogram(self) -> dict[int, int]:
        """Number of stations by intersection count, ascending."""
        return dict(sorted(Counter(s.count for s in self.stations).items()))

    @property
    def total(self) -> int:
        """Total interchange potential: the sum of every station's count."""
        return sum(s.count for s in self.stations)

    @property
    def interchange_stations(self) -> int:
        """Stations where two or more lines meet."""
        return sum(s.count >= 2 for s in self.stations)

    def to_dict(self) -> dict[str, object]:
        return {
            "map": self.map_id,
            "stations": [
                {"id": s.id, "name": s.name, "lines": list(s.lines), "count": s.count}
                for s in self.stations
            ],
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "interchange_stations": self.interchange_stations,
            "total": self.total,
        }


def intersections(city: CityMap) -> IntersectionReport:
    """Stations sorted by count (highest first), then in map order."""
    rows = [StationLines(s.id, s.name, city.lines_at(s.id)) for s in city.stations]
    rows.sort(key=lambda r: -r.count)
    return IntersectionReport(city.id, tuple(rows))


def to_text(rep: IntersectionReport) -> str:
    width = max([len("station")] + [len(s.id) for s in rep.stations])
    out = [f"{'station':<{width}}  count  lines"]
    for s in rep.stations:
        out.append(f"{s.id:<{width}}  {s.count:>5}  {' '.join(s.lines) or '-'}")
    out.append("")
    out.append("lines  stations")
    for count, n in rep.histogram.items():
        out.append(f"{count:>5}  {n:>8}  {'#' * n}")
    out.append("")
    out.append(f"interchange stations (2+ lines): {rep.interchange_stations}")
    out.append(f"total interchange potential: {rep.total}")
    return "\n".join(out) + "\n"


def to_json(rep: IntersectionReport) -> str:
    import json

    return json.dumps(rep.to_dict(), indent=2, ensure_ascii=False) + "\n"


def to_csv(rep: IntersectionReport) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id", "name", "count", "lines"])
    for s in rep.stations:
        w.writerow([s.id, s.name or "", s.count, " ".join(s.lines)])
    return buf.getvalue()
