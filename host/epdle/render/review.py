"""The review frame: a finished game's rows with each guess's skill and luck (0-99).

Landscape 212 x 104. A header line: the REVIEW badge, then "skill" and "luck" with the
game's figures, which head the two columns of figures below; under it each guess played
as a row of tiles (the board's), its skill and its luck beside it. Tiles and figures are
as large as fit, never smaller than the board's smallest (MIN_TILE, read at arm's length);
a game has at most ROWS_SHOWN rows, and six of them fit at that size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image

from .board import MIN_TILE, ROWS_SHOWN, TILE_GAP, checked_history, draw_tiles
from .board import tiles_width as row_width
from .canvas import Box, Canvas, ink_text
from .fonts import Face, font
from .options import BLACK, RED, WHITE
from .planes import LANDSCAPE_SIZE, Planes, image_to_planes

WIDTH, HEIGHT = LANDSCAPE_SIZE
MARGIN = 3
HEADER = (2, 16)
ROWS_TOP = 19
MAX_TILE = 20
FIGURE_WIDTH = 22  # a column of figures: "99" at the largest size
LABEL_SIZE = 12


@dataclass(frozen=True)
class TurnFigures:
    word: str
    colours: str  # G/Y/B
    skill: int
    luck: int


def render_review(turns: Sequence[TurnFigures], skill: int, luck: int) -> Planes:
    """The review frame of a finished game (``skill`` and ``luck``: the game's)."""
    return image_to_planes(review_image(turns, skill, luck))


def review_image(turns: Sequence[TurnFigures], skill: int, luck: int) -> Image.Image:
    """render_review() as the landscape picture drawn (panel colours only)."""
    if not 1 <= len(turns) <= ROWS_SHOWN:
        raise ValueError(f"a review shows 1 to {ROWS_SHOWN} guesses, got {len(turns)}")
    for figure in (skill, luck, *(t.skill for t in turns), *(t.luck for t in turns)):
        if not 0 <= figure <= 99:
            raise ValueError(f"skill and luck are 0 to 99, got {figure}")
    rows = checked_history([(t.word, t.colours) for t in turns])
    layout = review_layout(len(rows[0][0]), len(rows))
    canvas = Canvas()
    draw_header(canvas, skill, luck, layout.rights)
    figure_font = font(Face.BOLD, figure_size(layout.tile))
    for index, ((word, colours), turn) in enumerate(zip(rows, turns, strict=True)):
        draw_tiles(canvas, word, colours, MARGIN, layout.row_top(index), layout.tile)
        for column, figure in enumerate((turn.skill, turn.luck)):
            box = layout.figure_box(index, column)
            canvas.stamp_centred(ink_text(str(figure), figure_font), box, BLACK)
    return canvas.image


@dataclass(frozen=True)
class ReviewLayout:
    tile: int
    rights: tuple[int, int]  # the right edges of the skill and the luck column

    def row_top(self, row: int) -> int:
        return ROWS_TOP + row * (self.tile + TILE_GAP)

    def figure_box(self, row: int, column: int) -> Box:
        """Where row ``row``'s skill (column 0) or luck (column 1) goes."""
        right, top = self.rights[column], self.row_top(row)
        return (right - FIGURE_WIDTH, top, right, top + self.tile)


def review_layout(length: int, rows: int) -> ReviewLayout:
    """The largest tiles (MIN_TILE up to MAX_TILE) whose ``rows`` fit under the header and
    left of the figures' columns."""
    luck_right = WIDTH - MARGIN
    skill_right = luck_right - FIGURE_WIDTH - _label_width("luck") - 4
    room = skill_right - FIGURE_WIDTH - MARGIN - 2
    tile = MIN_TILE
    for size in range(MAX_TILE, MIN_TILE, -1):
        if ROWS_TOP + rows * (size + TILE_GAP) <= HEIGHT and row_width(length, size) <= room:
            tile = size
            break
    return ReviewLayout(tile, (skill_right, luck_right))


@cache
def figure_size(tile: int) -> int:
    """The largest bold size (up to 20) whose figures stand in a row of ``tile`` px with a
    pixel clear above and below, and fit their column."""
    size = 9
    while size < 20:
        ink = ink_text("80", font(Face.BOLD, size + 1))
        if ink.height > tile - 2 or ink.width > FIGURE_WIDTH - 2:
            break
        size += 1
    return size


def _label_width(label: str) -> int:
    return ink_text(label, font(Face.BOLD, LABEL_SIZE)).width + 4


def draw_header(canvas: Canvas, skill: int, luck: int, rights: tuple[int, int]) -> None:
    """The REVIEW badge, then "skill" and "luck" with the game's figures over the columns
    whose right edges are `rights` (this frame's, and several boards' review)."""
    top, bottom = HEADER
    label_font = font(Face.BOLD, LABEL_SIZE)
    badge = ink_text("REVIEW", label_font)
    badge_box: Box = (MARGIN, top, MARGIN + badge.width + 10, bottom)
    canvas.rounded(badge_box, RED, radius=3)
    canvas.stamp_centred(badge, badge_box, WHITE)
    for label, figure, right in zip(("skill", "luck"), (skill, luck), rights, strict=True):
        box: Box = (right - FIGURE_WIDTH, top, right, bottom)
        canvas.stamp_centred(ink_text(str(figure), font(Face.BOLD, 14)), box, BLACK)
        label_ink = ink_text(label, label_font)
        left = right - FIGURE_WIDTH - label_ink.width - 2
        canvas.stamp_centred(label_ink, (left, top, left + label_ink.width, bottom), BLACK)
    canvas.fill((MARGIN, bottom + 1, WIDTH - MARGIN, bottom + 2), BLACK)
