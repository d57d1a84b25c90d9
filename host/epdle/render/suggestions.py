"""Suggestion and status frames: what the device shows for the solver's advice.

Landscape 212 x 104. Before the first guess the suggestion takes the whole
frame: rank badge and verdict, the word in large capitals, then candidates left
and the next best words (the first frame) or the words it leaves on average. With
guesses played, the frame stacks the next move over the past: a header line (badge,
candidates left and the next two words on the first frame, the verdict), the word
across the whole width (nine letters fit), and the board below in tiles as large as
fit, one or two columns of rows. One refresh serves a decision: the first frame names
the runners-up; the button still cycles them. Any length 4..9, any language's letters.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING

from PIL import Image

from epdle.odds import chance_shown, chance_text
from epdle.words.languages import display_word

from .board import (
    BoardLayout,
    History,
    checked_history,
    draw_board,
    draw_tiles,
    fit_board,
    tiles_width,
)
from .canvas import Box, Canvas, Colour, InkText, ink_parts, ink_text
from .fonts import Face, font
from .options import BLACK, RED, WHITE
from .planes import LANDSCAPE_SIZE, Planes, image_to_planes

if TYPE_CHECKING:
    from epdle.solver import Advice, Suggestion

WIDTH, HEIGHT = LANDSCAPE_SIZE
MARGIN = 3
# The opening frame (no board).
HEADER_TOP, HEADER_BOTTOM = 3, 18
WORD_TOP, WORD_BOTTOM = 24, 60
STATS_TOP, STATS_BOTTOM = 66, 101
# Status frames and the several-board frames (epdle.render.multi).
BOARD_HEADER = (2, 16)
BOARD_WORD = (18, 50)
BOARD_TOP = 52
# A suggestion's header, word and board with guesses played: the header and word end by
# landscape row 47, the board starts at 48, a byte column of the panel (8 px) apart: the
# frames of a set differ only above that line (the counter badge, the header, the word),
# where a fast black/white update may redraw them, and the board's red tiles stay
# outside that fast window (docs/frame-format.md).
SUGGESTION_HEADER = (1, 14)
SUGGESTION_WORD = (15, 47)
SUGGESTION_BOARD_TOP = 48
MIN_WORD_CAP_HEIGHT = 24
# Eight and nine letters: the widest (MAMMOGRAM) at the largest size that fits 206 px.
MIN_LONG_WORD_CAP_HEIGHT = 21
LOGO = ("EPDLE", "GYBGY")
LOGO_TILE = 30


def min_cap_height(length: int) -> int:
    """The smallest capitals a suggested word of ``length`` letters is ever drawn in."""
    return MIN_WORD_CAP_HEIGHT if length <= 7 else MIN_LONG_WORD_CAP_HEIGHT


class StatusKind(Enum):
    WAITING = "waiting"  # no host talking to the device
    SOLVED = "solved"
    NO_MATCH = "no_match"  # no word fits the feedback given
    LOST = "lost"  # every guess played, none solved it: the words that were left


def word_box(has_board: bool) -> Box:
    """Where the suggested word's ink goes (tests measure the glyphs inside it)."""
    if has_board:
        return (MARGIN, SUGGESTION_WORD[0], WIDTH - MARGIN, SUGGESTION_WORD[1])
    return (MARGIN, WORD_TOP, WIDTH - MARGIN, WORD_BOTTOM)


def board_box(length: int, guesses: int) -> tuple[int, int, BoardLayout]:
    """Top-left corner and layout of the board for ``guesses`` played (centred below)."""
    width, room = WIDTH - 2 * MARGIN, HEIGHT - 2 - SUGGESTION_BOARD_TOP
    # Tiles as large as the 50 px below BOARD_TOP take (larger ones cost a full board's
    # frame its kilobyte), centred in the room below SUGGESTION_BOARD_TOP.
    layout = fit_board(length, guesses, width, HEIGHT - 2 - BOARD_TOP)
    left = MARGIN + (width - layout.width) // 2
    return left, SUGGESTION_BOARD_TOP + (room - layout.height) // 2, layout


