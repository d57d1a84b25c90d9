"""Hard mode over several boards, one rule for the history check and the engine: a guess
keeps all the hints of at least one open board. Every guess the engine proposes is one
the history check accepts, and every open board's answer may always be played."""

from __future__ import annotations

import pytest

from epdle import words
from epdle.solver.multi import MultiHistoryError, MultiSolver, parse_multi_history
from epdle.solver.multi.bench import sample_games
from epdle.solver.scoring import hard_mode_break, score

# TARSE on BEACH (A and E revealed) and HOIST (T revealed, S green in 4th place).
TARSE = "tarse:BYBBY/YBBGB"


@pytest.fixture(scope="module")
def solvers() -> dict[int, MultiSolver]:
    return {boards: MultiSolver(boards, hard=True) for boards in (2, 4)}


def keeps_the_rule(solver: MultiSolver, history, guess: str) -> bool:
    """The rule checked word by word with scoring.hard_mode_break, apart from the engine:
    `guess` keeps all the hints of at least one open board."""
    state = solver.state_after(history)
    histories = [state.boards[index].history for index in state.open_boards()]
    return any(hard_mode_break(history, guess) is None for history in histories)


def test_a_guess_keeping_one_boards_hints_is_accepted(solvers):
    solver = solvers[2]
    history = parse_multi_history(TARSE, 2)
    assert hard_mode_break(solver.state_after(history).boards[0].history, "moist")
    state = solver.state_after([*history, ("moist", [score("moist", "beach"), "GGGGG"])])
    assert state.boards[1].solved_in == 2


def test_a_probe_keeping_no_boards_hints_is_refused(solvers):
    solver = solvers[2]
    history = parse_multi_history(TARSE, 2)
    feedbacks = [score("joint", answer) for answer in ("beach", "hoist")]
    with pytest.raises(
        MultiHistoryError,
        match=r"^guess 2 'joint': hard mode: it keeps the hints of no open board "
        r"\(board 1: the guess must use A .*; board 2: letter 4 must be S .*\)$",
    ):
        solver.state_after([*history, ("joint", feedbacks)])


def test_each_open_boards_answer_may_be_played_where_the_old_rule_locked_them():
    """After TERMS on RIGHT and TIGHT, holding a guess to both boards' hints at once
    would need a T first and an R: neither answer. Each keeps its own board's hints."""
    solver = MultiSolver(2, hard=True)
    history = [("terms", [score("terms", answer) for answer in ("right", "tight")])]
    state = solver.state_after(history)
    playable = solver.playable(state)
    for answer in ("right", "tight"):
        assert playable[solver.universe.guess_index[answer]]
    history.append(("right", ["GGGGG", score("right", "tight")]))
    history.append(("tight", [None, "GGGGG"]))
    assert not solver.state_after(history).open_boards()


@pytest.mark.parametrize(("boards", "games"), [(2, 60), (4, 20)])
def test_every_guess_played_in_seeded_games_is_accepted(solvers, boards, games):
    solver = solvers[boards]
    for hidden in sample_games(words.answers(), boards, games, seed=3):
        history: list[tuple[str, list[str | None]]] = []
        solved = [False] * boards
        while not all(solved) and len(history) < solver.max_guesses:
            advice = solver.advise(history, top=3)
            for suggestion in advice.suggestions:
                assert keeps_the_rule(solver, history, suggestion.word), (history, suggestion)
            guess = advice.suggestions[0].word
            pairs = zip(solved, hidden, strict=True)
            feedbacks = [None if done else score(guess, answer) for done, answer in pairs]
            history.append((guess, feedbacks))
            solver.state_after(history)  # the history check accepts it
            solved = [done or guess == answer for done, answer in zip(solved, hidden, strict=True)]
