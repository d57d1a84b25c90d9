"""A landscape drawing surface that only ever holds the panel's three colours.

Text is rasterised without anti-aliasing and placed by its ink box (the
pixels actually set), so layouts line up to the pixel whatever the glyphs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .options import BLACK, RED, WHITE
from .planes import LANDSCAPE_SIZE

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive)


@dataclass(frozen=True)
class InkText:
    """Text rasterised to a 1-bit mask cropped to its ink."""

    mask: Image.Image

    @property
    def width(self) -> int:
        return self.mask.width

    @property
    def height(self) -> int:
        return self.mask.height


def ink_text(text: str, font: ImageFont.FreeTypeFont, tracking: int = 0) -> InkText:
    """Rasterise ``text`` crisply (no grey), cropped to the pixels it sets.

    ``tracking`` adds (or, negative, removes) that many pixels between letters
    on top of the font's own spacing, so big capitals never touch.
    """
    ascent, descent = font.getmetrics()
    width = int(font.getlength(text)) + max(tracking, 0) * len(text) + int(2 * font.size)
    mask = Image.new("1", (width, ascent + descent + 2), 0)
    draw = ImageDraw.Draw(mask)
    draw.fontmode = "1"
    if tracking == 0:
        draw.text((font.size, ascent + 1), text, font=font, fill=1, anchor="ls")
    else:
        for index, letter in enumerate(text):
            x = font.size + font.getlength(text[:index]) + index * tracking
            draw.text((x, ascent + 1), letter, font=font, fill=1, anchor="ls")
    ink = mask.getbbox()
    return InkText(mask.crop(ink) if ink else Image.new("1", (0, 0)))


def ink_parts(text: InkText) -> int:
    """How many separate pieces of ink (8-connected) ``text`` has."""
    if not text.width or not text.height:
        return 0
    ink = {(int(y), int(x)) for y, x in np.argwhere(np.asarray(text.mask, dtype=bool))}
    parts = 0
    while ink:
        parts += 1
        stack = [ink.pop()]
        while stack:
            y, x = stack.pop()
            for neighbour in (
                (y - 1, x - 1), (y - 1, x), (y - 1, x + 1), (y, x - 1),
                (y, x + 1), (y + 1, x - 1), (y + 1, x), (y + 1, x + 1),
            ):  # fmt: skip
                if neighbour in ink:
                    ink.remove(neighbour)
                    stack.append(neighbour)
    return parts


class Canvas:
    """212 x 104 white page to draw on in BLACK, RED or WHITE only."""

    def __init__(self) -> None:
        self.image = Image.new("RGB", LANDSCAPE_SIZE, WHITE)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.fontmode = "1"

    def fill(self, box: Box, colour: Colour) -> None:
        left, top, right, bottom = box
        self.draw.rectangle((left, top, right - 1, bottom - 1), fill=_checked(colour))

    def outline(self, box: Box, colour: Colour, width: int = 1) -> None:
        left, top, right, bottom = box
        self.draw.rectangle(
            (left, top, right - 1, bottom - 1), outline=_checked(colour), width=width
        )

    def rounded(self, box: Box, colour: Colour, radius: int) -> None:
        left, top, right, bottom = box
        self.draw.rounded_rectangle(
            (left, top, right - 1, bottom - 1), radius, fill=_checked(colour)
        )

    def stamp(self, text: InkText, left: int, top: int, colour: Colour) -> None:
        """Paint the ink of ``text`` with its top-left ink pixel at (left, top)."""
        self.image.paste(_checked(colour), (left, top), text.mask)

    def stamp_centred(self, text: InkText, box: Box, colour: Colour) -> tuple[int, int]:
        """Centre the ink of ``text`` in ``box``; returns its top-left corner."""
        left, top, right, bottom = box
        x = left + (right - left - text.width) // 2
        y = top + (bottom - top - text.height) // 2
        self.stamp(text, x, y, colour)
        return x, y


def _checked(colour: Colour) -> Colour:
    if colour not in (BLACK, RED, WHITE):
        raise ValueError(f"not a panel colour: {colour}")
    return colour
