"""Suggestion and status frames: what the device shows for the solver's advice.

Landscape 212 x 104. With guesses played, the board so far sits on the left
(the past) and the suggestion on the right (the next move): rank badge, the
word in large capitals, then candidates left and expected information.
Before the first guess the suggestion takes the whole width.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING

from PIL import Image

from .board import (
    BOARD_WIDTH,
    History,
    board_height,
    checked_history,
    draw_board,
    draw_tiles,
    tiles_width,
)
from .canvas import Box, Canvas, Colour, InkText, ink_text
from .fonts import Face, font
from .options import BLACK, RED, WHITE
from .planes import LANDSCAPE_SIZE, Planes, image_to_planes

if TYPE_CHECKING:
    from epdle.solver import Advice, Suggestion

WIDTH, HEIGHT = LANDSCAPE_SIZE
MARGIN = 3
PANEL_LEFT_WITH_BOARD = MARGIN + BOARD_WIDTH + 4
HEADER_TOP, HEADER_BOTTOM = 3, 18
WORD_TOP, WORD_BOTTOM = 24, 60
STATS_TOP, STATS_BOTTOM = 66, 101
MIN_WORD_CAP_HEIGHT = 24
LOGO = ("EPDLE", "GYBGY")
LOGO_TILE = 30


class StatusKind(Enum):
    WAITING = "waiting"  # no host talking to the device
    SOLVED = "solved"
    NO_MATCH = "no_match"  # no word fits the feedback given


def word_box(has_board: bool) -> Box:
    """Where the suggested word's ink goes (tests measure the glyphs inside it)."""
    return (_panel_left(has_board), WORD_TOP, WIDTH - MARGIN, WORD_BOTTOM)


def fit_word(word: str, box: Box) -> InkText:
    """The largest crisp rendering of ``word`` in capitals that fits ``box``.

    Tries the bold face from large to 24 px capitals, then the condensed face,
    then the condensed face set tighter than the font spaces it.
    """
    styles = [(Face.BOLD, size, 2) for size in range(44, 32, -1)]
    styles += [(Face.CONDENSED_BOLD, 33, tracking) for tracking in (1, 0, -1, -2)]
    ink = _first_fitting(word.upper(), styles, box)
    if ink is None:
        raise ValueError(
            f"{word!r} is too wide for {box[2] - box[0]} px at {MIN_WORD_CAP_HEIGHT} px capitals"
        )
    return ink


def _largest_bold(text: str, box: Box, largest: int) -> InkText:
    """``text`` in the largest bold size up to ``largest`` that fits ``box``."""
    ink = _first_fitting(text, [(Face.BOLD, size, 0) for size in range(largest, 8, -1)], box)
    if ink is None:
        raise ValueError(f"{text!r} does not fit {box[2] - box[0]} x {box[3] - box[1]} px")
    return ink


def _first_fitting(text: str, styles: Sequence[tuple[Face, int, int]], box: Box) -> InkText | None:
    """The first (face, size, tracking) rendering of ``text`` that fits ``box``."""
    width, height = box[2] - box[0], box[3] - box[1]
    for face, size, tracking in styles:
        ink = ink_text(text, font(face, size), tracking)
        if ink.width <= width and ink.height <= height:
            return ink
    return None


def render_suggestion(
    history: History, suggestion: Suggestion, rank: int, of: int, candidates_left: int
) -> Planes:
    """One suggestion frame: rank ``rank`` of ``of``, with the board so far."""
    return image_to_planes(suggestion_image(history, suggestion, rank, of, candidates_left))


def suggestion_image(
    history: History, suggestion: Suggestion, rank: int, of: int, candidates_left: int
) -> Image.Image:
    """render_suggestion() as the landscape picture drawn (panel colours only)."""
    if not 1 <= rank <= of:
        raise ValueError(f"rank must be within 1..{of}, got {rank}")
    rows = checked_history(history)
    canvas = Canvas()
    left = _draw_board_if_any(canvas, rows)
    _draw_header(canvas, left, f"{rank}/{of}", *_verdict(suggestion, candidates_left))
    box = word_box(bool(rows))
    canvas.stamp_centred(fit_word(suggestion.word, box), box, BLACK)
    _draw_stats(
        canvas, left, [(str(candidates_left), "words left"), (f"{suggestion.bits:.2f}", "bits")]
    )
    return canvas.image


def render_status(kind: StatusKind, history: History = ()) -> Planes:
    """A status frame: waiting for a host, solved in N, or no word fits the feedback."""
    return image_to_planes(status_image(kind, history))


