"""Helpers shared by the render tests (fixture map, SVG parsing), plus their own checks."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mapkit.mapfile import load_map

GOLDEN = Path(__file__).resolve().parent / "golden"
MAPS = Path(__file__).resolve().parent.parent / "maps"
CITIES = ("amsterdam", "berlin", "paris", "madrid")
FIXTURE = GOLDEN / "fixture-city.json"
SVG_NS = "{http://www.w3.org/2000/svg}"


def fixture_city():
    return load_map(FIXTURE)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def with_class(root: ET.Element, cls: str, tag: str | None = None) -> list[ET.Element]:
    """Elements whose class attribute contains the word ``cls``."""
    out = []
    for el in root.iter():
        if tag and el.tag != SVG_NS + tag:
            continue
        if cls in (el.get("class") or "").split():
            out.append(el)
    return out


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(SVG_NS + "text")]


def need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} (poppler-utils) is not installed")
    return path


def test_fixture_map_loads_with_every_feature():
    city = fixture_city()
    assert any(ln.loop for ln in city.lines)
    assert any(ln.shape for ln in city.lines)
    assert len(city.special_stations) == 2
    assert city.station("c3").name == '<script>&"x'