def fit_word(word: str, box: Box) -> InkText:
    """The largest crisp rendering of ``word`` in capitals that fits ``box``.

    Tries the bold face from large to 24 px capitals, then the condensed face,
    then the condensed face set tighter than the font spaces it, then (long words)
    smaller condensed sizes down to the length's minimum capitals; never one where
    two letters touch.
    """
    styles = [(Face.BOLD, size, 2) for size in range(44, 32, -1)]
    styles += [(Face.CONDENSED_BOLD, 33, tracking) for tracking in (1, 0, -1, -2)]
    styles += [
        (Face.CONDENSED_BOLD, size, tracking) for size in range(32, 25, -1) for tracking in (0, -1)
    ]
    text = display_word(word)
    minimum = min_cap_height(len(word))
    width, height = box[2] - box[0], box[3] - box[1]
    for face, size, tracking in styles:
        if ink_text("H", font(face, size)).height < minimum:
            break
        ink = ink_text(text, font(face, size), tracking)
        # Set with extra space (tracking > 0) letters cannot touch: only tighter settings
        # are checked (the check costs a few milliseconds).
        if ink.width > width or ink.height > height:
            continue
        if tracking > 0 or letters_apart(text, ink, face, size):
            return ink
    raise ValueError(f"{word!r} is too wide for {width} px at {minimum} px capitals")


def letters_apart(text: str, ink: InkText, face: Face, size: int) -> bool:
    """Whether no two letters of ``ink`` (``text`` in ``face`` at ``size``) touch: it has
    as many separate pieces of ink as its letters have alone."""
    return ink_parts(ink) == sum(_letter_parts(letter, face, size) for letter in text)


@cache
def _letter_parts(letter: str, face: Face, size: int) -> int:
    return ink_parts(ink_text(letter, font(face, size)))


def largest_bold(text: str, box: Box, largest: int) -> InkText:
    """``text`` in the largest bold size up to ``largest`` that fits ``box``."""
    ink = first_fitting(text, [(Face.BOLD, size, 0) for size in range(largest, 8, -1)], box)
    if ink is None:
        raise ValueError(f"{text!r} does not fit {box[2] - box[0]} x {box[3] - box[1]} px")
    return ink


def first_fitting(text: str, styles: Sequence[tuple[Face, int, int]], box: Box) -> InkText | None:
    """The first (face, size, tracking) rendering of ``text`` that fits ``box``."""
    width, height = box[2] - box[0], box[3] - box[1]
    for face, size, tracking in styles:
        ink = ink_text(text, font(face, size), tracking)
        if ink.width <= width and ink.height <= height:
            return ink
    return None


def render_suggestion(
    history: History,
    suggestion: Suggestion,
    rank: int,
    of: int,
    candidates_left: int,
    also: Sequence[str] = (),
    mode: str = "",
) -> Planes:
    """One suggestion frame: rank ``rank`` of ``of``, with the board so far; ``also``, the
    next best words (the first frame names them, so one refresh serves the decision);
    ``mode``, the game's rules in a word or two ("hard", "all words")."""
    return image_to_planes(
        suggestion_image(history, suggestion, rank, of, candidates_left, also, mode)
    )


def suggestion_image(
    history: History,
    suggestion: Suggestion,
    rank: int,
    of: int,
    candidates_left: int,
    also: Sequence[str] = (),
    mode: str = "",
) -> Image.Image:
    """render_suggestion() as the landscape picture drawn (panel colours only)."""
    if not 1 <= rank <= of:
        raise ValueError(f"rank must be within 1..{of}, got {rank}")
    rows = checked_history(history, len(suggestion.word))
    canvas = Canvas()
    box = word_box(bool(rows))
    label = verdict(suggestion, candidates_left, len(history))
    canvas.stamp_centred(fit_word(suggestion.word, box), box, BLACK)
    if rows:
        _draw_board(canvas, rows)
        _draw_board_header(
            canvas, f"{rank}/{of}", header_texts(suggestion, candidates_left, also, mode), *label
        )
        return canvas.image
    _draw_header(canvas, f"{rank}/{of}", *label)
    left_labels = [f"left ({mode})", "words left"] if mode else ["words left"]
    if also:
        words = [display_word(word) for word in also]
        nexts = [" ".join(words[:count]) for count in range(len(words), 0, -1)]
        second = (nexts, ["next best"])
    else:
        second = ([_left_after(suggestion)], ["left after, avg"])
    _draw_stats(canvas, [([str(candidates_left)], left_labels), second])
    return canvas.image


