"""Where the shipped maps and schemas live, installed or in a checkout."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PKG = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """``maps`` or ``schemas``: in ``mapkit/_data`` when installed, else the checkout's top."""
    for candidate in (_PKG / "_data" / name, _PKG.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"mapkit's {name}/ folder is missing from this installation")


def schema_path(kind: str = "map") -> Path:
    return data_dir("schemas") / f"{kind}.schema.json"


def shipped_maps() -> list[Path]:
    """The shipped cities, in order of difficulty."""
    order = ["amsterdam", "berlin", "paris", "madrid"]
    found = {p.stem: p for p in data_dir("maps").glob("*.json")}
    return [found[n] for n in order if n in found] + sorted(
        p for n, p in found.items() if n not in order
    )


def resolve_map(arg: str) -> Path:
    """A path as given, or the name of a shipped map (``berlin``)."""
    path = Path(arg)
    if path.exists() or path.suffix or "/" in arg:
        return path
    shipped = data_dir("maps") / f"{arg}.json"
    return shipped if shipped.exists() else path
