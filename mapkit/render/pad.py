"""Printable files of one or more sheets: the drawings, and how a PDF pad is put together.

``mapkit render`` and any other caller (a script, the studio) get the same pad from the
same options: which sheets, how many copies, a rules summary behind each, a second map on
the back, the card deck after them, and the edge a duplex printer flips the paper over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mapkit.mapfile.model import CityMap
    from mapkit.paper import PaperSheet
    from mapkit.render.export import PdfPage
    from mapkit.render.labels import LabelResult


@dataclass(frozen=True)
class SheetStyle:
    """How every sheet (and its back) of one run is drawn (see ``sheet_svg``)."""

    paper: str = "a4"
    grayscale: bool = False
    labels: bool = False
    solo: bool = False
    background: str = "home"
    crop_marks: bool = True

    @property
    def finish(self) -> str:
        """How every page of the run ends (``sheet_finish``): sheets, backs and cards alike."""
        from mapkit.render.svg import sheet_finish

        return sheet_finish(self.background, self.grayscale, crop_marks=self.crop_marks)


@dataclass(frozen=True)
class PadOptions:
    """What a PDF holds beside the sheets themselves.

    ``copies`` of each sheet; ``backs``: a rules summary behind each; ``pair``: the first
    map on the front and the second on the back of each of ``copies`` sheets; ``deck``: the
    card size (mm) of a deck printed after the sheets; ``flip``: the duplex edge.
    """

    copies: int = 1
    backs: bool = False
    pair: bool = False
    deck: tuple[float, float] | None = None
    flip: str = "long"
    cmyk: bool = False

    @property
    def duplex(self) -> str | None:
        """The flip edge written to the PDF when it has backs, else None (single-sided)."""
        return self.flip if self.backs or self.pair or self.deck is not None else None


@dataclass
class Drawn:
    """The maps' sheets as SVG (``backs``: their rules summaries, when asked), and each
    sheet's station names as placed (None without ``labels``)."""

    fronts: list[str] = field(default_factory=list)
    backs: list[str] = field(default_factory=list)
    labels: list[LabelResult | None] = field(default_factory=list)


def draw_sheets(
    cities: Sequence[CityMap],
    style: SheetStyle,
    *,
    backs: bool = False,
    filled: PaperSheet | None = None,
) -> Drawn:
    """Each city's sheet in ``style`` (``filled``: a player's marks on it) and, with
    ``backs``, the rules summary printed behind it."""
    from mapkit.render.back import back_svg
    from mapkit.render.svg import sheet_svg

    drawn = Drawn()
    common = {
        "paper": style.paper,
        "grayscale": style.grayscale,
        "solo": style.solo,
        "background": style.background,
        "crop_marks": style.crop_marks,
    }
    for city in cities:
        if backs:
            drawn.backs.append(back_svg(city, **common))
        res = sheet_svg(city, labels=style.labels, filled=filled, **common)
        drawn.fronts.append(res.svg)
        drawn.labels.append(res.labels)
    return drawn


def pad_pages(
    drawn: Drawn, which: Sequence[int], pad: PadOptions, style: SheetStyle
) -> list[PdfPage]:
    """The PDF's pages in print order: for each of ``which`` (indices into ``drawn``) its
    copies, each followed by its back (a blank page when only the deck asks for duplex, so
    the cards' fronts and backs keep their sides); or, with ``pair``, the copies of the
    first sheet backed by the second; then the deck's fronts and backs."""
    from mapkit.render.export import PdfPage, duplex_pages

    if pad.pair:
        pages = duplex_pages(
            [drawn.fronts[0]] * pad.copies, [drawn.fronts[1]] * pad.copies, pad.flip
        )
    elif pad.duplex:
        from mapkit.render.svg import blank_svg

        blank = None if pad.backs else blank_svg(style.paper, style.finish)
        pages = [
            page
            for i in which
            for _ in range(pad.copies)
            for page in duplex_pages(
                [drawn.fronts[i]], [drawn.backs[i] if pad.backs else blank], pad.flip
            )
        ]
    else:
        pages = [PdfPage(drawn.fronts[i]) for i in which for _ in range(pad.copies)]
    if pad.deck is not None:
        from mapkit.render.cards import card_sheets

        fronts, card_backs = card_sheets(style.paper, pad.deck, style.finish)
        pages += duplex_pages(fronts, card_backs, pad.flip)
    return pages


class _Checked(Sequence):
    """Pages that call ``check`` before each is drawn: a long run (``--copies``) can stop
    between two pages, where no C code is running."""

    def __init__(self, pages: list[PdfPage], check: Callable[[], None]) -> None:
        self.pages, self.check = pages, check

    def __len__(self) -> int:
        return len(self.pages)

    def __getitem__(self, i):  # type: ignore[override]
        self.check()
        return self.pages[i]


def pad_pdf(
    cities: Sequence[CityMap],
    drawn: Drawn,
    which: Sequence[int],
    pad: PadOptions,
    style: SheetStyle,
    *,
    check: Callable[[], None] = lambda: None,
) -> bytes:
    """The pad of ``pad_pages`` as one PDF titled with the cities' names; ``check`` is
    called before each page (to stop on Ctrl-C between pages)."""
    from mapkit.render.export import svgs_to_pdf

    pages = _Checked(pad_pages(drawn, which, pad, style), check)
    title = ", ".join(cities[i].name for i in which)
    return svgs_to_pdf(pages, title=title, duplex=pad.duplex, cmyk=pad.cmyk)


def sheet_file(
    fmt: str,
    cities: Sequence[CityMap],
    drawn: Drawn,
    which: Sequence[int],
    *,
    pad: PadOptions,
    style: SheetStyle,
    dpi: int = 150,
    check: Callable[[], None] = lambda: None,
) -> bytes:
    """The bytes of one output file in ``fmt``: a PDF of the sheets ``which`` (see
    ``pad_pdf``), or the first of them as PNG at ``dpi`` or as SVG text."""
    if fmt == "pdf":
        return pad_pdf(cities, drawn, which, pad, style, check=check)
    from mapkit.render.export import drawing_file

    return drawing_file(drawn.fronts[which[0]], fmt, dpi=dpi)
