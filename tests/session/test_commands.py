import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from epdle.session.commands import Control, ControlLine, GuessLine, InputError, parse_line


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("crane gybbb", GuessLine("crane", "GYBBB")),
        ("CRANE 21000", GuessLine("crane", "GYBBB")),
        ("crane: GYBBB", GuessLine("crane", "GYBBB")),
        ("crane 🟩🟨⬛⬜⬛", GuessLine("crane", "GYBBB")),
        ("  slosh   bbbbg \n", GuessLine("slosh", "BBBBG")),
    ],
)
def test_played_lines_in_every_notation(line: str, expected: GuessLine) -> None:
    assert parse_line(line) == expected


@pytest.mark.parametrize(
    ("line", "control"),
    [
        ("undo", Control.UNDO),
        ("u", Control.UNDO),
        ("new", Control.NEW),
        ("q", Control.QUIT),
        ("help", Control.HELP),
        ("?", Control.HELP),
        ("press", Control.PRESS),
    ],
)
def test_control_words(line: str, control: Control) -> None:
    assert parse_line(line) == ControlLine(control)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("blind gybbb", GuessLine("blind", "GYBBB")),
        ("BLIND 21000", GuessLine("blind", "GYBBB")),
        ("hard ggyb", GuessLine("hard", "GGYB")),  # a four-letter game
        ("show bbgy", GuessLine("show", "BBGY")),
        ("blind on", ControlLine(Control.BLIND, 1)),
        ("hard off", ControlLine(Control.HARD, 0)),
        ("hard", ControlLine(Control.HARD, 1)),
        ("normal", ControlLine(Control.HARD, 0)),
        ("Normal", ControlLine(Control.HARD, 0)),
        ("show 2112", ControlLine(Control.SHOW, 2112)),
    ],
)
def test_a_guess_spelt_as_a_command_is_a_guess(
    line: str, expected: GuessLine | ControlLine
) -> None:
    assert parse_line(line) == expected


def test_show_takes_a_number() -> None:
    assert parse_line("show 3") == ControlLine(Control.SHOW, 3)
    with pytest.raises(InputError, match="number"):
        parse_line("show x")


@pytest.mark.parametrize("line", ["", "   ", "# a comment"])
def test_blank_and_comment_lines_are_nothing(line: str) -> None:
    assert parse_line(line) is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("crane", "expected '<guess> <colours>'"),
        ("crane gyb", "5 letters but 3 colours"),
        ("cr4ne gybbb", "letters only"),
        ("crane gyxbb", "colours for 'crane'"),
        ("crane gybbb extra", "expected '<guess> <colours>'"),
    ],
)
def test_bad_lines_explain_themselves_in_one_line(line: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        parse_line(line)
    assert "\n" not in str(caught.value)


# ---- any line at all: the parser's own error, or a parse -------------------------------

SEPARATORS = st.sampled_from([",", ":", "=", " ", "\t", "/", "#"])
LINE_PIECES = st.one_of(
    SEPARATORS,
    st.sampled_from(["show", "hard", "blind", "undo", "crane", "on", "off", "gybbb", "2"]),
    st.sampled_from(["²", "٣", "🟩", "⬛", "\u00a0", "\ufeff", "9" * 5000]),
    st.text(max_size=8),
)


@pytest.mark.parametrize("line", [",", ":", "=", ",,", " : = , ", "show ²", "show " + "9" * 5000])
def test_a_line_of_separators_or_odd_digits_is_the_parsers_error(line: str) -> None:
    with pytest.raises(InputError):
        parse_line(line)


@settings(max_examples=1000, deadline=None)
@given(st.lists(LINE_PIECES, max_size=6).map("".join))
def test_no_line_raises_anything_but_the_parsers_error(line: str) -> None:
    try:
        parsed = parse_line(line)
    except InputError:
        return
    assert parsed is None or isinstance(parsed, GuessLine | ControlLine)
