"""The back page (issue 19, point 4): the rules this city uses, distinct symbols, a full page."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mapkit.cards import CARD_NAMES
from mapkit.cli import app
from mapkit.mapfile import load_map
from mapkit.rating import LOWEST_RATING, RATINGS
from mapkit.render.back import back_svg
from mapkit.render.cards import FREE_FACE, card_face
from mapkit.render.panel import SCORE_OPERATORS, SCORE_TITLES, SOLO_SCORE_TITLES
from mapkit.rulesets import VOLL_VERPLANT
from mapkit.sheet import layout
from tests.test_render_common import CITIES, MAPS, SVG_NS, fixture_city, parse, with_class


def _texts(root, cls: str) -> list[str]:
    return ["".join(el.itertext()) for el in with_class(root, cls, "text")]


def _all_text(root) -> str:
    return " ".join("".join(el.itertext()) for el in root.iter())


def test_back_lists_the_engine_deck_scoring_and_rating_table():
    root = parse(back_svg(fixture_city()))
    all_text = _all_text(root)
    counts = VOLL_VERPLANT.counts
    assert _texts(root, "back-count") == [f"{n}×" for n in counts if n]
    assert _texts(root, "back-face") == [card_face(k) for k in VOLL_VERPLANT.kinds]
    assert len(VOLL_VERPLANT.kinds) == 8 and "2" not in _texts(root, "back-face")
    assert sum(counts) == len(VOLL_VERPLANT.deck) == 14
    for _, verdict in RATINGS:
        assert verdict in all_text
    assert LOWEST_RATING in all_text
    for caption in SCORE_TITLES.values():  # the sheet's own captions
        assert caption in all_text
    assert _texts(root, "back-score-op") == [SCORE_OPERATORS[b] or "◇" for b in SCORE_TITLES]
    solo = _all_text(parse(back_svg(fixture_city(), solo=True)))
    assert SOLO_SCORE_TITLES["empty"] in solo and SCORE_TITLES["empty"] not in solo


@pytest.mark.parametrize("city_id", CITIES)
def test_back_has_only_the_rules_the_city_uses(city_id):
    city = load_map(MAPS / f"{city_id}.json")
    root = parse(back_svg(city))
    text = _all_text(root)
    loops = [ln.id for ln in city.lines if ln.loop]
    symbols = [el.get("data-symbol") for el in with_class(root, "back-symbol")]
    assert ("Loop line" in text) == bool(loops)
    assert symbols.count("loop") == (2 if loops else 0)  # the two arrows, as on the sheet
    for lid in loops:
        assert f"Loop line {lid} " in text
    assert ("Special stations" in text) == bool(city.special_stations)
    assert symbols.count("special") == (1 if city.special_stations else 0)


def test_free_ride_and_special_station_have_distinct_symbols():
    city = load_map(MAPS / "paris.json")  # has special stations
    root = parse(back_svg(city))
    assert card_face(CARD_NAMES.index("free")) == FREE_FACE == "⊗"
    assert "★" not in _all_text(root)
    (star,) = [el for el in with_class(root, "back-symbol") if el.get("data-symbol") == "special"]
    assert star.tag.endswith("polygon") and len(star.get("points").split()) == 16  # 8 points


@pytest.mark.parametrize("city_id", CITIES)
def test_back_text_fills_the_page(city_id):
    """The tallest column reaches the footer (within its spacing), in type of at least 3.5 mm."""
    city = load_map(MAPS / f"{city_id}.json")
    root = parse(back_svg(city))
    lay = layout(city)
    body = with_class(root, "back-text", "text")
    sizes = {float(el.get("font-size")) for el in body}
    (size,) = sizes
    assert size >= 3.5
    lowest = max(float(el.get("y")) for el in body)
    assert lay.footer.y - 1.0 - 3 * size <= lowest <= lay.footer.y


def test_pad_with_back_interleaves_front_and_back_then_the_cards(tmp_path, monkeypatch):
    import mapkit.render.export as export

    seen: list = []
    monkeypatch.setattr(
        export, "svgs_to_pdf", lambda pages, title=None, **kw: seen.append((pages, kw)) or b"%PDF"
    )
    out = tmp_path / "pad.pdf"
    args = ["render", "berlin", "--pdf", "--copies", "3", "--back", "--cards", "-o", str(out)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    ((pages, kw),) = seen
    kinds = [
        "back"
        if 'id="back"' in p.svg
        else "cards"
        if 'class="cards"' in p.svg
        else "card-backs"
        if 'class="card-backs"' in p.svg
        else "front"
        for p in pages
    ]
    assert kinds == ["front", "back"] * 3 + ["cards", "card-backs"] * 2
    assert [p.turned for p in pages] == [False, True] * 5  # --flip long, the default
    assert kw == {"duplex": "long", "cmyk": False}


@pytest.mark.parametrize("flag", ["--back", "--cards"])
def test_back_and_cards_need_pdf(flag, tmp_path):
    res = CliRunner().invoke(app, ["render", "berlin", flag, "-o", str(tmp_path / "x.svg")])
    assert res.exit_code == 2 and "add --pdf" in res.output


def _right_edge(el) -> float | None:
    """How far right one drawn symbol element reaches (mm), stroke and glyphs included."""
    import re

    from mapkit.render.fontmetrics import text_width

    tag = el.tag.removeprefix(SVG_NS)
    half_stroke = float(el.get("stroke-width") or 0.0) / 2 if el.get("stroke") else 0.0
    if tag == "text":
        size = float(el.get("font-size"))
        w = text_width("".join(el.itertext()), size, bold=el.get("font-weight") == "bold")
        anchor = el.get("text-anchor") or "start"
        return float(el.get("x")) + {"start": w, "middle": w / 2, "end": 0.0}[anchor]
    if tag == "circle":
        return float(el.get("cx")) + float(el.get("r")) + half_stroke
    if tag == "rect":
        return float(el.get("x")) + float(el.get("width")) + half_stroke
    if tag in ("polygon", "polyline"):
        return max(float(p.split(",")[0]) for p in el.get("points").split()) + half_stroke
    if tag == "path":  # a halo: M left,y a r,r ... (a full circle)
        m = re.match(r"M([-\d.]+),[-\d.]+a([\d.]+),", el.get("d"))
        assert m, el.get("d")
        return float(m[1]) + 2 * float(m[2]) + half_stroke
    return None


@pytest.mark.parametrize("city", CITIES)
def test_every_symbol_ends_left_of_its_text(city):
    """The card counts and faces (×2, ×3), the loop arrows, the halo: each symbol's right
    edge stays at least 1 mm left of where its item's text starts."""
    root = parse(back_svg(load_map(MAPS / f"{city}.json")))
    with_symbol = 0
    for item in with_class(root, "back-item", "g"):
        texts = with_class(item, "back-text", "text")
        start = min(float(t.get("x")) for t in texts)
        edges = [e for el in item if el not in texts and (e := _right_edge(el)) is not None]
        with_symbol += bool(edges)
        for edge in edges:
            assert edge <= start - 1.0, (texts[0].text, edge, start)
    assert with_symbol >= len(VOLL_VERPLANT.kinds) + 4
