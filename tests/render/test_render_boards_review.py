"""Several boards' review frame: each guess's word and figures legible, apart, inside the
panel and the frame budget, for every game length Dordle to Octordle."""

from __future__ import annotations

import numpy as np
import pytest

from epdle.frames import decode, encode
from epdle.frames.store import SUGGESTION_FRAME_BUDGET_BYTES
from epdle.render.boards_review import (
    BoardsTurnFigures,
    boards_review_image,
    boards_review_layout,
    render_boards_review,
)
from epdle.render.canvas import ink_text
from epdle.render.fonts import Face, font
from epdle.render.options import BLACK, RED
from epdle.render.review import FIGURE_WIDTH, MARGIN, review_layout

WIDTH, HEIGHT = 212, 104
# The widest capitals of all in the last rows, where two columns are narrowest.
WORDS = ["tarse", "poind", "blunt", "wryly", "knoll", "shove", "proxy", "creme", "ample",
         "gamer", "mommy", "fuzzy", "jiffy", "wwwww"]  # fmt: skip


def game(rows: int) -> list[BoardsTurnFigures]:
    return [BoardsTurnFigures(WORDS[i], i % 3 == 2, 99 - 7 * i, 8 + 6 * i) for i in range(rows)]


def ink(image, box, colour) -> np.ndarray:
    return (np.asarray(image.crop(box)) == colour).all(axis=2)


def exactly(drawn: np.ndarray, text: str, size: int, face: Face = Face.BOLD) -> bool:
    """Whether the ink in `drawn` is `text` at `face`'s `size` and nothing else."""
    ys, xs = np.nonzero(drawn)
    expected = np.asarray(ink_text(text, font(face, size)).mask, dtype=bool)
    crop = drawn[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return crop.shape == expected.shape and bool((crop == expected).all())


@pytest.mark.parametrize("rows", range(1, 15))
def test_every_word_and_figure_reads_in_its_own_box(rows: int) -> None:
    turns = game(rows)
    image = boards_review_image(turns, 64, 37)
    widest = max(
        (t.word.upper() for t in turns),
        key=lambda w: ink_text(w, font(Face.CONDENSED_BOLD, 12)).width,
    )
    layout = boards_review_layout(rows, widest)
    boxes = []
    for index, turn in enumerate(turns):
        word_box = layout.word_box(index)
        colour = RED if turn.solved else BLACK
        word = turn.word.upper()
        assert exactly(ink(image, word_box, colour), word, layout.size, Face.CONDENSED_BOLD)
        assert not ink(image, word_box, RED if colour == BLACK else BLACK).any()
        boxes.append(word_box)
        for which, figure in enumerate((turn.skill, turn.luck)):
            box = layout.figure_box(index, which)
            assert exactly(ink(image, box, BLACK), str(figure), layout.size)
            boxes.append(box)
    # Inside the panel under the header's rule, and no two boxes overlap.
    for left, top, right, bottom in boxes:
        assert MARGIN <= left < right <= WIDTH - MARGIN and 19 < top < bottom <= HEIGHT
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    # Capitals of 9 px or more, read at arm's length.
    assert ink_text("E", font(Face.CONDENSED_BOLD, layout.size)).height >= 9


def test_the_header_gives_the_games_figures_as_one_boards_card_does() -> None:
    image = boards_review_image(game(9), 74, 29)
    for right, figure in zip(review_layout(5, 1).rights, ("74", "29"), strict=True):
        assert exactly(ink(image, (right - FIGURE_WIDTH, 2, right, 16), BLACK), figure, 14)


@pytest.mark.parametrize("rows", [7, 9, 13])
def test_the_frame_survives_the_encoder_within_the_budget(rows: int) -> None:
    planes = render_boards_review(game(rows), 99, 0)
    data = encode(planes.black, planes.red)
    # Never a set's first frame on the device (the end card is): the suggestion budget
    # binds a Dordle's seven rows; Octordle's thirteen take up to half as much again.
    budget = SUGGESTION_FRAME_BUDGET_BYTES
    assert len(data) <= (budget if rows <= 7 else budget * 3 // 2)
    assert decode(data) == (planes.black, planes.red)


@pytest.mark.parametrize(
    ("turns", "skill", "message"),
    [
        ([], 50, "1 to 14 guesses, got 0"),
        (game(14) + game(1), 50, "1 to 14 guesses, got 15"),
        (game(2), 100, "0 to 99, got 100"),
        ([BoardsTurnFigures("cr4ne", 0, 1, 1)], 1, "letters only"),
    ],
)
def test_bad_reviews_are_refused_with_a_clear_message(turns, skill: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render_boards_review(turns, skill, 1)
