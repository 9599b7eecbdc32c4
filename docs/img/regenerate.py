"""Regenerate the pictures in docs/img: every shipped city in colour, grayscale and deuteranopia.

    python docs/img/regenerate.py            # from the repository root, 150 dpi

The deuteranopia view applies the Machado et al. (2009) matrix that the design
checks use (``mapkit.checks.colour``) to every pixel, in linear RGB.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

from mapkit.checks.colour import _MACHADO
from mapkit.engine.paper import sheet_after
from mapkit.mapfile import load_map
from mapkit.render.back import back_svg
from mapkit.render.cards import card_sheets
from mapkit.render.export import svg_to_png
from mapkit.render.svg import sheet_svg

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "img"
CITIES = ("amsterdam", "berlin", "paris", "madrid")


def simulate(png: bytes, vision: str = "deuteranopia") -> Image.Image:
    """The picture as a dichromat sees it (severity 1)."""
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(float) / 255
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    sim = np.clip(lin @ np.array(_MACHADO[vision]).T, 0, 1)
    out = np.where(sim <= 0.0031308, sim * 12.92, 1.055 * sim ** (1 / 2.4) - 0.055)
    return Image.fromarray((out * 255).round().astype("uint8"))


def save(picture: bytes | Image.Image, name: str) -> None:
    """As a 256-colour PNG: a third of the size, no visible change on flat-coloured sheets."""
    im = picture if isinstance(picture, Image.Image) else Image.open(io.BytesIO(picture))
    im.convert("RGB").quantize(256).save(OUT / name, optimize=True)


def main(dpi: int = 150) -> None:
    for name in CITIES:
        city = load_map(ROOT / "maps" / f"{name}.json")
        colour = svg_to_png(sheet_svg(city, labels=True).svg, dpi=dpi)
        save(colour, f"{name}.png")
        gray = sheet_svg(city, labels=True, grayscale=True).svg
        save(svg_to_png(gray, dpi=dpi), f"{name}-grayscale.png")
        save(simulate(colour), f"{name}-deuteranopia.png")
    berlin = load_map(ROOT / "maps" / "berlin.json")
    save(svg_to_png(back_svg(berlin), dpi=dpi), "back-example.png")
    fronts, _backs = card_sheets()
    save(svg_to_png(fronts[0], dpi=dpi), "cards.png")
    full = sheet_svg(berlin, background="full").svg
    save(svg_to_png(full, dpi=dpi), "full-bleed-example.png")
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "game.json"
        play = ["play", "berlin", "--no-human", "--bots", "greedy", "--seed", "7"]
        subprocess.run([sys.executable, "-m", "mapkit", *play, "--record", str(game)], check=True)
        record = json.loads(game.read_text(encoding="utf-8"))
    filled = sheet_svg(berlin, filled=sheet_after(berlin, record, 0), solo=True).svg
    save(svg_to_png(filled, dpi=dpi), "filled-example.png")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 150)
