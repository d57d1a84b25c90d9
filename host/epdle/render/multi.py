"""Frames for a game of several boards (Dordle, Quordle, Octordle, up to 32 boards).

Landscape 212 x 104, read at arm's length. A suggestion frame has a header line (rank
badge, the guess to come out of the game's limit and, on the first frame, the next two
words; "could win" when the word may solve a board), the word in large capitals across
the width, and below one cell per board in reading order (the boards side by side; two
rows from four boards, as Quordle and Octordle lay them out): a solved board is a red
cell saying in which guess, an open one says how many words are left, or its likeliest
word when few are. The button cycles the next best words as in the single game. At the
end a status frame: SOLVED with the guesses it took, or NOT SOLVED with what each open
board had left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Protocol

from PIL import Image

from epdle.words.languages import display_word

from .canvas import Box, Canvas, InkText, ink_text
from .fonts import Face, font
from .options import BLACK, RED, WHITE
from .planes import Planes, image_to_planes
from .suggestions import (
    BOARD_HEADER,
    BOARD_TOP,
    BOARD_WORD,
    HEIGHT,
    MARGIN,
    WIDTH,
    draw_badge,
    first_fitting,
    fit_word,
    largest_bold,
    letters_apart,
)

# An open board with at most this many words left shows its likeliest word.
FEW = 3
# Capitals in a cell are never smaller than the board tiles' letters (9 px), except a
# lone figure in the tiny cells of more than 16 boards.
MIN_CAP = 9
CELL_GAP = 1
# Edge to edge: four cells a row then hold five wide capitals (WOWED) of 9 px.
CELLS: Box = (0, BOARD_TOP, WIDTH, HEIGHT - 1)


class BoardShown(Protocol):
    @property
    def solved_in(self) -> int | None: ...
    @property
    def candidates_left(self) -> int: ...
    @property
    def candidates(self) -> list[str]: ...


class SuggestionShown(Protocol):
    @property
    def word(self) -> str: ...
    @property
    def solves(self) -> tuple[int, ...]: ...


class AdviceShown(Protocol):
    @property
    def suggestions(self) -> Sequence[SuggestionShown]: ...
    @property
    def boards(self) -> Sequence[BoardShown]: ...
    @property
    def guesses_used(self) -> int: ...
    @property
    def guesses_left(self) -> int: ...
    @property
    def solved(self) -> bool: ...
    @property
    def lost(self) -> bool: ...


@dataclass(frozen=True)
class CellText:
    """What a board's cell says, each line's texts fullest first (the first that fits is
    drawn): on two lines when the cell is tall enough, else on one; and whether the
    board is solved (a red cell, white letters)."""

    main: list[str]
    under: list[str]
    one_line: list[str]
    solved: bool


def multi_word_box() -> Box:
    """Where the suggested word's ink goes (the suggestion frames' layout before their
    fast window moved it up: several-board frames are always refreshed in full)."""
    return (MARGIN, BOARD_WORD[0], WIDTH - MARGIN, BOARD_WORD[1])


def grid(boards: int) -> tuple[int, int]:
    """(columns, rows) of the board cells: side by side up to three boards, two rows up
    to eight (Quordle 2 x 2, Octordle 4 x 2), then rows of eight."""
    if boards <= 3:
        return boards, 1
    rows = 2 if boards <= 8 else -(-boards // 8)
    return -(-boards // rows), rows


def cell_box(boards: int, index: int) -> Box:
    """Where board ``index`` (from 0) is drawn, in reading order."""
    columns, rows = grid(boards)
    left, top, right, bottom = CELLS
    width = (right - left + CELL_GAP) // columns
    height = (bottom - top + CELL_GAP) // rows
    row, column = divmod(index, columns)
    x, y = left + column * width, top + row * height
    return x, y, x + width - CELL_GAP, y + height - CELL_GAP


def cell_text(board: BoardShown) -> CellText:
    """A board's state in words: solved in which guess (and its word), its likeliest word
    when few are left, else how many words are left."""
    left = board.candidates_left
    if board.solved_in is not None:
        solved = [f"solved in {board.solved_in}", f"in {board.solved_in}"]
        answer = [display_word(board.candidates[0])] if board.candidates else []
        return CellText(solved, answer, [*solved[1:], str(board.solved_in)], True)
    if 0 < left <= FEW:
        word = display_word(board.candidates[0])
        more = f"or {left - 1} more" if left > 1 else "the answer"
        # The count stays with the word (EPOCH alone means one word left): beside it on
        # one line, or under it where the line is too short (draw_cell).
        if left == 1:
            return CellText([word], [more], [word, str(left)], False)
        count = f"+{left - 1}"
        return CellText([word], [more, count], [f"{word} {count}", f"{word}{count}"], False)
    counts = ["no word fits", "none"] if left == 0 else [f"{left} left", str(left)]
    return CellText(counts, [], counts, False)


@cache
def _cell_styles(largest: int, readable: bool) -> list[tuple[Face, int, int]]:
    """Bold, then condensed bold, from ``largest`` px down (``readable``: to capitals of
    MIN_CAP px, else to the smallest)."""
    return [
        (face, size, 0)
        for size in range(largest, 5, -1)
        for face in (Face.BOLD, Face.CONDENSED_BOLD)
        if not readable or ink_text("H", font(face, size)).height >= MIN_CAP
    ]


@lru_cache(maxsize=4096)
def _apart(text: str, box: Box, largest: int, readable: bool) -> InkText | None:
    """``text`` in the first cell style that fits ``box`` with no two letters touching
    (kept: the same cells come back in every frame of a turn and from turn to turn)."""
    for face, size, tracking in _cell_styles(largest, readable):
        ink = first_fitting(text, [(face, size, tracking)], box)
        if ink is not None and letters_apart(text, ink, face, size):
            return ink
    return None


def _readable(texts: Sequence[str], box: Box, largest: int = 20) -> InkText | None:
    """The first of ``texts`` that fits ``box`` with capitals of MIN_CAP px or more and
    no two letters touching (None: none does)."""
    for text in texts:
        ink = _apart(text, box, largest, readable=True)
        if ink is not None:
            return ink
    return None


def _fitting(texts: Sequence[str], box: Box, largest: int) -> InkText | None:
    """_readable, else the last of ``texts`` smaller (None: nothing fits)."""
    ink = _readable(texts, box, largest)
    if ink is not None:
        return ink
    if not texts:
        return None
    smaller = _apart(texts[-1], box, largest, readable=False)
    return smaller or first_fitting(texts[-1], _cell_styles(largest, False), box)


def draw_cell(canvas: Canvas, box: Box, text: CellText, highlight: bool = False) -> None:
    """One board's cell: red with white letters once solved, else framed (in red when the
    suggested word may solve it)."""
    if text.solved:
        canvas.rounded(box, RED, radius=3)
        ink_colour = WHITE
    else:
        canvas.outline(box, RED if highlight else BLACK)
        ink_colour = BLACK
    left, top, right, bottom = box
    inner: Box = (left + 2, top + 2, right - 2, bottom - 2)
    middle = top + (bottom - top) * 3 // 5
    if bottom - top < 40 or not text.under:
        ink = _readable(text.one_line, inner)
        if ink is None and text.under:
            # Too short for one line: the word above, its count under it, both readable.
            middle = inner[1] + MIN_CAP + 2
        else:
            ink = ink or _fitting(text.one_line, inner, 20)
            if ink is not None:
                canvas.stamp_centred(ink, inner, ink_colour)
            return
    main = _fitting(text.main, (inner[0], inner[1], inner[2], middle), 20)
    under = _fitting(text.under, (inner[0], middle + 1, inner[2], inner[3]), 14)
    if main is not None:
        canvas.stamp_centred(main, (inner[0], inner[1], inner[2], middle), ink_colour)
    if under is not None:
        canvas.stamp_centred(under, (inner[0], middle + 1, inner[2], inner[3]), ink_colour)


def draw_cells(canvas: Canvas, boards: Sequence[BoardShown], highlight: Sequence[int] = ()) -> None:
    for index, board in enumerate(boards):
        box = cell_box(len(boards), index)
        draw_cell(canvas, box, cell_text(board), index in highlight)


def _header(texts: Sequence[str], box: Box) -> tuple[int, InkText | None]:
    """The first of ``texts`` that fits ``box`` in bold of 12 to 9 px, and its index
    (len(texts), None: none fits)."""
    for index, text in enumerate(texts):
        ink = first_fitting(text, [(Face.BOLD, size, 0) for size in range(12, 8, -1)], box)
        if ink is not None:
            return index, ink
    return len(texts), None


def header_texts(advice: AdviceShown, also: Sequence[str], mode: str) -> list[str]:
    """The header beside the badge, fullest first: the guess to come of the limit (and
    the mode), then the next best words on the first frame."""
    limit = advice.guesses_used + advice.guesses_left
    turn = f"guess {advice.guesses_used + 1} of {limit}"
    short = f"#{advice.guesses_used + 1} of {limit}"
    words = [display_word(word) for word in also]
    nexts = [f"  or {' '.join(words[:count])}" for count in range(len(words), 0, -1)]
    heads = [f"{turn} ({mode})", f"{short} ({mode})"] if mode else []
    heads += [turn, short]
    return [*(f"{head}{tail}" for tail in nexts for head in heads), *heads]


def suggestion_image(
    advice: AdviceShown, rank: int, of: int, also: Sequence[str] = (), mode: str = ""
) -> Image.Image:
    """Suggestion ``rank`` of ``of`` (from 1) as the landscape picture drawn; ``also``, the
    next best words; ``mode``, the game's rules in a word or two."""
    if not 1 <= rank <= min(of, len(advice.suggestions)):
        raise ValueError(f"rank must be within 1..{min(of, len(advice.suggestions))}, got {rank}")
    suggestion = advice.suggestions[rank - 1]
    canvas = Canvas()
    box = multi_word_box()
    canvas.stamp_centred(fit_word(suggestion.word, box), box, BLACK)
    top, bottom = BOARD_HEADER
    badge = draw_badge(canvas, f"{rank}/{of}", top, bottom, RED)
    texts = header_texts(advice, also, mode)
    label = first_fitting("could win", [(Face.BOLD, 12, 0)], (0, 0, WIDTH, HEIGHT))
    # "could win" (red) when the word may solve a board, unless it crowds out the next
    # words (the red frame round the board's cell says it too).
    room = (badge[2] + 4, top, WIDTH - MARGIN, bottom)
    with_label = (room[0], top, room[2] - (label.width + 4 if label else 0), bottom)
    chosen, ink = _header(texts, room)
    if suggestion.solves and label is not None:
        labelled, labelled_ink = _header(texts, with_label)
        if labelled == chosen:
            canvas.stamp_centred(label, (with_label[2] + 4, top, WIDTH - MARGIN, bottom), RED)
            room, ink = with_label, labelled_ink
    if ink is not None:
        canvas.stamp_centred(ink, room, BLACK)
    draw_cells(canvas, advice.boards, suggestion.solves)
    return canvas.image


