from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from epdle import score
from epdle.solver.patterns import compute_patterns
from epdle.solver.scoring import pattern_code, pattern_string, solved_code

# Every word over a three-letter alphabet: all the ways letters can repeat.
SMALL_ALPHABET_WORDS = ["".join(letters) for letters in itertools.product("abc", repeat=5)]


def test_examples_from_the_real_game():
    assert score("drill", "slosh") == "BBBYB"
    assert score("asset", "slosh") == "BYYBB"


@pytest.mark.parametrize(
    ("guess", "answer", "feedback"),
    [
        ("speed", "abide", "BBYBY"),  # two guessed e, one in the answer: first e yellow
        ("eerie", "there", "YBYBG"),  # green e uses one copy, the other two e's share the rest
        ("geese", "eerie", "BGYBG"),
        ("allee", "eagle", "YYBYG"),
        ("lllll", "hello", "BBGGB"),
        ("abbey", "babes", "YYGGB"),
        ("crane", "crane", "GGGGG"),
    ],
)
def test_repeated_letter_cases(guess, answer, feedback):
    assert score(guess, answer) == feedback


def test_score_is_case_insensitive_and_checks_length():
    assert score("DRILL", "Slosh") == "BBBYB"
    with pytest.raises(ValueError, match="lengths differ"):
        score("drill", "slo")


def _definition_holds(guess: str, answer: str, feedback: str) -> bool:
    """The three rules that fix a feedback: greens, per-letter totals, leftmost yellows."""
    greens = [g == a for g, a in zip(guess, answer, strict=True)]
    if [mark == "G" for mark in feedback] != greens:
        return False
    in_answer = Counter(answer)
    for letter in set(guess):
        marked = sum(1 for g, m in zip(guess, feedback, strict=True) if g == letter and m != "B")
        if marked != min(guess.count(letter), in_answer[letter]):
            return False
        non_green = [m for g, m, hit in zip(guess, feedback, greens, strict=True)
                     if g == letter and not hit]  # fmt: skip
        if non_green != sorted(non_green, key=lambda m: m != "Y"):
            return False
    return True


def test_every_repetition_pattern_over_a_small_alphabet():
    for guess in SMALL_ALPHABET_WORDS:
        for answer in SMALL_ALPHABET_WORDS:
            assert _definition_holds(guess, answer, score(guess, answer)), (guess, answer)


def test_vectorised_matrix_matches_scalar_scoring_on_all_repetitions():
    matrix = compute_patterns(SMALL_ALPHABET_WORDS, SMALL_ALPHABET_WORDS)
    expected = np.array(
        [[pattern_code(score(g, a)) for g in SMALL_ALPHABET_WORDS] for a in SMALL_ALPHABET_WORDS]
    )
    assert matrix.dtype == np.uint8
    assert np.array_equal(matrix, expected)


def test_vectorised_matrix_matches_on_other_lengths():
    words = ["".join(w) for w in itertools.product("aab", repeat=3)] + ["abc", "cab", "bca"]
    matrix = compute_patterns(words, words)
    for i, answer in enumerate(words):
        for j, guess in enumerate(words):
            assert matrix[i, j] == pattern_code(score(guess, answer))
    long_words = ["aabbccdd", "abcdabcd", "dcbadcba", "aaaabbbb"]
    long_matrix = compute_patterns(long_words, long_words)
    assert long_matrix.dtype == np.uint16
    for i, answer in enumerate(long_words):
        for j, guess in enumerate(long_words):
            assert pattern_string(int(long_matrix[i, j]), 8) == score(guess, answer)


def test_pattern_codes_round_trip():
    for code in range(243):
        assert pattern_code(pattern_string(code)) == code
    assert pattern_string(solved_code()) == "GGGGG"
    assert pattern_code("GYBBB") == 2 + 1 * 3


def test_the_hard_mode_rule_names_a_later_green_before_an_earlier_yellow() -> None:
    # One rule and one wording for every front end: greens first, as the game.
    from epdle.solver.scoring import hard_mode_break, hard_mode_violation

    history = [("salet", "BYBBB"), ("lunch", "GBBBB")]
    assert hard_mode_break(history, "broom") == ("l", 0, 1, "lunch")
    assert hard_mode_violation(history, "broom") == "letter 1 must be L (green in LUNCH)"
    assert hard_mode_violation(history, "lorry") == "the guess must use A (revealed by SALET)"
    assert hard_mode_violation([("geese", "BYBBY")], "trend") == (
        "the guess must use E 2 times (revealed by GEESE)"
    )
    assert hard_mode_violation(history, "llama") is None
