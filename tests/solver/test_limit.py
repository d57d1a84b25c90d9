"""The guess limit: near it every strategy offers only guesses that keep every answer within
reach (on the last guess only candidates), one board and several; review scores so."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from epdle.session.review import Reviewer
from epdle.solver import STRATEGIES, Solver, score
from epdle.solver.multi import MultiSolver
from epdle.solver.ranking import fast_advice
from epdle.solver.scoring import GAME_GUESSES, pattern_string
from epdle.solver.universe import Universe

IGHT_LAST = ["light", "might", "night", "fight", "sight"]  # eight right tight wight, 1 left


def _history(words: list[str], answer: str) -> list[tuple[str, str]]:
    return [(word, score(word, answer)) for word in words]


# (words played, an answer they fit): a family of words one letter apart, 1 to 3 left.
TRAPS = [
    (IGHT_LAST, "tight"),
    (["light", "might", "night", "fight"], "tight"),  # 5 left, 2 guesses
    (["light", "might", "night"], "tight"),  # 6 left, 3 guesses
    (["batch", "catch", "hatch", "latch"], "watch"),  # match patch watch, 2 guesses
    (["batch", "catch", "hatch"], "watch"),  # 4 left, 3 guesses
    (["bound", "found", "hound", "mound", "pound"], "wound"),  # round sound wound, 1 left
    (["bound", "found", "hound"], "wound"),  # 5 left, 3 guesses
]


@pytest.fixture(scope="module")
def module_cache(tmp_path_factory) -> Path:
    """One solver cache for the module: the fast path reads the pattern matrix from it."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def private_cache(module_cache: Path, monkeypatch) -> Path:
    monkeypatch.setenv("EPDLE_CACHE_DIR", str(module_cache))
    _universe().patterns  # noqa: B018 (the matrix, built into that cache once)
    return module_cache


@cache
def _universe() -> Universe:
    return Universe.shipped(lists="original")


@cache
def _solver(strategy: str, hard: bool) -> Solver:
    return Solver(strategy, hard, universe=_universe())


def _apart(universe: Universe, part: np.ndarray, allowed: np.ndarray | None) -> bool:
    """Some guess (hard mode: that the hints allow) tells every word of `part` apart."""
    codes = np.sort(universe.patterns[part], axis=0)
    split = (np.diff(codes.astype(np.int32), axis=0) != 0).all(axis=0)
    return bool((split if allowed is None else split & allowed).any())


def _reaches_all(solver: Solver, history: list[tuple[str, str]], guess: str) -> bool:
    """After `guess`, every candidate can still be found in time: worked out here in full
    for one or two guesses after it (the traps above)."""
    universe = solver.universe
    state = solver.state_after(history)
    after = GAME_GUESSES - len(history) - 1
    assert after <= 2
    index = universe.guess_index[guess]
    codes = universe.patterns[state.candidates, index]
    for code in np.unique(codes):
        part = state.candidates[codes == code]
        if code == universe.pattern_count - 1 or len(part) <= after:
            continue
        if after < 2:
            return False
        allowed = state.allowed
        if allowed is not None:
            feedback = pattern_string(int(code), universe.length)
            allowed = allowed & universe.hard_mode_mask(guess, feedback)
        if len(part) > 2 and not _apart(universe, part, allowed):
            return False
    return True


def _some_guess_reaches_all(solver: Solver, history: list[tuple[str, str]]) -> bool:
    state = solver.state_after(history)
    universe = solver.universe
    if GAME_GUESSES - len(history) == 1:
        return len(state.candidates) == 1
    allowed = range(len(universe.guesses))
    if state.allowed is not None:
        allowed = np.flatnonzero(state.allowed)
    return any(_reaches_all(solver, history, universe.guesses[g]) for g in allowed)


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize(("words", "answer"), TRAPS, ids=[f"{len(w)}-{a}" for w, a in TRAPS])
def test_every_strategy_keeps_every_answer_within_reach(
    strategy: str, hard: bool, words: list[str], answer: str
) -> None:
    solver = _solver(strategy, hard)
    history = _history(words, answer)
    advice = solver.advise(history, top=5)
    shown = [suggestion.word for suggestion in advice.suggestions]
    state = solver.state_after(history)
    candidates = {solver.universe.answers[i] for i in state.candidates}
    if len(history) == GAME_GUESSES - 1:
        assert set(shown) <= candidates and shown, shown
        assert solver.next_guess(state) in candidates
    elif _some_guess_reaches_all(solver, history):
        assert all(_reaches_all(solver, history, word) for word in shown), shown
        assert _reaches_all(solver, history, solver.next_guess(state))


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_the_last_guess_is_a_word_that_can_win(hard: bool) -> None:
    history = _history(IGHT_LAST, "tight")
    if not hard:
        # The fast path leaves the turn to the Solver: its ranking offers words that cannot
        # win (hard mode allows only ?IGHT words: the candidates and words never answers).
        assert fast_advice("best", hard, False, "original", history, 5) is None
    advice = _solver("best", hard).advise(history, top=5)
    assert [s.word for s in advice.suggestions] == ["eight", "right", "tight", "wight"]
    assert all(s.is_candidate for s in advice.suggestions)


def test_blind_the_last_guess_is_the_likeliest_words_left() -> None:
    solver = Solver("best", blind=True)
    history = _history(IGHT_LAST, "tight")
    state = solver.state_after(history)
    weights = solver.universe.weights
    likeliest = sorted(state.candidates, key=lambda row: -weights[row])
    expected = [solver.universe.answers[row] for row in likeliest[:5]]
    assert [s.word for s in solver.advise(history, top=5).suggestions] == expected


def test_away_from_the_limit_the_advice_is_unchanged() -> None:
    # Three guesses left, a free word tells the six words apart: the guard does not bind.
    history = _history(["light", "might", "night"], "tight")
    solver = _solver("best", False)
    state = solver.state_after(history)
    assert solver.ranked_guesses(state) == solver._ranked_guesses(state)
    fast = fast_advice("best", False, False, "original", history, 5)
    assert fast == solver.engine_advice(history)


def test_the_review_gives_a_final_candidate_full_marks_and_a_word_that_cannot_win_none() -> None:
    reviewer = Reviewer(_solver("best", False))
    final = reviewer.review(_history([*IGHT_LAST, "tight"], "tight"))
    assert final.turns[-1].skill == 99
    assert final.turns[-1].best in {"eight", "right", "tight", "wight"}
    # One guess left and four words: a word that cannot win throws the last chance away.
    thrown = reviewer.review([*_history(IGHT_LAST, "tight"), ("arett", score("arett", "tight"))])
    assert thrown.turns[-1].skill == 0


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_several_boards_keep_every_answer_within_reach(hard: bool) -> None:
    solver = MultiSolver(2, hard=hard, universe=_universe())
    played = ["light", "might", "night", "fight", "sight"]
    history = [("light", ("GGGGG", score("light", "tight")))]
    history += [(word, (None, score(word, "tight"))) for word in played[1:]]
    advice = solver.advise(history, top=5)  # guess 6 of 7: four words, two guesses
    words = {"eight", "right", "tight", "wight"}
    assert advice.boards[1].candidates_left == 4
    for suggestion in advice.suggestions:
        feedbacks = {score(suggestion.word, answer) for answer in words}
        # Each one found by the last guess; hard mode allows only ?IGHT words: none can.
        assert len(feedbacks) == 4 or (hard and suggestion.word in words)
    sixth = "eight" if hard else "arett"
    last = solver.advise([*history, (sixth, (None, score(sixth, "tight")))], top=5)
    assert last.suggestions and {s.word for s in last.suggestions} <= words
