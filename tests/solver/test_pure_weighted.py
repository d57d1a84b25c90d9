"""`best` under unequal chances without numpy (epdle.solver.ranking.pure.weighted): the
same plausible candidates, estimate ranking and weighted search as the Solver's."""

from __future__ import annotations

import json
import math
import random
from array import array
from pathlib import Path

import numpy as np
import pytest

from epdle import words
from epdle.cli import main
from epdle.solver import Solver, ranking
from epdle.solver.history_prior import history_prior
from epdle.solver.patterns import matrix_path
from epdle.solver.ranking.best import BestPolicy
from epdle.solver.ranking.estimate import candidate_bits, rank_expected_guesses
from epdle.solver.ranking.pure import weighted
from epdle.solver.ranking.pure.matrix import Matrix, Undecided
from epdle.solver.ranking.pure.weighted import history_advice as pure_history_advice
from epdle.solver.ranking.stats import guess_stats
from epdle.solver.scoring import feedback
from epdle.solver.search import TreeSearch
from epdle.solver.settings import BLIND_WIDTHS
from epdle.solver.universe import Universe
from epdle.words.history import Played, shipped_history


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
            ranked = weighted.estimate_order(rows, weighted.common_ranks(universe.guesses), 50)
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


@pytest.fixture(scope="module")
def history_cache(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A cache holding the square matrix of every accepted word (built once)."""
    cache = tmp_path_factory.mktemp("history-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EPDLE_CACHE_DIR", str(cache))
        spelled = list(words.guesses())
        Universe(spelled, None).patterns  # noqa: B018
    return str(cache)


def _days() -> list[Played]:
    return list(shipped_history()[-60::10])


def _close(mine: float | None, theirs: float | None) -> bool:
    if mine is None or theirs is None:
        return mine is theirs
    return math.isclose(mine, theirs, rel_tol=1e-9, abs_tol=1e-12)


def test_history_advice_is_the_solvers(history_cache: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After an opener and after the Solver's next guess, on real days: where the
    numpy-free path answers, the same advice (figures to 1e-9: numpy sums its logarithms
    in another order)."""
    monkeypatch.setenv("EPDLE_CACHE_DIR", history_cache)
    known = list(shipped_history())
    spelled = list(words.guesses())
    answered = asked = 0
    for played in _days():
        universe = Universe(spelled, None, history=history_prior(spelled, known, played.date))
        solver = Solver("best", universe=universe)
        for opener in ("raise", "cloud"):
            history = [(opener, feedback(opener, played.word))]
            for _ in range(2):
                theirs = solver.engine_advice(history, 5)
                found = pure_history_advice(history, False, 5, known, played.date)
                asked += 1
                if found is not None:
                    answered += 1
                    mine, prior = found
                    assert universe.history is not None
                    assert prior.puzzle == universe.history.puzzle
                    assert prior.shares.keys() == universe.history.shares.keys()
                    for kind, share in prior.shares.items():
                        assert math.isclose(share, universe.history.shares[kind], rel_tol=1e-12)
                    assert (mine.candidates_left, mine.solved) == (
                        theirs.candidates_left,
                        theirs.solved,
                    )
                    assert mine.candidates == theirs.candidates
                    assert [s.word for s in mine.suggestions] == [
                        s.word for s in theirs.suggestions
                    ]
                    for ours, its in zip(mine.suggestions, theirs.suggestions, strict=True):
                        assert ours.is_candidate == its.is_candidate
                        assert _close(ours.bits, its.bits)
                        assert _close(ours.expected_left, its.expected_left)
                        assert _close(ours.guesses, its.guesses)
                if theirs.solved:
                    break
                guess = theirs.suggestions[0].word
                history = [*history, (guess, feedback(guess, played.word))]
    assert answered >= asked * 9 // 10


def test_suggest_prints_the_same_from_either_path(
    history_cache: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The numpy-free path and the Solver print the same report (the Solver's path taken
    by making the other decline)."""
    monkeypatch.setenv("EPDLE_CACHE_DIR", history_cache)
    day = next(p for p in shipped_history() if p.puzzle == 1887)  # GRILL: 17 plausible left
    played = tmp_path / "played.tsv"
    played.write_text("".join(p.line() + "\n" for p in shipped_history()))
    argv = ["suggest", "--prior", "history", "--date", day.date.isoformat(), "--json"]
    argv += ["--played", str(played)]
    argv += ["--history", f"raise:{feedback('raise', day.word)}"]
    assert main(argv) == 0  # the Solver fits and stores the day's prior, if need be
    capsys.readouterr()
    history = [("raise", feedback("raise", day.word))]
    known = list(shipped_history())
    assert ranking.fast_history_advice("best", False, history, 5, known, day.date) is not None
    assert main(argv) == 0
    fast = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(ranking, "fast_history_advice", lambda *args: None)
    assert main(argv) == 0
    slow = json.loads(capsys.readouterr().out)
    assert fast["prior_text"] == slow["prior_text"] and fast["history"] == slow["history"]
    assert [s["word"] for s in fast["suggestions"]] == [s["word"] for s in slow["suggestions"]]
    assert fast == slow
