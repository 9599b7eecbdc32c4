"""How a PDF pad is put together (``mapkit.render.pad``), page by page, without drawing."""

from __future__ import annotations

import pytest

from mapkit.mapfile import load_map
from mapkit.render.cards import card_sheets
from mapkit.render.export import PdfPage, drawing_file
from mapkit.render.pad import Drawn, PadOptions, SheetStyle, draw_sheets, pad_pages, sheet_file
from mapkit.render.svg import blank_svg, sheet_svg
from mapkit.resources import resolve_map

A4 = SheetStyle()
DRAWN = Drawn(fronts=["F0", "F1", "F2"], backs=["B0", "B1", "B2"], labels=[None] * 3)


def test_copies_of_each_sheet_in_order_single_sided():
    pages = pad_pages(DRAWN, [0, 2], PadOptions(copies=2), A4)
    assert pages == [PdfPage("F0"), PdfPage("F0"), PdfPage("F2"), PdfPage("F2")]
    assert PadOptions(copies=2).duplex is None


@pytest.mark.parametrize("flip, turned", [("long", True), ("short", False)])
def test_each_copy_is_followed_by_its_back_turned_for_the_flip(flip, turned):
    pad = PadOptions(copies=2, backs=True, flip=flip)
    pages = pad_pages(DRAWN, [1, 0], pad, A4)
    assert [(p.svg, p.turned) for p in pages] == [
        ("F1", False), ("B1", turned), ("F1", False), ("B1", turned),
        ("F0", False), ("B0", turned), ("F0", False), ("B0", turned),
    ]  # fmt: skip
    assert pad.duplex == flip


def test_a_pair_puts_the_second_map_behind_the_first():
    pages = pad_pages(DRAWN, [0, 1], PadOptions(copies=3, pair=True), A4)
    assert [(p.svg, p.turned) for p in pages] == [("F0", False), ("F1", True)] * 3


@pytest.mark.parametrize(
    "style, finish", [(SheetStyle(), "trim"), (SheetStyle(background="full"), "crop"),
                      (SheetStyle(background="full", crop_marks=False), "bleed"),
                      (SheetStyle(background="full", grayscale=True), "trim")],
)  # fmt: skip
def test_the_deck_follows_the_sheets_each_with_a_blank_back(style, finish):
    pad = PadOptions(copies=2, deck=(63.0, 88.0), flip="short")
    pages = pad_pages(DRAWN, [0], pad, style)
    blank = PdfPage(blank_svg("a4", finish))
    fronts, backs = card_sheets("a4", (63.0, 88.0), finish)
    assert style.finish == finish
    assert pages[:4] == [PdfPage("F0"), blank, PdfPage("F0"), blank]
    assert pages[4:] == [p for f, b in zip(fronts, backs, strict=True) for p in
                         (PdfPage(f), PdfPage(b, False))]  # fmt: skip
    assert len(pages) == 4 + 2 * len(fronts) and pad.duplex == "short"


def test_sheets_are_what_sheet_svg_draws_and_svg_files_their_text():
    city = load_map(resolve_map("berlin"))
    style = SheetStyle(paper="letter", grayscale=True, labels=True)
    drawn = draw_sheets([city], style)
    res = sheet_svg(city, paper="letter", grayscale=True, labels=True)
    assert drawn.fronts == [res.svg] and drawn.backs == []
    assert drawn.labels[0] == res.labels
    assert sheet_file("svg", [city], drawn, [0], pad=PadOptions(), style=style) == (
        res.svg.encode("utf-8")
    )


def test_a_drawing_file_is_its_format_and_nothing_else():
    svg = sheet_svg(load_map(resolve_map("berlin"))).svg
    assert drawing_file(svg, "svg") == svg.encode("utf-8")
    assert drawing_file(svg, "png", dpi=30)[:8] == b"\x89PNG\r\n\x1a\n"
    assert drawing_file(svg, "pdf", title="Berlin")[:5] == b"%PDF-"
    with pytest.raises(ValueError) as info:
        drawing_file(svg, "gif")
    assert str(info.value) == "no drawing format 'gif'; known: svg, pdf, png"
