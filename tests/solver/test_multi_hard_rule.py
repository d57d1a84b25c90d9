"""Hard mode over several boards, one rule for the history check and the engine: a guess
keeps every open board's hints while some accepted word keeps them all (else any may be
played). Every guess the engine proposes is one the history check accepts."""

from __future__ import annotations

import pytest

from epdle import words
from epdle.solver.multi import MultiHistoryError, MultiSolver, parse_multi_history
from epdle.solver.multi.bench import sample_games
from epdle.solver.multi.hard_rule import HardRule
from epdle.solver.scoring import hard_mode_break, score

# After TARSE only HEAST keeps both boards' hints; played four times, it tells nothing
# more, and the boards' lone words each break the other board's rule.
TRAPPED = (
    "tarse:BYBBY/YBBGB,heast:YGGBB/BBBGG,heast:YGGBB/BBBGG,heast:YGGBB/BBBGG,heast:YGGBB/BBBGG"
)


@pytest.fixture(scope="module")
def solvers() -> dict[int, MultiSolver]:
    return {boards: MultiSolver(boards, hard=True) for boards in (2, 4)}


def keeps_the_rule(solver: MultiSolver, history, guess: str) -> bool:
    """The rule checked word by word with scoring.hard_mode_break, apart from the engine:
    `guess` keeps every open board's hints, or no accepted word keeps them all."""
    state = solver.state_after(history)
    histories = [state.boards[index].history for index in state.open_boards()]

    def kept(word: str) -> bool:
        return all(hard_mode_break(history, word) is None for history in histories)

    return kept(guess) or not any(kept(word) for word in solver.universe.guesses)


def test_the_advice_after_a_trap_is_accepted_by_the_history_check(solvers):
    solver = solvers[2]
    history = parse_multi_history(TRAPPED, 2)
    suggestions = solver.advise(history, top=10).suggestions
    assert [s.word for s in suggestions] == ["heast"]  # the one word both rules allow
    solver.state_after([*history, ("heast", ["YGGBB", "BBBGG"])])
    with pytest.raises(MultiHistoryError, match=r"board 1: letter 2 must be E.*\(HEAST\)"):
        solver.state_after([*history, ("joist", ["BBBBB", "BBBBB"])])


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


def test_when_no_word_keeps_every_rule_any_may_be_played(solvers):
    solver = solvers[2]
    contradictory = HardRule(greens=((1, "a"), (1, "e")))
    assert contradictory.playable(solver.universe).all()
    # Boards whose rules contradict (E green in second place on MERRY's, then A on
    # MANOR's: CABLE broke the first, which the history check refuses): every guess.
    state = solver.initial_state()
    for guess in ("heast", "cable"):
        state = solver.apply(state, guess, [score(guess, a) for a in ("merry", "manor")])
    assert solver.playable(state).all()
    assert len(solver.ranked(state)) > 1000
