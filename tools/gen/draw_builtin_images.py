"""Draw the source images of the firmware's built-in frames into images/.

The PNGs are the sources (tools/gen/gen_builtin_frames.py compiles them into
firmware/app/builtin_frames.c); this script only records how they were made.
Run from the repository root: PYTHONPATH=host python tools/gen/draw_builtin_images.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from epdle.render.board import draw_tiles
from epdle.render.canvas import Canvas, ink_text
from epdle.render.fonts import Face, font
from epdle.render.options import BLACK, RED
from epdle.render.planes import LANDSCAPE_SIZE

IMAGE_DIR = Path(__file__).resolve().parents[2] / "images"
WIDTH, HEIGHT = LANDSCAPE_SIZE


def splash() -> Image.Image:
    """The logo card: EPDLE in big tiles and what the gadget is."""
    canvas = Canvas()
    tile = 34
    gap = max(tile // 12, 1)
    width = 5 * tile + 4 * gap
    draw_tiles(canvas, "EPDLE", "GYBGY", (WIDTH - width) // 2, 12, tile, 26)
    canvas.stamp_centred(
        ink_text("pocket wordle helper", font(Face.BOLD, 13)), (0, 56, WIDTH, 74), BLACK
    )
    canvas.stamp_centred(
        ink_text("press the button", font(Face.REGULAR, 11)), (0, 80, WIDTH, 96), RED
    )
    return canvas.image


def main() -> None:
    IMAGE_DIR.mkdir(exist_ok=True)
    for name, draw in (("1-splash", splash),):
        draw().save(IMAGE_DIR / f"{name}.png", optimize=True)


if __name__ == "__main__":
    main()
