"""Several boards' review frame (Dordle, Quordle, Octordle): each guess with its skill and
luck (0-99), under the header of one board's review frame (epdle.render.review).

Landscape 212 x 104. A game of several boards has up to boards + 5 guesses, more than
one board's rows of tiles fit, and a guess's colours on every board would be too small
to read: each row is the guess in capitals, in red where it solved a board, its skill
and its luck beside it. Up to COLUMN_ROWS rows make one column; more, two columns side
by side (at most MAX_ROWS, Octordle's 13 guesses), the rows as tall as fit, the text as
large as its row allows: five-letter words never below 9 px capitals (condensed bold
12), read at arm's length.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image

from .canvas import Box, Canvas, ink_text
from .fonts import Face, font
from .options import BLACK, RED
from .planes import LANDSCAPE_SIZE, Planes, image_to_planes
from .review import MARGIN, ROWS_TOP, draw_header, review_layout

WIDTH, HEIGHT = LANDSCAPE_SIZE
COLUMN_ROWS = 5  # one column up to this many guesses, two beyond
MAX_ROWS = 14  # two columns of seven
MAX_PITCH = 17  # a row's height at most (one board's largest tile and its gap)
COLUMN_GAP = 4
FIGURE_GAP = 3  # between a row's skill and its luck
ROW_FIGURE = 17  # a row's figure box: "99" at the largest size that fits two columns


@dataclass(frozen=True)
class BoardsTurnFigures:
    word: str
    solved: int  # boards this guess solved
    skill: int
    luck: int


@dataclass(frozen=True)
class BoardsReviewLayout:
    columns: int
    per_column: int
    pitch: int  # a row's height
    size: int  # the bold size of the words and figures

    def column_right(self, column: int) -> int:
        width = (WIDTH - 2 * MARGIN + COLUMN_GAP) // self.columns
        return MARGIN + (column + 1) * width - COLUMN_GAP

    def column_left(self, column: int) -> int:
        return self.column_right(column - 1) + COLUMN_GAP if column else MARGIN

    def row_box(self, index: int) -> Box:
        """Where guess `index` (from 0) goes: its column's width, its row's height."""
        column, row = divmod(index, self.per_column)
        top = ROWS_TOP + 1 + row * self.pitch
        return (self.column_left(column), top, self.column_right(column), top + self.pitch)

    def figure_box(self, index: int, which: int) -> Box:
        """Where guess `index`'s skill (which 0) or luck (1) goes."""
        _, top, right, bottom = self.row_box(index)
        right -= (1 - which) * (ROW_FIGURE + FIGURE_GAP)
        return (right - ROW_FIGURE, top, right, bottom)

    def word_box(self, index: int) -> Box:
        left, top, _, bottom = self.row_box(index)
        return (left, top, self.figure_box(index, 0)[0] - 2, bottom)


def boards_review_layout(rows: int, widest: str) -> BoardsReviewLayout:
    """One column or two, rows as tall as fit (MAX_PITCH at most), the largest bold size
    whose capitals stand in a row with a pixel clear and whose widest word (`widest`,
    in capitals) fits."""
    columns = 1 if rows <= COLUMN_ROWS else 2
    per_column = -(-rows // columns)
    pitch = min(MAX_PITCH, (HEIGHT - ROWS_TOP - 1) // per_column)
    layout = BoardsReviewLayout(columns, per_column, pitch, 12)
    left, _, right, _ = layout.word_box(0)
    return BoardsReviewLayout(columns, per_column, pitch, _text_size(pitch, widest, right - left))


@cache
def _text_size(pitch: int, widest: str, room: int) -> int:
    """The largest size (20 down to 8) at which `widest` in condensed bold fits `room`
    and it and the figures in bold stand in `pitch` with a pixel clear."""
    for size in range(20, 8, -1):
        word = ink_text(widest, font(Face.CONDENSED_BOLD, size))
        figure = ink_text("80", font(Face.BOLD, size))
        tall = max(word.height, figure.height) > pitch - 2
        if not tall and word.width <= room and figure.width <= ROW_FIGURE - 2:
            return size
    return 8


def render_boards_review(turns: Sequence[BoardsTurnFigures], skill: int, luck: int) -> Planes:
    """The review frame of several boards' finished game (`skill`, `luck`: the game's)."""
    return image_to_planes(boards_review_image(turns, skill, luck))


def boards_review_image(turns: Sequence[BoardsTurnFigures], skill: int, luck: int) -> Image.Image:
    """render_boards_review() as the landscape picture drawn (panel colours only)."""
    if not 1 <= len(turns) <= MAX_ROWS:
        raise ValueError(
            f"a review of several boards shows 1 to {MAX_ROWS} guesses, got {len(turns)}"
        )
    for figure in (skill, luck, *(t.skill for t in turns), *(t.luck for t in turns)):
        if not 0 <= figure <= 99:
            raise ValueError(f"skill and luck are 0 to 99, got {figure}")
    if not all(turn.word.isalpha() for turn in turns):
        raise ValueError("a guess is letters only")
    words = [turn.word.upper() for turn in turns]
    widest = max(words, key=lambda w: ink_text(w, font(Face.CONDENSED_BOLD, 12)).width)
    layout = boards_review_layout(len(turns), widest)
    canvas = Canvas()
    draw_header(canvas, skill, luck, review_layout(5, 1).rights)  # as one board's frame
    word_font, figure_font = font(Face.CONDENSED_BOLD, layout.size), font(Face.BOLD, layout.size)
    for index, turn in enumerate(turns):
        word = ink_text(turn.word.upper(), word_font)
        left, top, _, bottom = layout.word_box(index)
        y = top + (bottom - top - word.height) // 2
        canvas.stamp(word, left, y, RED if turn.solved else BLACK)
        for which, figure in enumerate((turn.skill, turn.luck)):
            canvas.stamp_centred(
                ink_text(str(figure), figure_font), layout.figure_box(index, which), BLACK
            )
    return canvas.image