def header_texts(
    suggestion: Suggestion, candidates_left: int, also: Sequence[str] = (), mode: str = ""
) -> list[str]:
    """What the header beside the badge may say, fullest first (the first that fits is
    drawn): the candidates left and the mode, then the next best words (the first frame)
    or how many words the guess leaves on average."""
    left = f"{candidates_left} left" + (f" ({mode})" if mode else "")
    words = [display_word(word) for word in also]
    if words:
        fuller = [f"{left}  or {' '.join(words[:count])}" for count in range(len(words), 0, -1)]
    else:
        fuller = [f"{left}  ~{_left_after(suggestion)} after"]
    return [*fuller, left, f"{candidates_left} left"] if mode else [*fuller, left]


def _left_after(suggestion: Suggestion) -> str:
    return (
        f"{suggestion.expected_left:.1f}"
        if suggestion.expected_left < 10
        else (f"{suggestion.expected_left:.0f}")
    )


def render_status(
    kind: StatusKind, history: History = (), candidates: Sequence[str] = ()
) -> Planes:
    """A status frame: waiting for a host, solved in N, no word fits the feedback, or the
    game lost (with the ``candidates`` that were left, likeliest first)."""
    return image_to_planes(status_image(kind, history, candidates))


def status_image(
    kind: StatusKind, history: History = (), candidates: Sequence[str] = ()
) -> Image.Image:
    """render_status() as the landscape picture drawn (panel colours only).

    The waiting frame is the logo alone: it ignores ``history``.
    """
    canvas = Canvas()
    if kind is StatusKind.WAITING:
        _draw_logo(canvas)
        _draw_caption(canvas, (MARGIN, STATS_TOP, WIDTH - MARGIN, STATS_BOTTOM), "waiting for host")
        return canvas.image
    rows = checked_history(history)
    if kind is StatusKind.SOLVED:
        guesses = len(rows)
        title, colour = "SOLVED", RED
        caption = f"in {guesses} guess" + ("" if guesses == 1 else "es")
    elif kind is StatusKind.LOST:
        title, colour = "NOT SOLVED", BLACK
        caption = _left_caption(candidates, (WIDTH - 2 * MARGIN, BOARD_TOP - 3 - 35))
    else:
        title, colour, caption = "NO WORD", BLACK, "fits the colours"
    if not rows:
        box = word_box(False)
        canvas.stamp_centred(largest_bold(title, box, 44), box, colour)
        _draw_caption(canvas, (MARGIN, STATS_TOP, WIDTH - MARGIN, STATS_BOTTOM), caption)
        return canvas.image
    _draw_board(canvas, rows)
    title_box: Box = (MARGIN, 2, WIDTH - MARGIN, 32)
    canvas.stamp_centred(largest_bold(title, title_box, 40), title_box, colour)
    _draw_caption(canvas, (MARGIN, 35, WIDTH - MARGIN, BOARD_TOP - 3), caption)
    return canvas.image


def _left_caption(candidates: Sequence[str], size: tuple[int, int]) -> str:
    """As many of the words left as fit ``size`` at 9 px or more: "it was one of: ..."."""
    words = [display_word(word) for word in candidates]
    box: Box = (0, 0, *size)
    styles = [(Face.BOLD, points, 0) for points in range(15, 8, -1)]
    for shown in range(min(len(words), 4), 0, -1):
        more = len(words) - shown
        caption = ("was " if len(words) == 1 else "left: ") + " ".join(words[:shown])
        caption += f" +{more}" if more else ""
        if first_fitting(caption, styles, box) is not None:
            return caption
    return f"{len(words)} words left"


def render_advice(history: History, advice: Advice, top: int, mode: str = "") -> list[Planes]:
    """The frames for one turn: a frame per suggestion (at most ``top``), the first also
    naming the next two (mid-game, the next two that could win when it could); or a
    status."""
    if top < 1:
        raise ValueError(f"top must be at least 1, got {top}")
    if advice.solved:
        return [render_status(StatusKind.SOLVED, history)]
    suggestions: Sequence[Suggestion] = advice.suggestions[:top]
    if advice.candidates_left == 0 or not suggestions:
        return [render_status(StatusKind.NO_MATCH, history)]
    # Mid-game the header reads "319 left  or COLIN" beside the first word's "could win":
    # the words it names then are ones that could win too.
    others = suggestions[1:]
    if history and suggestions[0].is_candidate:
        others = [suggestion for suggestion in others if suggestion.is_candidate]
    next_two = [suggestion.word for suggestion in others[:2]]
    return [
        render_suggestion(
            history,
            suggestion,
            rank,
            len(suggestions),
            advice.candidates_left,
            next_two if rank == 1 else (),
            mode,
        )
        for rank, suggestion in enumerate(suggestions, start=1)
    ]


