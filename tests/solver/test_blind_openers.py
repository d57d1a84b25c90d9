"""Blind play's first guess per mode: hard mode opens with its known opener."""

from __future__ import annotations

import pytest

from epdle import words
from epdle.solver import Solver
from epdle.solver.universe import Universe


@pytest.fixture(scope="module")
def words_sharing_nothing_with_salet() -> list[str]:
    # Against these SALET is all grey, so the estimate ranks it last of all.
    return [word for word in words.guesses() if not set(word) & set("salet")][::10]


def opener(guesses: list[str], hard: bool) -> str:
    solver = Solver("best", hard=hard, universe=Universe(guesses, None))
    return solver.advise([], top=1).suggestions[0].word


def test_blind_hard_mode_opens_with_salet_whatever_the_estimate(
    words_sharing_nothing_with_salet,
):
    assert opener([*words_sharing_nothing_with_salet, "salet"], hard=True) == "salet"


def test_blind_normal_mode_opens_with_the_estimates_choice(words_sharing_nothing_with_salet):
    first = opener([*words_sharing_nothing_with_salet, "salet"], hard=False)
    assert first != "salet"
    assert first == opener(words_sharing_nothing_with_salet, hard=False)


def test_blind_hard_mode_without_salet_opens_with_the_estimates_choice(
    words_sharing_nothing_with_salet,
):
    hard_first = opener(words_sharing_nothing_with_salet, hard=True)
    assert hard_first == opener(words_sharing_nothing_with_salet, hard=False)
