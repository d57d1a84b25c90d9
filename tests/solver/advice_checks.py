"""Shared checks of the solver tests: one answer equal to another, games played out."""

from __future__ import annotations

import pytest

from epdle.solver import Solver, score


def assert_same_advice(fast, slow) -> None:
    """A quick path's Advice (tree, cold) is the Solver's, suggestion by suggestion."""
    assert fast.candidates_left == slow.candidates_left
    assert fast.solved == slow.solved
    assert fast.candidates == slow.candidates
    assert [s.word for s in fast.suggestions] == [s.word for s in slow.suggestions]
    for mine, theirs in zip(fast.suggestions, slow.suggestions, strict=True):
        assert mine.bits == pytest.approx(theirs.bits, abs=1e-9)
        assert mine.expected_left == pytest.approx(theirs.expected_left, abs=1e-9)
        assert mine.is_candidate == theirs.is_candidate
        if mine.guesses is None or theirs.guesses is None:  # placed first by a search
            assert mine.guesses is theirs.guesses
        else:
            assert mine.guesses == pytest.approx(theirs.guesses, abs=1e-9)


def guesses_to_find(
    solver: Solver, history: list[tuple[str, str]], words: list[str] | None = None
) -> dict[str, int]:
    """Per word (by default every candidate left after `history`): the guesses the whole
    game takes to find it, played out from `history` (at most 11)."""
    start = solver.state_after(history)
    if words is None:
        words = [solver.universe.answers[index] for index in start.candidates]
    taken = {}
    for answer in words:
        state, turns = start, len(history)
        while turns <= 10:
            guess = solver.next_guess(state)
            turns += 1
            if guess == answer:
                break
            state = solver.apply(state, guess, score(guess, answer))
        taken[answer] = turns
    return taken


def cold_advice(history, hard: bool, top: int = 5, lists: str | None = None):
    """The fast path's advice off the tree (pure.cold_advice) with its figures settled,
    as fast_advice returns it (epdle.solver.ranking.settle)."""
    from epdle.solver import ranking
    from epdle.solver.ranking import pure

    raw = (
        pure.cold_advice(history, hard, top)
        if lists is None
        else pure.cold_advice(history, hard, top, lists)
    )
    return ranking.settle(raw, history, hard)