def verdict(suggestion: Suggestion, candidates_left: int, played: int) -> tuple[str, Colour]:
    """Whether playing the word can end the game, as the header's label (none for a word
    that cannot be the answer); on the last guesses, its chance ("1 in 4 to win")."""
    if not suggestion.is_candidate:
        return "", BLACK  # a word played to learn: no verdict, the room goes to the figures
    if candidates_left == 1:
        return "the answer", BLACK
    chance = chance_text(suggestion.chance) if chance_shown(candidates_left, played) else ""
    return (f"{chance} to win" if chance else "could win"), BLACK


def _draw_board(canvas: Canvas, rows: list[tuple[str, str]]) -> None:
    left, top, layout = board_box(len(rows[0][0]), len(rows))
    draw_board(canvas, rows, left, top, layout)


def _draw_board_header(
    canvas: Canvas, badge: str, texts: Sequence[str], label: str, colour: Colour
) -> None:
    top, bottom = SUGGESTION_HEADER
    badge_box = draw_badge(canvas, badge, top, bottom)
    label_ink = ink_text(label, font(Face.BOLD, 12))
    label_left = WIDTH - MARGIN - label_ink.width
    canvas.stamp_centred(label_ink, (label_left, top, WIDTH - MARGIN, bottom), colour)
    _draw_first_fitting(canvas, texts, (badge_box[2] + 4, top, label_left - 4, bottom), 12)


def _draw_first_fitting(canvas: Canvas, texts: Sequence[str], box: Box, largest: int) -> None:
    """The first of ``texts`` that fits ``box`` in bold of 9 px or more (the last one in
    whatever size fits)."""
    readable = [(Face.BOLD, size, 0) for size in range(largest, 8, -1)]
    for text in texts[:-1]:
        ink = first_fitting(text, readable, box)
        if ink is not None:
            canvas.stamp_centred(ink, box, BLACK)
            return
    canvas.stamp_centred(largest_bold(texts[-1], box, largest), box, BLACK)


def draw_badge(canvas: Canvas, badge: str, top: int, bottom: int, colour: Colour = BLACK) -> Box:
    """The counter badge, ``badge`` in white on ``colour``: black on suggestion frames,
    where the counter changes from frame to frame and a fast update cannot draw red."""
    badge_ink = ink_text(badge, font(Face.BOLD, 12))
    badge_box: Box = (MARGIN, top, MARGIN + badge_ink.width + 10, bottom)
    canvas.rounded(badge_box, colour, radius=3)
    canvas.stamp_centred(badge_ink, badge_box, WHITE)
    return badge_box


def _draw_header(canvas: Canvas, badge: str, label: str, colour: Colour) -> None:
    draw_badge(canvas, badge, HEADER_TOP, HEADER_BOTTOM)
    label_ink = ink_text(label, font(Face.BOLD, 12))
    label_box: Box = (WIDTH - MARGIN - label_ink.width, HEADER_TOP, WIDTH - MARGIN, HEADER_BOTTOM)
    canvas.stamp_centred(label_ink, label_box, colour)


def _draw_stats(canvas: Canvas, stats: list[tuple[list[str], list[str]]]) -> None:
    """Figures side by side, each over its label (of each, the first text that fits)."""
    column_width = (WIDTH - 2 * MARGIN) // len(stats)
    for index, (values, labels) in enumerate(stats):
        x = MARGIN + index * column_width
        value_box: Box = (x, STATS_TOP, x + column_width, STATS_TOP + 16)
        label_box: Box = (x, STATS_TOP + 20, x + column_width, STATS_BOTTOM)
        _draw_first_fitting(canvas, values, value_box, 20)
        _draw_first_fitting(canvas, labels, label_box, 11)


def _draw_caption(canvas: Canvas, box: Box, caption: str) -> None:
    canvas.stamp_centred(largest_bold(caption, box, 15), box, BLACK)


def _draw_logo(canvas: Canvas) -> None:
    word, feedback = LOGO
    left = (WIDTH - tiles_width(len(word), LOGO_TILE)) // 2
    draw_tiles(canvas, word, feedback, left, 14, LOGO_TILE, 22)