def status_image(kind: StatusKind, history: History = ()) -> Image.Image:
    """render_status() as the landscape picture drawn (panel colours only).

    The waiting frame is the logo alone: it ignores ``history``.
    """
    rows = checked_history(history) if kind is not StatusKind.WAITING else []
    canvas = Canvas()
    left = _draw_board_if_any(canvas, rows)
    box = word_box(bool(rows))
    if kind is StatusKind.SOLVED:
        canvas.stamp_centred(_largest_bold("SOLVED", box, 44), box, RED)
        guesses = len(rows)
        _draw_caption(canvas, left, f"in {guesses} guess" + ("" if guesses == 1 else "es"))
    elif kind is StatusKind.NO_MATCH:
        canvas.stamp_centred(_largest_bold("NO WORD", box, 44), box, BLACK)
        _draw_caption(canvas, left, "fits the colours")
    else:
        _draw_logo(canvas)
        _draw_caption(canvas, left, "waiting for host")
    return canvas.image


def render_advice(history: History, advice: Advice, top: int) -> list[Planes]:
    """The frames for one turn: a frame per suggestion (at most ``top``), or a status."""
    if top < 1:
        raise ValueError(f"top must be at least 1, got {top}")
    if advice.solved:
        return [render_status(StatusKind.SOLVED, history)]
    suggestions: Sequence[Suggestion] = advice.suggestions[:top]
    if advice.candidates_left == 0 or not suggestions:
        return [render_status(StatusKind.NO_MATCH, history)]
    return [
        render_suggestion(history, suggestion, rank, len(suggestions), advice.candidates_left)
        for rank, suggestion in enumerate(suggestions, start=1)
    ]


def _verdict(suggestion: Suggestion, candidates_left: int) -> tuple[str, Colour]:
    """Whether playing the word can end the game, as the header's label."""
    if not suggestion.is_candidate:
        return "can't win", BLACK
    return ("the answer" if candidates_left == 1 else "could win"), RED


def _panel_left(has_board: bool) -> int:
    return PANEL_LEFT_WITH_BOARD if has_board else MARGIN


def board_origin(guesses: int) -> tuple[int, int]:
    """Top-left corner of the board for ``guesses`` played: left edge, centred vertically."""
    return MARGIN, (HEIGHT - board_height(guesses)) // 2


def _draw_board_if_any(canvas: Canvas, rows: list[tuple[str, str]]) -> int:
    if rows:
        draw_board(canvas, rows, *board_origin(len(rows)))
    return _panel_left(bool(rows))


def _draw_header(canvas: Canvas, left: int, badge: str, label: str, colour: Colour) -> None:
    badge_ink = ink_text(badge, font(Face.BOLD, 12))
    badge_box: Box = (left, HEADER_TOP, left + badge_ink.width + 10, HEADER_BOTTOM)
    canvas.rounded(badge_box, RED, radius=3)
    canvas.stamp_centred(badge_ink, badge_box, WHITE)
    label_ink = ink_text(label, font(Face.BOLD, 12))
    label_box: Box = (WIDTH - MARGIN - label_ink.width, HEADER_TOP, WIDTH - MARGIN, HEADER_BOTTOM)
    canvas.stamp_centred(label_ink, label_box, colour)


def _draw_stats(canvas: Canvas, left: int, stats: list[tuple[str, str]]) -> None:
    column_width = (WIDTH - MARGIN - left) // len(stats)
    for index, (value, label) in enumerate(stats):
        x = left + index * column_width
        value_box: Box = (x, STATS_TOP, x + column_width, STATS_TOP + 16)
        label_box: Box = (x, STATS_TOP + 20, x + column_width, STATS_BOTTOM)
        canvas.stamp_centred(ink_text(value, font(Face.BOLD, 20)), value_box, BLACK)
        canvas.stamp_centred(ink_text(label, font(Face.BOLD, 11)), label_box, BLACK)


def _draw_caption(canvas: Canvas, left: int, caption: str) -> None:
    box: Box = (left, STATS_TOP, WIDTH - MARGIN, STATS_BOTTOM)
    canvas.stamp_centred(_largest_bold(caption, box, 15), box, BLACK)


def _draw_logo(canvas: Canvas) -> None:
    word, feedback = LOGO
    left = (WIDTH - tiles_width(len(word), LOGO_TILE)) // 2
    draw_tiles(canvas, word, feedback, left, 14, LOGO_TILE, 22)
