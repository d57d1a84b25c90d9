"""Hard mode as the game enforces it (the solver's hard mode only narrows its own advice)."""

from __future__ import annotations

import pytest

from epdle.web.rules import hard_mode_refusal, ordinal


@pytest.mark.parametrize(
    ("history", "guess", "reason"),
    [
        ([("salet", "BBBGB")], "crony", "the 4th letter must be E"),
        ([("salet", "GBBBB")], "crony", "the 1st letter must be S"),
        ([("salet", "BBYBB")], "crony", "the guess must contain L"),
        ([("salet", "BYBBB")], "crony", "the guess must contain A"),
        # Greens are checked before yellows, as the game does.
        ([("salet", "BYBGB")], "crony", "the 4th letter must be E"),
        # Two Es revealed by one guess: the next guess needs both.
        ([("geese", "BYBBY")], "trend", "the guess must contain two Es"),
        ([("geese", "BYBBY")], "there", None),
        # Hints from every earlier guess count, not just the last one.
        ([("salet", "BYBBB"), ("crony", "BYBBB")], "adopt", "the guess must contain R"),
        ([("salet", "BYBBB"), ("crony", "BYBBB")], "roads", None),
        ([("salet", "BBBGB")], "embed", None),
        ([("salet", "BBYBB")], "lucky", None),
        ([], "crony", None),
    ],
)
def test_hard_mode_reasons(history: list[tuple[str, str]], guess: str, reason: str | None) -> None:
    assert hard_mode_refusal(history, guess) == reason


def test_a_guess_of_another_length_is_refused_for_its_greens_not_a_crash() -> None:
    assert hard_mode_refusal([("salet", "BBBBG")], "sale") == "the 5th letter must be T"


@pytest.mark.parametrize(
    ("number", "text"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (22, "22nd")]
)
def test_ordinals(number: int, text: str) -> None:
    assert ordinal(number) == text
