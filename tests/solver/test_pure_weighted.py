"""`best` under unequal chances without numpy (epdle.solver.ranking.pure.weighted): the
same plausible candidates, estimate ranking and weighted search as the Solver's."""

from __future__ import annotations

import random
from array import array

import numpy as np
import pytest

from epdle import words
from epdle.solver.patterns import matrix_path
from epdle.solver.ranking.best import BLIND_WIDTHS, BestPolicy
from epdle.solver.ranking.estimate import candidate_bits, rank_expected_guesses
from epdle.solver.ranking.pure import weighted
from epdle.solver.ranking.pure.matrix import Matrix, Undecided
from epdle.solver.ranking.stats import guess_stats
from epdle.solver.search import TreeSearch
from epdle.solver.universe import Universe


@pytest.mark.parametrize("size", [*range(1, 300), 1000, 2317, 14855])
def test_pairwise_sum_is_numpys(size: int) -> None:
    values = np.random.default_rng(size).random(size) ** 3
    assert weighted.pairwise_sum(values.tolist()) == float(values.sum())


Blind = tuple[Universe, Matrix, array]


@pytest.fixture(scope="module")
def blind(tmp_path_factory: pytest.TempPathFactory) -> tuple[Universe, Matrix, array]:
    """Every third accepted word, each a candidate weighted by the frequency prior; its
    square pattern matrix as the numpy-free side reads it; the weights as an array."""
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EPDLE_CACHE_DIR", str(cache))
        spelled = list(words.guesses())[::3]
        universe = Universe(spelled, None)
        universe.patterns  # noqa: B018 (builds the matrix into the cache)
        matrix = Matrix(str(matrix_path(spelled, spelled)), len(spelled), len(spelled))
    weights = array("d")
    weights.frombytes(np.ascontiguousarray(universe.weights, dtype=np.float64).tobytes())
    return universe, matrix, weights


def _states(universe: Universe, count: int, seed: int) -> list[np.ndarray]:
    """The candidates after a first guess against a random answer, `count` times."""
    chance = random.Random(seed)
    found = []
    for _ in range(count):
        guess = chance.randrange(len(universe.guesses))
        answer = chance.randrange(len(universe.answers))
        codes = np.asarray(universe.patterns[:, guess])
        found.append(np.flatnonzero(codes == codes[answer]))
    return found


def test_plausible_and_estimate_order_are_the_solvers(blind: Blind) -> None:
    universe, matrix, weights = blind
    policy = BestPolicy(universe, False, "best")
    decided = 0
    for candidates in _states(universe, 12, seed=3):
        expected = policy.plausible(candidates)
        members = candidates.tolist()
        try:
            kept = weighted.plausible(members, [weights[m] for m in members])
            assert kept == expected.tolist()
            if len(kept) <= 2:
                continue
            stats = guess_stats(universe, expected)
            order = rank_expected_guesses(stats, candidate_bits(universe, expected))
            rows = weighted.WeightedRows(matrix, kept, [weights[m] for m in kept])
            ranked = weighted.estimate_order(rows, universe.guesses, 50)
        except Undecided:
            continue
        assert ranked == stats.guesses[order[:50]].tolist()
        decided += 1
    assert decided >= 8


def test_weighted_search_is_tree_search(blind: Blind) -> None:
    """The same costs to the last bit and the same guesses, at 3 to 5 guesses left."""
    universe, matrix, weights = blind
    policy = BestPolicy(universe, False, "best")
    searched = 0
    for candidates in _states(universe, 40, seed=5):
        kept = policy.plausible(candidates)
        if not 2 < len(kept) <= 60:
            continue
        for left in (5, 4, 3):
            cost, guess = TreeSearch(universe, False, BLIND_WIDTHS, universe.weights).solve(
                kept, None, left, 1
            )
            search = weighted.WeightedSearch(matrix, weights, universe.length, BLIND_WIDTHS)
            assert search.solve(tuple(kept.tolist()), left, 1) == (float(cost), guess)
        searched += 1
    assert searched >= 5
