"""The board so far: one row of tiles per played guess, in black and red.

Wordle's colours mapped onto the panel: green = solid red tile with a white
letter, yellow = red frame with a black letter, grey = the bare black letter.
Leaving grey tiles unframed makes green and yellow stand out and keeps a full
six-row board inside the 1 KB frame budget.

Words of any length 4..9 and any language's letters (the font has them all);
`fit_board` picks the largest tiles that fit an area, in one or two columns of
rows (read across, then down, as the game lists them), dropping the oldest rows only
when even the smallest tiles would not fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from epdle.words.languages import LENGTHS, display_word

from .canvas import Box, Canvas, ink_text
from .fonts import Face, font
from .options import BLACK, RED, WHITE

FEEDBACK_LETTERS = "GYB"
TILE = 14  # the default tile (draw_board without a layout)
TILE_GAP = 1
ROWS_SHOWN = 6
MIN_TILE = 13  # below this the letters (9 px capitals) would not read at arm's length
MAX_TILE = 22
COLUMN_GAP = 8

History = Sequence[tuple[str, str]]


def checked_history(history: History, length: int | None = None) -> list[tuple[str, str]]:
    """Lower-case words and upper-case feedback; ValueError naming the bad entry otherwise.

    Every word must have ``length`` letters (by default: as many as the first one).
    """
    rows = []
    for number, entry in enumerate(history, start=1):
        try:
            word, feedback = entry
        except (TypeError, ValueError):
            raise ValueError(f"guess {number}: expected (word, feedback), got {entry!r}") from None
        word, feedback = str(word).lower(), str(feedback).upper()
        if length is None:
            length = len(word)
        if len(word) != length or length not in LENGTHS or not word.isalpha():
            raise ValueError(f"guess {number}: {word!r} is not a {length}-letter word")
        if len(feedback) != length or set(feedback) - set(FEEDBACK_LETTERS):
            raise ValueError(
                f"guess {number}: feedback {feedback!r} must be {length} of "
                f"{'/'.join(FEEDBACK_LETTERS)}"
            )
        rows.append((word, feedback))
    return rows


def tile_gap(tile: int) -> int:
    """Space between tiles: grows with the tile so big tiles do not crowd."""
    return max(tile // 12, TILE_GAP)


def tiles_width(count: int, tile: int = TILE) -> int:
    return count * tile + (count - 1) * tile_gap(tile)


@cache
def letter_size(tile: int) -> int:
    """The largest bold size whose widest capitals (W, and Ä with its dots) keep a pixel
    clear of the tile's edge."""
    size = 8
    while size < 2 * tile:
        bigger = font(Face.BOLD, size + 1)
        if ink_text("W", bigger).width > tile - 2 or ink_text("Ä", bigger).height > tile - 2:
            break
        size += 1
    return size


@dataclass(frozen=True)
class BoardLayout:
    length: int
    tile: int
    columns: int  # of rows side by side
    rows: int  # rows shown (the last ones played)

    @property
    def row_width(self) -> int:
        return tiles_width(self.length, self.tile)

    @property
    def width(self) -> int:
        return self.columns * self.row_width + (self.columns - 1) * COLUMN_GAP

    @property
    def height(self) -> int:
        per_column = -(-self.rows // self.columns)
        return per_column * self.tile + (per_column - 1) * TILE_GAP

    def tile_box(self, left: int, top: int, row: int, column: int) -> Box:
        """Where tile ``column`` of shown row ``row`` goes with the board at (left, top)."""
        line, block = divmod(row, self.columns)  # reading order: across, then down
        x = (
            left
            + block * (self.row_width + COLUMN_GAP)
            + column * (self.tile + tile_gap(self.tile))
        )
        y = top + line * (self.tile + TILE_GAP)
        return (x, y, x + self.tile, y + self.tile)


def fit_board(length: int, rows: int, width: int, height: int) -> BoardLayout:
    """The largest tiles (up to MAX_TILE) showing all ``rows`` (at most ROWS_SHOWN) in
    ``width`` x ``height``; if even MIN_TILE does not fit them, as many of the last rows
    as fit at MIN_TILE."""
    rows = max(1, min(rows, ROWS_SHOWN))
    for tile in range(MAX_TILE, MIN_TILE - 1, -1):
        for columns in (1, 2):
            layout = BoardLayout(length, tile, columns, rows)
            if layout.width <= width and layout.height <= height:
                return layout
    for shown in range(rows - 1, 0, -1):
        layout = BoardLayout(length, MIN_TILE, 1, shown)
        if layout.height <= height:
            return layout
    return BoardLayout(length, MIN_TILE, 1, 1)


def draw_board(
    canvas: Canvas, history: History, left: int, top: int, layout: BoardLayout | None = None
) -> None:
    """Draw the last ``layout.rows`` guesses with the board's top-left corner at (left, top)."""
    rows = checked_history(history)
    if layout is None:
        layout = BoardLayout(len(rows[0][0]) if rows else 5, TILE, 1, min(len(rows), ROWS_SHOWN))
    for row, (word, feedback) in enumerate(rows[-layout.rows :]):
        for column, (letter, colour) in enumerate(zip(display_word(word), feedback, strict=True)):
            _draw_tile(canvas, letter, colour, layout.tile_box(left, top, row, column))


def draw_tiles(
    canvas: Canvas,
    word: str,
    feedback: str,
    left: int,
    top: int,
    tile: int = TILE,
    size: int | None = None,
) -> None:
    """One row of lettered tiles coloured by ``feedback`` (G/Y/B), ``tile`` px square."""
    gap = tile_gap(tile)
    for column, (letter, colour) in enumerate(zip(display_word(word), feedback, strict=True)):
        x = left + column * (tile + gap)
        _draw_tile(canvas, letter, colour, (x, top, x + tile, top + tile), size)


def _draw_tile(canvas: Canvas, letter: str, colour: str, box: Box, size: int | None = None) -> None:
    tile = box[2] - box[0]
    letter_font = font(Face.BOLD, size or letter_size(tile))
    if colour == "G":
        canvas.fill(box, RED)
        ink = WHITE
    elif colour == "Y":
        canvas.outline(box, RED, width=max(2, tile // 8))
        ink = BLACK  # a red letter would merge into the red frame at this size
    else:
        ink = BLACK
    canvas.stamp_centred(ink_text(letter, letter_font), box, ink)
