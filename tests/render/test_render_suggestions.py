"""Suggestion and status frames: content, colours, legibility and the board's tiles."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image
from render_golden_cases import MIDGAME, HandAdvice, HandSuggestion

from epdle.frames.fast import set_fast_window
from epdle.render.board import MIN_TILE, ROWS_SHOWN, TILE_GAP, tile_gap
from epdle.render.canvas import InkText, ink_parts
from epdle.render.options import BLACK, RED, WHITE
from epdle.render.planes import LANDSCAPE_SIZE, image_to_planes, planes_to_image
from epdle.render.suggestions import (
    BOARD_TOP,
    MIN_WORD_CAP_HEIGHT,
    StatusKind,
    board_box,
    header_texts,
    min_cap_height,
    render_advice,
    render_status,
    render_suggestion,
    status_image,
    suggestion_image,
    word_box,
)

SEVEN = [
    HandSuggestion(word, 4.0 - i / 10, 3.0, i % 2 == 0)
    for i, word in enumerate(["salet", "crane", "trace", "slate", "crate", "roate", "raise"])
]


def colours_of(image: Image.Image) -> set[tuple[int, int, int]]:
    return {colour for _, colour in image.getcolors()}


def letter_extents(image: Image.Image, box) -> list[tuple[int, int]]:
    """(width, height) of each run of black ink columns inside ``box``."""
    ink = (np.asarray(image.crop(box)) == BLACK).all(axis=2)
    columns = ink.any(axis=0)
    extents = []
    start = None
    for x, has_ink in enumerate([*columns, False]):
        if has_ink and start is None:
            start = x
        elif not has_ink and start is not None:
            rows = np.flatnonzero(ink[:, start:x].any(axis=1))
            extents.append((x - start, int(rows[-1] - rows[0] + 1)))
            start = None
    return extents


@pytest.mark.parametrize(("top", "frames"), [(5, 5), (2, 2), (1, 1), (9, 7)])
def test_one_distinct_frame_per_suggestion_up_to_top(top: int, frames: int) -> None:
    planes = render_advice(MIDGAME, HandAdvice(40, False, SEVEN), top)
    assert len(planes) == frames
    assert len(set(planes)) == frames


def test_rank_is_the_only_difference_between_identical_suggestions() -> None:
    same = HandSuggestion("crane", 4.0, 3.0, True)
    # (The first frame of a turn also names the next two: the second and third compared.)
    _, first, second = render_advice(MIDGAME, HandAdvice(40, False, [same] * 3), top=5)
    black_first, red_first = first.masks()
    black_second, red_second = second.masks()
    assert (red_first == red_second).all()
    changed_rows, changed_columns = np.nonzero(black_first != black_second)
    # Only inside the rank badge (black: a fast update redraws it), at the top of the panel.
    assert changed_rows.max() < word_box(True)[1]
    assert changed_columns.min() >= word_box(True)[0]


def test_the_frames_of_a_turn_differ_in_black_above_the_board_only() -> None:
    """What lets the device show the runners-up by fast black/white updates: every
    difference lies above landscape row 48, in black, and no red lies there."""
    frames = render_advice(MIDGAME, HandAdvice(40, False, SEVEN), top=7)
    window = set_fast_window([(planes.black, planes.red) for planes in frames])
    assert window is not None
    # Native byte columns 6..12 are landscape rows 0..55; the board starts at row 48.
    assert window.x_bytes == 7 and window.x_bytes + window.width_bytes == 13


def test_solved_advice_gives_the_solved_status_frame() -> None:
    history = [*MIDGAME, ("hippo", "GGGGG")]
    frames = render_advice(history, HandAdvice(1, True, []), top=5)
    assert frames == [render_status(StatusKind.SOLVED, history)]


def test_no_candidate_left_gives_the_no_match_frame() -> None:
    frames = render_advice(MIDGAME, HandAdvice(0, False, []), top=5)
    assert frames == [render_status(StatusKind.NO_MATCH, MIDGAME)]


def test_status_frames_differ_from_each_other() -> None:
    frames = {kind: render_status(kind, MIDGAME) for kind in StatusKind}
    assert len(set(frames.values())) == len(StatusKind)


@pytest.mark.parametrize("top", [0, -1])
def test_top_below_one_is_rejected(top: int) -> None:
    with pytest.raises(ValueError, match="top"):
        render_advice(MIDGAME, HandAdvice(40, False, SEVEN), top)


def test_rank_outside_its_range_is_rejected() -> None:
    with pytest.raises(ValueError, match="rank"):
        render_suggestion(MIDGAME, SEVEN[0], rank=6, of=5, candidates_left=3)


@pytest.mark.parametrize(
    ("history", "message"),
    [
        ([("sale", "BBBB")], "5-letter"),
        ([("salet", "BBXBB")], "feedback"),
        ([("salet", "BBB")], "feedback"),
        ([("sa1et", "BBBBB")], "5-letter"),
        ([("salet",)], "expected"),
    ],
)
def test_bad_history_is_rejected_with_a_clear_message(history, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render_advice(history, HandAdvice(40, False, SEVEN), top=5)


def test_feedback_and_words_are_case_insensitive() -> None:
    upper = render_status(StatusKind.NO_MATCH, [("SALET", "BBYBB")])
    assert render_status(StatusKind.NO_MATCH, [("salet", "bbybb")]) == upper


def every_frame_image() -> list[Image.Image]:
    images = [
        suggestion_image(history, suggestion, 1, 5, 40)
        for history in ([], MIDGAME)
        for suggestion in SEVEN
    ]
    images += [status_image(kind, MIDGAME) for kind in StatusKind]
    return images


def test_drawn_frames_hold_only_panel_colours_and_survive_the_planes_exactly() -> None:
    for image in every_frame_image():
        assert image.size == LANDSCAPE_SIZE
        assert colours_of(image) <= {WHITE, BLACK, RED}
        # A grey pixel from anti-aliasing would come back black or white here.
        round_trip = planes_to_image(image_to_planes(image))
        assert (np.asarray(round_trip) == np.asarray(image)).all()


@pytest.mark.parametrize("word", ["salet", "mummy", "wowed", "queue", "lilli", "jazzy"])
@pytest.mark.parametrize("history", [[], MIDGAME], ids=["opening", "midgame"])
def test_suggested_word_glyphs_are_at_least_24_px_tall(word: str, history) -> None:
    suggestion = HandSuggestion(word, 3.0, 2.0, False)
    image = suggestion_image(history, suggestion, 1, 5, 40)
    extents = letter_extents(image, word_box(bool(history)))
    assert len(extents) == 5
    assert min(height for _, height in extents) >= MIN_WORD_CAP_HEIGHT


def tile_pixels(image: Image.Image, guesses: int, row: int, column: int, length: int = 5):
    left, top, layout = board_box(length, guesses)
    return np.asarray(image.crop(layout.tile_box(left, top, row, column)))


def border(tile: np.ndarray) -> np.ndarray:
    return np.concatenate([tile[0], tile[-1], tile[1:-1, 0], tile[1:-1, -1]])


def test_board_tiles_show_green_yellow_and_grey() -> None:
    image = status_image(StatusKind.NO_MATCH, [("crane", "GYBBB")])
    green, yellow, grey = (tile_pixels(image, 1, 0, column) for column in range(3))
    assert (border(green) == RED).all()
    # Solid with a white letter, against an outline around mostly white.
    assert (green[2:-2, 2:-2] == RED).all(axis=2).mean() > 0.5
    assert (border(yellow) == RED).all()
    assert (yellow[2:-2, 2:-2] == WHITE).all(axis=2).mean() > 0.5
    assert (border(grey) == WHITE).all()  # a bare letter
    assert (grey == BLACK).all(axis=2).any()
    assert not (grey == RED).all(axis=2).any()


def test_board_shows_only_the_last_six_guesses() -> None:
    history = [("salet", "BBBBB"), *[("crane", "BYBBG")] * (ROWS_SHOWN - 1), ("hippo", "GGGGG")]
    assert render_status(StatusKind.SOLVED, history[1:]) != render_status(
        StatusKind.SOLVED, history[:-1]
    )
    shown = status_image(StatusKind.NO_MATCH, history)
    last_six = status_image(StatusKind.NO_MATCH, history[-ROWS_SHOWN:])
    assert (np.asarray(shown) == np.asarray(last_six)).all()


def test_the_widest_accepted_words_still_get_24_px_capitals() -> None:
    from epdle import words
    from epdle.render.fonts import Face, font

    # Rank by the condensed face's advance width: fit_word's last resort.
    condensed = font(Face.CONDENSED_BOLD, 33)
    widest = sorted(words.guesses(), key=lambda word: -condensed.getlength(word.upper()))[:12]
    for word in widest:
        image = suggestion_image(MIDGAME, HandSuggestion(word, 1.0, 1.0, False), 1, 5, 2)
        extents = letter_extents(image, word_box(True))
        assert len(extents) == 5, word  # letters never touch
        assert min(height for _, height in extents) >= MIN_WORD_CAP_HEIGHT, word


def test_header_says_whether_the_word_can_win() -> None:
    def header(is_candidate: bool, left: int) -> np.ndarray:
        image = suggestion_image(
            MIDGAME, HandSuggestion("crane", 1.0, 0.0, is_candidate), 1, 1, left
        )
        return np.asarray(image)[: word_box(True)[1]]

    could_win, the_answer, cannot_win = header(True, 2), header(True, 1), header(False, 2)
    assert not (could_win == the_answer).all()
    assert not (could_win == cannot_win).all()
    # In black: the verdict changes between the frames of a turn, which a fast update
    # redraws in black only.
    assert (could_win == BLACK).all(axis=2).sum() > (cannot_win == BLACK).all(axis=2).sum()
    assert not (could_win == RED).all(axis=2).any()


def test_waiting_frame_is_the_logo_whatever_the_history() -> None:
    assert render_status(StatusKind.WAITING, MIDGAME) == render_status(StatusKind.WAITING)


LONG_HISTORIES = {length: [("w" * length, "BYG" * 3)[:length]] for length in range(4, 10)}


@pytest.mark.parametrize("length", range(4, 10))
@pytest.mark.parametrize("code", ["en", "de", "fr", "es"])
def test_the_widest_words_of_every_length_fit_with_capitals_that_read(length, code) -> None:
    from epdle import words
    from epdle.render.fonts import Face, font
    from epdle.words.languages import display_word

    condensed = font(Face.CONDENSED_BOLD, 33)
    shipped = [word for word in words.language_list(code, length).guesses if word.isascii()]
    widest = sorted(shipped, key=lambda word: -condensed.getlength(display_word(word)))[:4]
    history = [(widest[-1], "BYGBYGBYG"[:length])]
    for word in widest:
        image = suggestion_image(history, HandSuggestion(word, 1.0, 1.0, False), 1, 5, 2)
        ink = (np.asarray(image.crop(word_box(True))) == BLACK).all(axis=2)
        # Capitals A-Z are one piece of ink each: as many pieces as letters, none touch.
        assert ink_parts(InkText(Image.fromarray(ink))) == length, word
        rows = np.flatnonzero(ink.any(axis=1))
        assert rows[-1] - rows[0] + 1 >= min_cap_height(length), word
    assert min_cap_height(9) >= 21 and min_cap_height(6) == MIN_WORD_CAP_HEIGHT


@pytest.mark.parametrize("length", range(4, 10))
@pytest.mark.parametrize("guesses", [1, 3, 6])
def test_board_rows_use_tiles_of_at_least_13_px_and_show_the_latest(length, guesses) -> None:
    history = [(chr(ord("a") + i) * length, "G" * length) for i in range(guesses - 1)]
    history.append(("z" * length, "Y" * length))
    left, top, layout = board_box(length, guesses)
    assert layout.tile >= MIN_TILE
    assert layout.rows == guesses or (length >= 8 and layout.rows >= 3)
    image = status_image(StatusKind.NO_MATCH, history)
    # The last row shown is the last guess: yellow outlines, not green fills.
    last = np.asarray(image.crop(layout.tile_box(left, top, layout.rows - 1, length - 1)))
    assert (border(last) == RED).all() and (last[3:-3, 3:-3] == WHITE).all(axis=2).mean() > 0.4
    # Tiles stay inside the frame and clear of the word above.
    right, bottom = layout.tile_box(left, top, layout.rows - 1, length - 1)[2:]
    assert top >= word_box(True)[3] and bottom <= LANDSCAPE_SIZE[1] and right <= 212
    assert tile_gap(layout.tile) >= TILE_GAP


def test_board_letters_are_larger_than_before() -> None:
    from epdle.render.board import letter_size
    from epdle.render.canvas import ink_text
    from epdle.render.fonts import Face, font

    _, _, full_board = board_box(5, 6)
    capital = ink_text("H", font(Face.BOLD, letter_size(full_board.tile)))
    assert capital.height >= 10  # was 7 px on 12 px tiles
    _, _, two_rows = board_box(5, 2)
    assert ink_text("H", font(Face.BOLD, letter_size(two_rows.tile))).height >= 14


def test_other_letters_reach_the_panel() -> None:
    history = [("säule", "GYBBB"), ("straße", "BBBBBB")[:1]]
    image = status_image(StatusKind.NO_MATCH, history[:1])
    assert (np.asarray(image) == RED).all(axis=2).any()
    with pytest.raises(ValueError, match="6-letter"):
        status_image(StatusKind.NO_MATCH, [("straße", "BBBBBB"), ("säule", "BBBBB")])
    with pytest.raises(ValueError, match="10-letter"):
        status_image(StatusKind.NO_MATCH, [("abcdefghij", "B" * 10)])


def test_a_sure_answer_shows_zero_bits_not_minus_zero() -> None:
    history = [("salet", "BBBBB")]
    negative = suggestion_image(history, HandSuggestion("crony", -0.0, 0.0, True), 1, 1, 1)
    positive = suggestion_image(history, HandSuggestion("crony", 0.0, 0.0, True), 1, 1, 1)
    assert (np.asarray(negative) == np.asarray(positive)).all()


def test_the_font_has_every_languages_capitals() -> None:
    from epdle.render.canvas import ink_text
    from epdle.render.fonts import Face, font

    for face in Face:
        missing = np.asarray(ink_text("\U000f0000", font(face, 30)).mask)  # .notdef box
        for capital in "ÄÖÜẞÑ":
            glyph = np.asarray(ink_text(capital, font(face, 30)).mask)
            assert glyph.shape != missing.shape or (glyph != missing).any(), (face, capital)


@pytest.mark.parametrize("word", ["größte", "säulen", "müßten", "añoñas", "ñoños"])
def test_accented_capitals_keep_the_word_size(word: str) -> None:
    from epdle.render.suggestions import fit_word

    ink = fit_word(word, word_box(True))  # raises below the minimum capitals
    box = word_box(True)
    assert ink.width <= box[2] - box[0] and ink.height <= box[3] - box[1]
    assert ink.height >= MIN_WORD_CAP_HEIGHT + 3  # the marks stand above the capitals


def test_board_rows_read_left_to_right_then_down() -> None:
    # Four guesses take two columns of rows. Guess k has k green tiles: the red in each
    # quarter of the board says which guess is drawn there.
    history = [("crane", "G" * k + "B" * (5 - k)) for k in range(1, 5)]
    image = np.asarray(status_image(StatusKind.NO_MATCH, history))
    red = (image == RED).all(axis=2)
    board = red[BOARD_TOP:, :]
    rows = np.flatnonzero(board.any(axis=1))
    columns = np.flatnonzero(board.any(axis=0))
    middle_y = (rows[0] + rows[-1]) // 2
    middle_x = (columns[0] + columns[-1]) // 2
    quarters = [
        board[:middle_y, :middle_x],  # top left
        board[:middle_y, middle_x:],  # top right
        board[middle_y:, :middle_x],  # bottom left
        board[middle_y:, middle_x:],  # bottom right
    ]
    one_tile = red[BOARD_TOP:].sum() / sum(range(1, 5))
    greens = [round(quarter.sum() / one_tile) for quarter in quarters]
    assert greens == [1, 2, 3, 4]  # in the order they were played, as the page lists them


def test_the_first_frame_names_the_next_two_words() -> None:
    advice = HandAdvice(23, False, SEVEN[:5])
    frames = render_advice(MIDGAME, advice, top=5)
    first = SEVEN[0]
    # SALET could win: mid-game, the next two that could win too (not CRANE).
    assert frames[0] == render_suggestion(MIDGAME, first, 1, 5, 23, ["trace", "crate"])
    assert frames[0] != render_suggestion(MIDGAME, first, 1, 5, 23)
    assert header_texts(first, 23, ["crane", "trace"])[0] == "23 left  or CRANE TRACE"
    # The others say what they leave on average, and none speaks of bits.
    assert header_texts(SEVEN[1], 23)[0] == "23 left  ~3.0 after"
    texts = header_texts(first, 23, ["crane"], "hard") + header_texts(SEVEN[1], 1500)
    assert not any("bits" in text for text in texts)
    opening = render_advice([], advice, top=5)[0]
    assert opening == render_suggestion([], first, 1, 5, 23, ["crane", "trace"])
    assert opening != render_suggestion([], first, 1, 5, 23)


def test_the_panel_says_the_mode() -> None:
    advice = HandAdvice(23, False, SEVEN[:3])
    plain = render_advice(MIDGAME, advice, top=3)
    hard = render_advice(MIDGAME, advice, top=3, mode="hard")
    assert all(a != b for a, b in zip(plain, hard, strict=True))
    assert header_texts(SEVEN[1], 23, (), "hard, all words")[-2:] == [
        "23 left (hard, all words)",
        "23 left",
    ]


def test_the_words_named_beside_could_win_could_win_too() -> None:
    # The first frame's header reads "319 left  or COLIN" beside TARSE's "could win": it
    # names the next words that could win (MOIST, not COLIN), or, for a word played to
    # learn, the next best whatever they are.
    first = HandSuggestion("tarse", 5.0, 60.0, True)
    colin = HandSuggestion("colin", 4.9, 62.0, False)
    moist = HandSuggestion("moist", 4.8, 64.0, True)
    advice = HandAdvice(319, False, [first, colin, moist])
    frame = render_advice(MIDGAME, advice, 3)[0]
    assert frame == render_suggestion(MIDGAME, first, 1, 3, 319, ["moist"])
    learn = HandAdvice(319, False, [HandSuggestion("tarse", 5.0, 60.0, False), colin, moist])
    frame = render_advice(MIDGAME, learn, 3)[0]
    assert frame == render_suggestion(MIDGAME, learn.suggestions[0], 1, 3, 319, ["colin", "moist"])


def test_on_the_last_guesses_the_header_gives_the_chance_to_win() -> None:
    """The verdict names the chance where it matters (few left, or the last guess), and
    still says "could win" earlier and "the answer" with one left."""
    from epdle.render.suggestions import verdict

    likely = HandSuggestion("gumbo", 2.58, 0.8, True, chance=1 / 6)
    assert verdict(likely, 6, 2)[0] == "1 in 6 to win"  # type: ignore[arg-type]
    assert verdict(likely, 300, 1)[0] == "could win"  # type: ignore[arg-type]
    assert verdict(HandSuggestion("gumbo", 0, 0, True, 0.3), 40, 5)[0] == "30 % to win"  # type: ignore[arg-type]
    assert verdict(HandSuggestion("rerun", 0, 0, True, 1.0), 1, 2)[0] == "the answer"  # type: ignore[arg-type]
    assert verdict(HandSuggestion("fight", 2.6, 1.0, False), 6, 2)[0] == ""  # type: ignore[arg-type]
