from __future__ import annotations

import pytest

from epdle.solver import parse_feedback, parse_history


@pytest.mark.parametrize(
    "text",
    ["gYb00", "GYBBB", "21000", "🟩🟨⬛⬜⬛", "🟩🟨⬛️⬜️⬛️", " g y b b b ", "🟧🟦000"],
)
def test_feedback_spellings(text):
    assert parse_feedback(text) == "GYBBB"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("GYBXB", r"'X' at position 4 is not a mark"),
        ("", "empty feedback"),
        ("GYB", "has 3 marks, expected 5"),
    ],
)
def test_bad_feedback_is_explained(text, message):
    with pytest.raises(ValueError, match=message):
        parse_feedback(text, 5)


def test_history_parses_and_normalises():
    assert parse_history("salet:BBYBB,crony:21000") == [("salet", "BBYBB"), ("crony", "GYBBB")]
    assert parse_history(" SALET : bbybb ; crony:🟩🟨⬛⬛⬛\n") == [
        ("salet", "BBYBB"),
        ("crony", "GYBBB"),
    ]
    assert parse_history("") == []


def test_history_takes_a_word_and_its_colours_apart_as_play_does():
    # 'salet bybbb' is how play takes a line and the README writes a turn.
    expected = [("salet", "BYBBB"), ("crony", "GYBBB"), ("courd", "GYBBB")]
    assert parse_history("salet bybbb, crony 21000, courd 🟩🟨⬛⬛⬛") == expected
    assert parse_history("salet=bybbb,crony  :  21000,courd\t21000") == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("salet", r"entry 1 'salet': expected word:feedback"),
        ("salet:BBYBB,cr0ny:GGGGG", "entry 2 'cr0ny:GGGGG': guess must be letters"),
        ("salet:BBYBB,crony:GGG", "guess 'crony'.*3 marks, expected 5"),
    ],
)
def test_bad_history_names_the_entry(text, message):
    with pytest.raises(ValueError, match=message):
        parse_history(text)
