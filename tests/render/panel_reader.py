"""Reading text back off a drawn frame, as a person would: letters and digits told apart
by their shapes alone, whatever the size they were drawn in.

Each piece of ink in a line is one glyph; it is matched against every capital and
digit of the shipped bold faces at every size of about its height. Glyphs that touch
read as one unknown shape ('?'), so a word whose letters run together does not read.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from PIL import Image

from epdle.render.canvas import Box, ink_text
from epdle.render.fonts import Face, font
from epdle.render.options import BLACK

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+#"
SIZES = range(6, 49)
# A glyph whose best template differs in more than this share of their ink is unknown.
MAX_DIFFERENCE = 0.25


@cache
def _templates() -> dict[int, list[tuple[str, np.ndarray]]]:
    """Every capital, digit, + and # of both bold faces at every size, by ink height."""
    found: dict[int, list[tuple[str, np.ndarray]]] = {}
    for face in (Face.BOLD, Face.CONDENSED_BOLD):
        for size in SIZES:
            for character in ALPHABET:
                mask = np.asarray(ink_text(character, font(face, size)).mask, dtype=bool)
                found.setdefault(mask.shape[0], []).append((character, mask))
    return found


def _difference(glyph: np.ndarray, template: np.ndarray) -> float:
    """The share of their ink two masks do not share, at the best shift of a pixel."""
    height = max(glyph.shape[0], template.shape[0]) + 2
    width = max(glyph.shape[1], template.shape[1]) + 2
    placed = np.zeros((height, width), dtype=bool)
    placed[1 : 1 + glyph.shape[0], 1 : 1 + glyph.shape[1]] = glyph
    best = 1.0
    for dy in range(3):
        for dx in range(3):
            other = np.zeros_like(placed)
            h, w = template.shape
            if dy + h > height or dx + w > width:
                continue
            other[dy : dy + h, dx : dx + w] = template
            union = (placed | other).sum()
            best = min(best, float((placed ^ other).sum() / union))
    return best


def read_glyph(mask: np.ndarray) -> str:
    """The capital or digit ``mask`` (one glyph's columns) looks like, or '?'."""
    rows = np.flatnonzero(mask.any(axis=1))
    mask = mask[rows[0] : rows[-1] + 1]
    height, width = mask.shape
    best, difference = "?", 1.0
    for near in (height - 1, height, height + 1):
        for character, template in _templates().get(near, []):
            if abs(template.shape[1] - width) > 1:
                continue
            share = _difference(mask, template)
            if share < difference:
                best, difference = character, share
    return best if difference <= MAX_DIFFERENCE else "?"


def _pieces(ink: np.ndarray) -> list[tuple[int, int, np.ndarray]]:
    """The 8-connected pieces of ink: (left, right, the piece's mask over its columns)."""
    unseen = {(int(y), int(x)) for y, x in np.argwhere(ink)}
    pieces = []
    while unseen:
        stack = [unseen.pop()]
        piece = set(stack)
        while stack:
            y, x = stack.pop()
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    if (y + dy, x + dx) in unseen:
                        unseen.remove((y + dy, x + dx))
                        piece.add((y + dy, x + dx))
                        stack.append((y + dy, x + dx))
        left = min(x for _, x in piece)
        right = max(x for _, x in piece) + 1
        mask = np.zeros((ink.shape[0], right - left), dtype=bool)
        for y, x in piece:
            mask[y, x - left] = True
        pieces.append((left, right, mask))
    return sorted(pieces, key=lambda piece: piece[0])


def read_line(image: Image.Image, box: Box, colour: tuple[int, int, int] = BLACK) -> str:
    """The capitals and digits drawn in ``colour`` inside ``box`` (each glyph one piece
    of ink, as capitals and digits are), a space between words (a gap wider than a
    third of the line's height)."""
    ink = (np.asarray(image.crop(box).convert("RGB")) == colour).all(axis=2)
    rows = np.flatnonzero(ink.any(axis=1))
    if not len(rows):
        return ""
    height = rows[-1] - rows[0] + 1
    text, end = "", None
    for left, right, mask in _pieces(ink):
        if end is not None and left - end > height / 3:
            text += " "
        text += read_glyph(mask)
        end = right if end is None else max(end, right)
    return text


def cap_height(image: Image.Image, box: Box, colour: tuple[int, int, int] = BLACK) -> int:
    """The height in pixels of the ink drawn in ``colour`` inside ``box``."""
    ink = (np.asarray(image.crop(box).convert("RGB")) == colour).all(axis=2)
    rows = np.flatnonzero(ink.any(axis=1))
    return int(rows[-1] - rows[0] + 1) if len(rows) else 0


def read_lines(image: Image.Image, box: Box, colour: tuple[int, int, int] = BLACK) -> list[str]:
    """read_line() of each line of text inside ``box`` (bands of inked rows), top down."""
    ink = (np.asarray(image.crop(box).convert("RGB")) == colour).all(axis=2)
    rows = [*ink.any(axis=1), False]
    lines, start = [], None
    for y, inked in enumerate(rows):
        if inked and start is None:
            start = y
        elif not inked and start is not None:
            left, top, right, _ = box
            lines.append(read_line(image, (left, top + start, right, top + y), colour))
            start = None
    return lines
