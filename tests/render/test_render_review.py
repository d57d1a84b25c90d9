"""The review frame: each guess's row and figures, legible, inside the panel and the frame
budget."""

from __future__ import annotations

import numpy as np
import pytest
from render_golden_cases import REVIEW_SIX

from epdle.frames import decode, encode
from epdle.frames.store import SUGGESTION_FRAME_BUDGET_BYTES
from epdle.render.board import MIN_TILE, tiles_width
from epdle.render.canvas import ink_text
from epdle.render.fonts import Face, font
from epdle.render.options import BLACK, WHITE
from epdle.render.planes import planes_to_image
from epdle.render.review import (
    FIGURE_WIDTH,
    MARGIN,
    TurnFigures,
    figure_size,
    render_review,
    review_image,
    review_layout,
)

WIDTH, HEIGHT = 212, 104


def game(length: int, rows: int) -> list[TurnFigures]:
    words = [chr(ord("a") + i) * (length - 1) + "w" for i in range(rows)]
    return [TurnFigures(w, "GY" * (length // 2) + "B" * (length % 2), 7 + i, 90 - i)
            for i, w in enumerate(words)]  # fmt: skip


def ink(image, box) -> np.ndarray:
    return (np.asarray(image.crop(box)) == BLACK).all(axis=2)


@pytest.mark.parametrize("length", range(4, 10))
@pytest.mark.parametrize("rows", range(1, 7))
def test_every_figure_reads_as_its_number_beside_its_row(length: int, rows: int) -> None:
    turns = game(length, rows)
    image = review_image(turns, 45, 67)
    layout = review_layout(length, rows)
    assert layout.tile >= MIN_TILE and layout.row_top(rows - 1) + layout.tile <= HEIGHT
    tiles_right = MARGIN + tiles_width(length, layout.tile)
    size = figure_size(layout.tile)
    for row, turn in enumerate(turns):
        for column, figure in enumerate((turn.skill, turn.luck)):
            box = layout.figure_box(row, column)
            assert box[0] > tiles_right and box[2] <= WIDTH - MARGIN  # clear of the tiles
            drawn = ink(image, box)
            expected = np.asarray(ink_text(str(figure), font(Face.BOLD, size)).mask, dtype=bool)
            ys, xs = np.nonzero(drawn)
            assert ys.size, f"row {row + 1}: no figure"
            # Exactly the number's glyphs, nothing else in its box, capitals of 9 px or more.
            crop = drawn[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
            assert crop.shape == expected.shape and (crop == expected).all()
            assert crop.shape[0] >= 9


def test_the_header_gives_the_games_figures_over_their_columns() -> None:
    image = review_image(REVIEW_SIX, 74, 29)
    layout = review_layout(5, 6)
    for right, figure in zip(layout.rights, ("74", "29"), strict=True):
        drawn = ink(image, (right - FIGURE_WIDTH, 2, right, 16))
        ys, xs = np.nonzero(drawn)
        crop = drawn[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        expected = np.asarray(ink_text(figure, font(Face.BOLD, 14)).mask, dtype=bool)
        assert crop.shape == expected.shape and (crop == expected).all()


@pytest.mark.parametrize("length", range(4, 10))
def test_the_frame_survives_the_encoder_within_the_budget(length: int) -> None:
    planes = render_review(game(length, 6), 99, 0)
    data = encode(planes.black, planes.red)
    # Never a set's first frame (the end card is), so the suggestion budget binds only the
    # game's five letters; six rows of longer words, mostly yellow, take up to a quarter more.
    budget = SUGGESTION_FRAME_BUDGET_BYTES
    assert len(data) <= (budget if length <= 5 else budget * 5 // 4)
    assert decode(data) == (planes.black, planes.red)
    image = planes_to_image(planes)
    assert (np.asarray(image) != WHITE).any(axis=2).sum() > 500


@pytest.mark.parametrize(
    ("turns", "skill", "message"),
    [
        ([], 50, "1 to 6 guesses, got 0"),
        (game(5, 7), 50, "1 to 6 guesses, got 7"),
        (game(5, 2), 100, "0 to 99, got 100"),
        ([TurnFigures("crane", "GGGG", 1, 1)], 1, "feedback 'GGGG'"),
    ],
)
def test_bad_reviews_are_refused_with_a_clear_message(turns, skill: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render_review(turns, skill, 1)