def status_image(advice: AdviceShown) -> Image.Image:
    """The end of the game: SOLVED in how many guesses, or NOT SOLVED with each board's
    state (what an open board had left)."""
    canvas = Canvas()
    if advice.solved:
        title, colour = f"SOLVED in {advice.guesses_used}", RED
    elif advice.lost:
        title, colour = "NOT SOLVED", BLACK
    else:
        title, colour = "NO WORD FITS", BLACK
    title_box: Box = (MARGIN, 2, WIDTH - MARGIN, BOARD_TOP - 4)
    canvas.stamp_centred(largest_bold(title, title_box, 40), title_box, colour)
    draw_cells(canvas, advice.boards)
    return canvas.image


def render_multi(advice: AdviceShown, top: int, mode: str = "") -> list[Planes]:
    """The frames for one turn: one per suggestion (at most ``top``), the first naming the
    next two; or the status frame once the game is over (or no word fits a board)."""
    if top < 1:
        raise ValueError(f"top must be at least 1, got {top}")
    suggestions = advice.suggestions[:top]
    stuck = any(board.candidates_left == 0 for board in advice.boards)
    if advice.solved or advice.lost or stuck or not suggestions:
        return [image_to_planes(status_image(advice))]
    next_two = [suggestion.word for suggestion in suggestions[1:3]]
    return [
        image_to_planes(
            suggestion_image(advice, rank, len(suggestions), next_two if rank == 1 else (), mode)
        )
        for rank in range(1, len(suggestions) + 1)
    ]
