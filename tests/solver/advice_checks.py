"""Shared checks of the solver tests: one answer equal to another."""

from __future__ import annotations

import pytest


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
