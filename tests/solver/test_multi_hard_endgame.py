"""The multi-board endgame search in hard mode, against an independent exhaustive search
that holds every open board to its rule (scoring.hard_mode_break) after each feedback."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from epdle.solver.multi import MultiSolver
from epdle.solver.multi import engine as multi_engine
from epdle.solver.multi.endgame import LOST, EndgameSearch
from epdle.solver.multi.hard_rule import HardRule
from epdle.solver.scoring import hard_mode_break, score
from epdle.solver.universe import Universe

# Two boards, one guess played: board 1 AFTER or ALTER (E green in 4th place, T and R
# revealed), board 2 ACTOR or ALTAR (T and R revealed). Both rules together allow only
# AFTER, ALTER and TERES; the best guess without the rule, ALTAR, breaks board 1's.
ANSWERS = ["actor", "after", "altar", "alter"]
PROBES = ["iched", "refel", "teres", "toaze"]
HIDDEN = ("after", "altar")
PLAYED = "teres"

Open = tuple[tuple[str, ...], tuple[tuple[str, str], ...]]  # candidates, history


def strict_search(guesses: list[str]):
    """(value, after): the expected guesses to finish every board, and 1 + those after a
    guess, by brute force on score(), every guess keeping every open board's rule (any
    guess when none keeps them all); a game past the limit costs LOST."""

    def allowed(state: tuple[Open, ...]) -> list[str]:
        kept = [g for g in guesses if all(hard_mode_break(h, g) is None for _, h in state)]
        return kept or guesses

    @cache
    def value(state: tuple[Open, ...], left: int) -> float:
        if not state:
            return 0.0
        if left == 0:
            return LOST
        return min(after(state, guess, left) for guess in allowed(state))

    @cache
    def after(state: tuple[Open, ...], guess: str, left: int) -> float:
        splits = []
        for board, history in state:
            parts: dict[str, list[str]] = {}
            for word in board:
                parts.setdefault(score(guess, word), []).append(word)
            split = []
            for feedback, words in parts.items():
                still = (
                    None if feedback == "GGGGG" else (tuple(words), (*history, (guess, feedback)))
                )
                split.append((len(words) / len(board), still))
            splits.append(split)
        unchanged = all(
            len(split) == 1 and split[0][1] is not None and split[0][1][0] == board
            for split, (board, _) in zip(splits, state, strict=True)
        )
        if unchanged:
            return LOST  # it tells nothing and solves nothing
        total = 0.0
        for outcome in itertools.product(*splits):
            chance = 1.0
            for c, _ in outcome:
                chance *= c
            total += chance * value(tuple(sorted(p for _, p in outcome if p is not None)), left - 1)
        return 1.0 + total

    return value, after


@pytest.fixture
def universe() -> Universe:
    return Universe(sorted(ANSWERS + PROBES), ANSWERS)


def played(solver: MultiSolver, hidden=HIDDEN, guess=PLAYED):
    history = [(guess, [score(guess, answer) for answer in hidden])]
    state = solver.state_after(history)
    boards = [tuple(sorted(board.candidates.tolist())) for board in state.boards]
    words = tuple(
        sorted(
            (tuple(solver.universe.answers[i] for i in b.candidates), b.history)
            for b in state.boards
        )
    )
    return state, boards, words


def test_hard_endgame_keeps_every_rule_to_the_end(universe):
    solver = MultiSolver(2, hard=True, universe=universe)
    state, boards, words = played(solver)
    left = solver.max_guesses - state.used
    rules = [HardRule.of(board.history) for board in state.boards]
    probes = [universe.guess_index[word] for word in PROBES]
    free = EndgameSearch(universe, probes, 4000).rank(boards, left)
    hard = EndgameSearch(universe, probes, 4000, hard=True).rank(boards, left, rules)
    assert free is not None and hard is not None
    best_free = universe.guesses[free[0][0]]
    assert best_free == "altar"
    assert hard_mode_break(state.boards[0].history, best_free) is not None
    # Only what both rules allow is ranked...
    assert sorted(universe.guesses[g] for g, _ in hard) == ["after", "alter", "teres"]
    # ...and each at what it costs when every later guess keeps the rules too (the
    # search without them finds cheaper lines through guesses the rules forbid).
    value, after = strict_search(universe.guesses)
    for guess, expected in hard:
        assert expected == pytest.approx(after(words, universe.guesses[guess], left))
    assert hard[0][1] == pytest.approx(value(words, left))
    # After ALTER the search without the rules finishes through guesses they forbid.
    alter = universe.guess_index["alter"]
    assert dict(free)[alter] < dict(hard)[alter] - 1


@pytest.mark.parametrize(
    ("answers", "probes", "hidden", "guess", "margin"),
    [
        # The estimate's ALTER leaves a line where only a guess that tells nothing keeps
        # both rules (lost under them); the search's AFTER finishes every line.
        (ANSWERS, PROBES, HIDDEN, PLAYED, 1.0),
        # FUJIS reveals nothing: the search's DADDY finishes in 3.0 guesses on average,
        # the estimate's BADLY in 3.2.
        (
            ["badly", "caddy", "daddy", "madly", "paddy", "sadly"],
            ["areic", "fujis", "gamed", "istle", "maddy", "poach"],
            ("badly", "madly"),
            "fujis",
            0.15,
        ),
    ],
)
def test_hard_endgame_beats_the_estimate(answers, probes, hidden, guess, margin, monkeypatch):
    universe = Universe(sorted(answers + probes), answers)
    solver = MultiSolver(2, hard=True, universe=universe)
    state, _, words = played(solver, hidden, guess)
    left = solver.max_guesses - state.used
    value, after = strict_search(universe.guesses)
    chosen = solver.ranked(state)[0]
    assert chosen[2] is None  # ranked by the search
    monkeypatch.setattr(multi_engine, "ENDGAME_WORDS", 0)
    estimated = solver.ranked(state)[0]
    best = value(words, left)
    assert after(words, universe.guesses[chosen[0]], left) == pytest.approx(best)
    assert after(words, universe.guesses[estimated[0]], left) > best + margin


def test_hard_endgame_past_its_budget_leaves_the_estimate(universe, monkeypatch):
    solver = MultiSolver(2, hard=True, universe=universe)
    state, _, _ = played(solver)
    assert all(summed is None for *_, summed in solver.ranked(state)[:3])
    monkeypatch.setattr(multi_engine, "ENDGAME_WORDS", 0)
    estimate = solver.ranked(state)
    monkeypatch.setattr(multi_engine, "ENDGAME_WORDS", 12)
    monkeypatch.setattr(multi_engine, "ENDGAME_STATES", 2)
    assert solver.ranked(state) == estimate


def test_a_rule_as_a_value_allows_what_the_history_allows(small_universe, small_answers):
    solver = MultiSolver(2, hard=True, universe=small_universe)
    hidden = small_answers[5], small_answers[60]
    history: list[tuple[str, list[str | None]]] = []
    for _ in range(2):
        guess = solver.next_guess(solver.state_after(history))
        history.append((guess, [score(guess, answer) for answer in hidden]))
    for board in solver.state_after(history).boards:
        rule = HardRule.of(board.history)
        assert rule.greens and rule.counts
        allowed = [hard_mode_break(board.history, w) is None for w in small_universe.guesses]
        assert rule.mask(small_universe).tolist() == allowed
