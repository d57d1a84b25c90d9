"""The guard: a turn keeps its pick only while every candidate can still be found in time."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from solver_hints import obeys_hints

from epdle import words
from epdle.solver import Solver, score, search
from epdle.solver.bench import play
from epdle.solver.universe import Universe

OUND = ["bound", "found", "hound", "mound", "pound", "round", "sound", "wound"]
SPLITTERS = ["bumph", "frown", "whomp", "plumb"]


def _brute_force(candidates, guesses, left, history=None) -> bool:
    """Every candidate found within `left` guesses, by trying every guess (tiny lists).

    `history`: hard mode, the hints so far (None: normal mode).
    """
    if len(candidates) <= 1:
        return not candidates or left >= 1
    if left <= 1:
        return False
    for guess in guesses:
        if history is not None and not obeys_hints(guess, history):
            continue
        parts: dict[str, list[str]] = {}
        for answer in candidates:
            parts.setdefault(score(guess, answer), []).append(answer)
        if len(parts) == 1 and guess not in candidates:
            continue  # tells nothing
        if all(
            marks == "GGGGG"
            or _brute_force(
                part, guesses, left - 1, None if history is None else [*history, (guess, marks)]
            )
            for marks, part in parts.items()
        ):
            return True
    return False


def _check(guesses, answers):
    universe = Universe(guesses, answers)
    return universe, search.FinishCheck(universe)


def test_a_family_the_hints_pin_down_takes_a_guess_per_word():
    universe, check = _check(OUND + SPLITTERS, OUND)
    solver = Solver("best", hard=True, universe=universe)
    state = solver.apply(solver.initial_state(), "sound", score("sound", "hound"))
    family = state.candidates  # ?OUND: every other guess is out in hard mode
    assert len(family) == len(OUND) - 1
    for left in range(1, len(OUND) + 1):
        hints = [("sound", score("sound", "hound"))]
        expected = _brute_force([OUND[i] for i in family], OUND + SPLITTERS, left, hints)
        assert check.can_finish(family, state.allowed, left) is expected
        assert expected is (left >= len(family))


def test_a_free_splitting_word_saves_guesses_in_normal_mode():
    _, check = _check(OUND + SPLITTERS, OUND)
    family = np.arange(len(OUND))
    for left in range(1, 6):
        expected = _brute_force(OUND, OUND + SPLITTERS, left)
        assert check.can_finish(family, None, left) is expected
    assert check.can_finish(family, None, 3) and not check.can_finish(family, None, 2)


def test_safe_guesses_are_the_ones_that_keep_the_game_winnable():
    universe, check = _check(OUND + SPLITTERS, OUND)
    family = np.arange(len(OUND))
    for guess, left in itertools.product(OUND + SPLITTERS, (2, 3, 4)):
        index = universe.guess_index[guess]
        parts: dict[str, list[str]] = {}
        for answer in OUND:
            parts.setdefault(score(guess, answer), []).append(answer)
        expected = all(
            marks == "GGGGG" or _brute_force(part, OUND + SPLITTERS, left - 1)
            for marks, part in parts.items()
        )
        assert check.safe(family, None, index, left) is expected, (guess, left)
    found = check.finishing_guess(family, None, 3)
    assert found is not None and check.safe(family, None, found, 3)


def test_a_half_without_plurals_still_leaves_chaos_findable_held_out():
    # Half B of the answers holds no plural. Fitted on it by maximum likelihood, the plural
    # factor falls to the grid floor and CHAOS (the one answer flagged plural, in half A)
    # took 8 guesses held out; half a pseudo-answer per kind keeps it within six.
    from epdle.solver.prior import HALF_SHARE_PSEUDO_ANSWERS, fit_on

    half_b = list(words.answers("original"))[1::2]
    bare, _ = fit_on(half_b, 0.5)
    prior, unlisted_factor = fit_on(half_b, 0.5, HALF_SHARE_PSEUDO_ANSWERS)
    assert bare.plural_factor == pytest.approx(1e-4)
    assert prior.plural_factor > 10 * bare.plural_factor
    universe = Universe(words.guesses(), None, prior=prior, unlisted_factor=unlisted_factor)
    solver = Solver("best", blind=True, universe=universe)
    guesses = play(solver, "chaos")
    assert guesses[-1] == "chaos" and len(guesses) <= 6


def test_hard_mode_counts_the_family_a_guess_pins_down():
    universe = Universe(OUND + SPLITTERS, [*OUND, "frown", "plumb"])
    solver = Solver("best", hard=True, universe=universe)
    candidates = np.arange(len(universe.answers))
    round_ = universe.guess_index["round"]
    # ROUND leaves ?OUND (the seven other family words) in one green-pinned part.
    family = (len(OUND) - 1) / len(universe.answers)
    for left in range(2, 10):
        expected = family if len(OUND) - 1 > left - 1 else 0.0
        assert solver.best.pinned_family_share(candidates, round_, left) == pytest.approx(expected)
    # A word that pins no four letters traps nothing.
    assert solver.best.pinned_family_share(candidates, universe.guess_index["bumph"], 2) == 0.0


@pytest.mark.parametrize("answer", ["mound", "hatch", "trice"])
def test_blind_hard_mode_keeps_out_of_family_traps(answer):
    # MOUND: SALET is all grey; ROUND would pin ?OUND, six words for four guesses.
    # HATCH: after SALET, CANTY pins ?ATCH (the search over 91 plausible words avoids it).
    # TRICE: TORTE would leave TRI?E (the next-guess charge avoids it). HOUND still takes
    # 7 (DRONY, then ?O?ND: docs/bench.md).
    solver = Solver("best", hard=True, blind=True)
    guesses = play(solver, answer)
    assert guesses[-1] == answer and len(guesses) <= 6
    history = [(guess, score(guess, answer)) for guess in guesses]
    assert all(obeys_hints(guess, history[:turn]) for turn, guess in enumerate(guesses))
