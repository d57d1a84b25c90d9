"""Draw the source images of the firmware's built-in frames into images/.

The PNGs are the sources (tools/gen_builtin_frames.py compiles them into
firmware/app/builtin_frames.c); this script only records how they were made.
Run from the repository root: PYTHONPATH=host python tools/draw_builtin_images.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from epdle.render.board import draw_tiles
from epdle.render.canvas import Canvas, ink_text
from epdle.render.fonts import Face, font
from epdle.render.options import BLACK, RED, WHITE
from epdle.render.planes import LANDSCAPE_SIZE
from epdle.render.suggestions import suggestion_image
from epdle.solver.engine import Suggestion

IMAGE_DIR = Path(__file__).resolve().parent.parent / "images"
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


def help_card() -> Image.Image:
    """How to use it: the button, the host, the tile colours."""
    canvas = Canvas()
    canvas.fill((0, 0, WIDTH, 20), RED)
    canvas.stamp_centred(ink_text("HOW TO PLAY", font(Face.BOLD, 14)), (0, 0, WIDTH, 20), WHITE)
    lines = [
        ("press:", "next guess / frame"),
        ("host:", "epdle play --port ..."),
        ("tiles:", ""),
    ]
    for row, (label, text) in enumerate(lines):
        top = 26 + row * 18
        canvas.stamp(ink_text(label, font(Face.BOLD, 12)), 6, top, BLACK)
        if text:
            canvas.stamp(ink_text(text, font(Face.REGULAR, 12)), 56, top, BLACK)
    draw_tiles(canvas, "GYB", "GYB", 56, 62, 14, 11)
    canvas.stamp(ink_text("right, moved, none", font(Face.REGULAR, 11)), 104, 64, BLACK)
    canvas.stamp(ink_text("frames stay with no power", font(Face.REGULAR, 11)), 6, 88, RED)
    return canvas.image


def sample() -> Image.Image:
    """A typical suggestion frame, as the host renders one mid-game."""
    history = (("SLATE", "BBYBY"), ("CRONY", "GYBBB"))
    return suggestion_image(history, Suggestion("CORER", 3.17, 4.2, True), 1, 3, 12)


def main() -> None:
    IMAGE_DIR.mkdir(exist_ok=True)
    for name, draw in (("1-splash", splash), ("2-help", help_card), ("3-sample", sample)):
        draw().save(IMAGE_DIR / f"{name}.png", optimize=True)


if __name__ == "__main__":
    main()
