"""The board so far: one row of tiles per played guess, in black and red.

Wordle's colours mapped onto the panel: green = solid red tile with a white
letter, yellow = red frame with a black letter, grey = the bare black letter.
Leaving grey tiles unframed makes green and yellow stand out and keeps a full
six-row board inside the 1 KB frame budget.
"""

from __future__ import annotations

from collections.abc import Sequence

from .canvas import Box, Canvas, ink_text
from .fonts import Face, font
from .options import BLACK, RED, WHITE

WORD_LENGTH = 5
FEEDBACK_LETTERS = "GYB"
TILE = 12
TILE_GAP = 1
ROWS_SHOWN = 6
LETTER_SIZE = 10

History = Sequence[tuple[str, str]]


def checked_history(history: History) -> list[tuple[str, str]]:
    """Upper-case (word, feedback) pairs; ValueError naming the bad entry otherwise."""
    rows = []
    for number, entry in enumerate(history, start=1):
        try:
            word, feedback = entry
        except (TypeError, ValueError):
            raise ValueError(f"guess {number}: expected (word, feedback), got {entry!r}") from None
        word, feedback = str(word).upper(), str(feedback).upper()
        if len(word) != WORD_LENGTH or not word.isascii() or not word.isalpha():
            raise ValueError(f"guess {number}: {word!r} is not a {WORD_LENGTH}-letter word")
        if len(feedback) != WORD_LENGTH or set(feedback) - set(FEEDBACK_LETTERS):
            raise ValueError(
                f"guess {number}: feedback {feedback!r} must be {WORD_LENGTH} of "
                f"{'/'.join(FEEDBACK_LETTERS)}"
            )
        rows.append((word, feedback))
    return rows


def tile_gap(tile: int) -> int:
    """Space between tiles: grows with the tile so big tiles do not crowd."""
    return max(tile // 12, TILE_GAP)


def tiles_width(count: int, tile: int = TILE) -> int:
    return count * tile + (count - 1) * tile_gap(tile)


BOARD_WIDTH = tiles_width(WORD_LENGTH)


def board_height(rows: int) -> int:
    shown = min(rows, ROWS_SHOWN)
    return shown * TILE + max(shown - 1, 0) * TILE_GAP


def draw_board(canvas: Canvas, history: History, left: int, top: int) -> None:
    """Draw the last ROWS_SHOWN guesses with their top-left tile at (left, top)."""
    for row, (word, feedback) in enumerate(checked_history(history)[-ROWS_SHOWN:]):
        draw_tiles(canvas, word, feedback, left, top + row * (TILE + TILE_GAP))


def draw_tiles(
    canvas: Canvas,
    word: str,
    feedback: str,
    left: int,
    top: int,
    tile: int = TILE,
    letter_size: int = LETTER_SIZE,
) -> None:
    """One row of lettered tiles coloured by ``feedback`` (G/Y/B), ``tile`` px square."""
    letter_font = font(Face.BOLD, letter_size)
    gap = tile_gap(tile)
    for column, (letter, colour) in enumerate(zip(word.upper(), feedback, strict=True)):
        x = left + column * (tile + gap)
        box: Box = (x, top, x + tile, top + tile)
        if colour == "G":
            canvas.fill(box, RED)
            ink = WHITE
        elif colour == "Y":
            canvas.outline(box, RED, width=max(2, tile // 8))
            ink = BLACK  # a red letter would merge into the red frame at this size
        else:
            ink = BLACK
        canvas.stamp_centred(ink_text(letter, letter_font), box, ink)
