"""Hard mode's refusal as every front end words it (scoring.hard_mode_violation: the
suggest command, play, the daemon and the page say the same)."""

from __future__ import annotations

import pytest

from epdle.solver.scoring import hard_mode_violation


@pytest.mark.parametrize(
    ("history", "guess", "reason"),
    [
        ([("salet", "BBBGB")], "crony", "letter 4 must be E (green in SALET)"),
        ([("salet", "GBBBB")], "crony", "letter 1 must be S (green in SALET)"),
        ([("salet", "BBYBB")], "crony", "the guess must use L (revealed by SALET)"),
        ([("salet", "BYBBB")], "crony", "the guess must use A (revealed by SALET)"),
        # Greens are checked before yellows, as the game does.
        ([("salet", "BYBGB")], "crony", "letter 4 must be E (green in SALET)"),
        # Two Es revealed by one guess: the next guess needs both.
        ([("geese", "BYBBY")], "trend", "the guess must use E 2 times (revealed by GEESE)"),
        ([("geese", "BYBBY")], "there", None),
        # Hints from every earlier guess count, not just the last one.
        (
            [("salet", "BYBBB"), ("crony", "BYBBB")],
            "adopt",
            "the guess must use R (revealed by CRONY)",
        ),
        ([("salet", "BYBBB"), ("crony", "BYBBB")], "roads", None),
        ([("salet", "BBBGB")], "embed", None),
        ([("salet", "BBYBB")], "lucky", None),
        ([], "crony", None),
    ],
)
def test_hard_mode_reasons(history: list[tuple[str, str]], guess: str, reason: str | None) -> None:
    assert hard_mode_violation(history, guess) == reason


def test_a_guess_of_another_length_is_refused_for_its_greens_not_a_crash() -> None:
    assert (
        hard_mode_violation([("salet", "BBBBG")], "sale") == "letter 5 must be T (green in SALET)"
    )
