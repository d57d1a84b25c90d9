"""The cut-offs that make hard-mode tree builds finish: the exact ones change no cost (the
search with every guess in its beam still equals the exhaustive optimum at every guess
limit), and the guess with two left is the one counting buckets would choose."""

from __future__ import annotations

import numpy as np
import pytest
from exhaustive import optimal_total
from test_best_search import ASKEW, ASKEW_GUESSES, ATCH, ATCH_GUESSES

from epdle.solver import search
from epdle.solver.search import INFINITE
from epdle.solver.universe import Universe


@pytest.mark.parametrize(
    ("answers", "guesses"), [(ATCH, ATCH_GUESSES), (ASKEW, ASKEW_GUESSES)], ids=["atch", "askew"]
)
@pytest.mark.parametrize("limit", [3, 4, 5])
def test_a_wide_hard_search_is_exact_at_every_guess_limit(answers, guesses, limit):
    """Near the limit most hard-mode sets cannot be finished: the guesses skipped with three
    left (a part larger than any guess can tell apart) are ones that could not finish."""
    universe = Universe(guesses, answers)
    width = len(universe.guesses)
    wide = search.TreeSearch(universe, True, (width,), rescue_width=width, bounded=True)
    best = INFINITE
    for opener in range(width):
        best = min(best, wide.opener_cost(opener, limit, best))
    optimum = optimal_total(guesses, answers, hard=True, limit=limit)
    assert best == (INFINITE if optimum is None else optimum)


def test_families_that_only_one_guess_at_a_time_can_split_cannot_finish_in_three():
    # ?ATCH words: every hard-mode guess after ?ATCH's greens keeps them, so it tells at
    # most one word apart from the others: five words cannot be found in three guesses.
    family = ["batch", "catch", "hatch", "latch", "match"]
    universe = Universe([*family, "bench"], family)
    tree = search.TreeSearch(universe, True, (1, 1), rescue_width=0, bounded=True)
    allowed = universe.hard_mode_mask("watch", "BGGGG")
    everyone = np.arange(len(family))
    assert tree.solve(everyone, allowed, 3, 1) == (INFINITE, -1)
    assert optimal_total([*family, "bench"], family, hard=True, limit=3) is None


def _counted(tree: search.TreeSearch, candidates: np.ndarray, allowed: np.ndarray | None):
    """The guess with two left as the full node chooses it, by counting every bucket."""
    columns = np.arange(len(tree.universe.guesses)) if allowed is None else np.flatnonzero(allowed)
    counts = [len(tree.buckets(candidates, int(guess))) for guess in columns]
    apart = np.array(counts) == len(candidates)
    weights = tree.weights[candidates]
    own, weight = tree._as_answers(candidates, columns, weights)
    if (apart & own).any():
        chosen = int(np.argmax(np.where(apart & own, weight, -1.0)))
        return 2 * float(weights.sum()) - float(weight[chosen]), int(columns[chosen])
    if apart.any():
        return 2 * float(weights.sum()), int(columns[np.flatnonzero(apart)[0]])
    return INFINITE, -1


@pytest.mark.parametrize("weighted", [False, True])
def test_the_guess_with_two_left_is_the_one_counting_buckets_chooses(small_universe, weighted):
    rng = np.random.default_rng(7)
    weights = rng.random(len(small_universe.answers)) if weighted else None
    tree = search.TreeSearch(small_universe, True, (1,), weights=weights)
    found = {True: 0, False: 0}
    for _ in range(60):
        size = int(rng.integers(3, 12))
        candidates = np.sort(rng.choice(len(small_universe.answers), size, replace=False))
        allowed = rng.random(len(small_universe.guesses)) < rng.choice([0.05, 0.3, 1.0])
        for mask in (allowed, None):
            expected = _counted(tree, candidates, mask)
            assert tree._told_apart(candidates, mask) == expected
            found[expected[1] >= 0] += 1
    assert found[True] and found[False]  # both outcomes were checked
