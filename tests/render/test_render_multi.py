"""Frames of several boards: golden PNGs, and every frame read back off the panel picture
(the word large, each board's state in its cell, in board order)."""

from __future__ import annotations

import re

import pytest
from multi_golden_cases import (
    GOLDEN_DIR,
    MULTI_GOLDEN_CASES,
    OCTORDLE,
    QUORDLE,
    advice,
    left,
    solved,
)
from panel_reader import cap_height, read_line, read_lines
from PIL import Image
from render_golden_cases import assert_matches_golden

from epdle.render.multi import MIN_CAP, cell_box, grid, multi_word_box, render_multi
from epdle.render.options import BLACK, RED, WHITE
from epdle.render.planes import LANDSCAPE_SIZE, planes_to_image
from epdle.render.suggestions import MIN_WORD_CAP_HEIGHT
from epdle.solver.multi import BoardAdvice, MultiAdvice, MultiSuggestion


def test_every_golden_file_has_a_case_and_every_case_a_file() -> None:
    assert {path.stem for path in GOLDEN_DIR.glob("*.png")} == set(MULTI_GOLDEN_CASES)


@pytest.mark.parametrize("name", sorted(MULTI_GOLDEN_CASES))
def test_frame_matches_its_golden_png(name: str) -> None:
    golden = assert_matches_golden(MULTI_GOLDEN_CASES[name](), GOLDEN_DIR / f"{name}.png")
    assert {colour for _, colour in golden.getcolors()} <= {WHITE, BLACK, RED}


def inside(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    left_, top, right, bottom = box
    return left_ + 2, top + 2, right - 2, bottom - 2


def cell_reads(image: Image.Image, boards: int, index: int, solved_cell: bool) -> list[str]:
    """What a person reads in board ``index``'s cell, line by line (O and 0 alike)."""
    colour = WHITE if solved_cell else BLACK
    return [
        line.replace("0", "O")
        for line in read_lines(image, inside(cell_box(boards, index)), colour)
    ]


def expected_reading(board: BoardAdvice) -> str:
    """A pattern of what the cell must say for a person to know the board's state: a word
    shown with how many more may be the answer (EPOCH alone is one word left, never
    three)."""
    if board.solved_in is not None:
        return rf"\b{board.solved_in}\b"
    if board.candidates_left == 1:
        return rf"\b{board.candidates[0].upper()}\b(?! ?\+)"
    if board.candidates_left <= 3:
        word, more = board.candidates[0].upper(), board.candidates_left - 1
        return rf"\b{word}( ?\+{more}| .*\b{more})\b"  # on one line, or 'or N more' under
    return rf"\b{str(board.candidates_left).replace('0', 'O')}\b"


# Wide words (M, W) in the cells and as the guess; counts of one to four digits.
WIDE = [
    solved(2, "mummy"),
    left("wowed", "mamma"),
    left("about", count=1234),
    left("mummy"),
    left("about", count=9),
    solved(12, "womyn"),
    left("swamp", "other", "their"),
    left("about", count=120),
]


@pytest.mark.parametrize("boards", [2, 3, 4, 5, 8])
@pytest.mark.parametrize("word", ["cigar", "mummy", "wowed"])
def test_each_frame_reads_at_arms_length(boards: int, word: str) -> None:
    states = WIDE[:boards]
    case = MultiAdvice(
        [MultiSuggestion(word, 6.0, (1,)), MultiSuggestion("blimp", 6.2, ())],
        states,
        4,
        boards + 1,
        False,
        False,
    )
    for frame in render_multi(case, top=2):
        image = planes_to_image(frame)
        assert read_line(image, multi_word_box()) in (word.upper(), "BLIMP")
        assert cap_height(image, multi_word_box()) >= MIN_WORD_CAP_HEIGHT
        for index, board in enumerate(states):
            is_solved = board.solved_in is not None
            reading = " ".join(cell_reads(image, boards, index, is_solved))
            assert re.search(expected_reading(board), reading), (index, reading)
            height = cap_height(
                image, inside(cell_box(boards, index)), WHITE if is_solved else BLACK
            )
            assert height >= MIN_CAP


def test_the_first_frame_names_the_next_two_and_the_button_cycles_the_rest() -> None:
    case = advice(QUORDLE, 3)
    frames = render_multi(case, top=3)
    assert len(frames) == 3 and len(set(frames)) == 3
    first = planes_to_image(frames[0])
    header = (0, 0, LANDSCAPE_SIZE[0], multi_word_box()[1])
    assert read_line(first, header).endswith("MUMMY BLIMP")
    assert read_line(planes_to_image(frames[1]), multi_word_box()) == "MUMMY"
    assert len(render_multi(case, top=1)) == 1


def test_the_end_frames_say_solved_or_what_each_board_had_left() -> None:
    lost = planes_to_image(render_multi(advice(QUORDLE, 9, lost=True), top=5)[0])
    title = (0, 0, LANDSCAPE_SIZE[0], cell_box(4, 0)[1])
    assert read_line(lost, title) == "NOT SOLVED"
    assert cell_reads(lost, 4, 1, False) == ["CIGAR +1"]  # the likeliest of two
    assert cell_reads(lost, 4, 3, False) == ["HUMPH"]
    won = [solved(2, "crane"), solved(7, "cigar")]
    image = planes_to_image(render_multi(advice(won, 7, solved=True), top=5)[0])
    assert read_line(image, title, RED).startswith("SOLVED")
    assert [cell_reads(image, 2, index, True)[0].split()[-1] for index in (0, 1)] == ["2", "7"]


def test_a_board_no_word_fits_gives_the_status_frame() -> None:
    stuck = advice([left("about", count=12), BoardAdvice(None, 0, [])], 3)
    frames = render_multi(stuck, top=5)
    assert len(frames) == 1
    image = planes_to_image(frames[0])
    assert read_line(image, (0, 0, LANDSCAPE_SIZE[0], cell_box(2, 0)[1])) == "NO WORD FITS"


@pytest.mark.parametrize(("boards", "layout"), [(1, (1, 1)), (2, (2, 1)), (4, (2, 2)),
                                                (8, (4, 2)), (32, (8, 4))])  # fmt: skip
def test_cells_lie_in_reading_order_inside_the_panel(boards: int, layout) -> None:
    assert grid(boards) == layout
    boxes = [cell_box(boards, index) for index in range(boards)]
    assert all(0 <= left_ < right <= LANDSCAPE_SIZE[0] for left_, _, right, _ in boxes)
    assert all(
        multi_word_box()[3] <= top < bottom <= LANDSCAPE_SIZE[1] for _, top, _, bottom in boxes
    )
    assert boxes == sorted(boxes, key=lambda box: (box[1], box[0]))


def test_thirty_two_boards_still_draw_every_count() -> None:
    states = [left("about", count=10 + index) for index in range(32)]
    image = planes_to_image(render_multi(advice(states, 6), top=1)[0])
    reads = [cell_reads(image, 32, index, False) for index in range(32)]
    assert reads == [[str(10 + index).replace("0", "O")] for index in range(32)]


def test_top_below_one_is_rejected() -> None:
    with pytest.raises(ValueError, match="top"):
        render_multi(advice(OCTORDLE, 5), top=0)
