"""The multi-board search against an independent exhaustive one, and the guard at the
guess limit on word families that the hints cannot tell apart."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from epdle import words
from epdle.solver.multi import MultiSolver
from epdle.solver.multi.bench import play_game, sample_games
from epdle.solver.scoring import hard_mode_break, score
from epdle.solver.universe import Universe

FAMILY = ["batch", "catch", "hatch", "latch", "match", "patch"]
PROBES = ["chomp", "blimp", "thumb", "salet"]


def optimum(answers: list[str], guesses: list[str], limit: int):
    """Expected guesses to finish every board, best play, by brute force on score()."""

    @cache
    def value(boards: tuple[tuple[str, ...], ...], left: int) -> float:
        if not boards:
            return 0.0
        if left == 0:
            return float("inf")
        return min(after(boards, guess, left) for guess in guesses)

    @cache
    def after(boards: tuple[tuple[str, ...], ...], guess: str, left: int) -> float:
        splits = []
        for board in boards:
            parts: dict[str, list[str]] = {}
            for word in board:
                parts.setdefault(score(guess, word), []).append(word)
            splits.append(
                [
                    (len(p) / len(board), None if k == "GGGGG" else tuple(p))
                    for k, p in parts.items()
                ]
            )
        if all(len(s) == 1 and s[0][1] == b for s, b in zip(splits, boards, strict=True)):
            return float("inf")
        total = 0.0
        for outcome in itertools.product(*splits):
            chance = 1.0
            for c, _ in outcome:
                chance *= c
            still = tuple(sorted(p for _, p in outcome if p is not None))
            total += chance * value(still, left - 1)
        return 1.0 + total

    return value, after


def test_two_boards_play_exactly_as_well_as_an_exhaustive_search():
    universe = Universe(FAMILY + PROBES, FAMILY)
    solver = MultiSolver(2, universe=universe)
    games = list(itertools.product(FAMILY, repeat=2))  # every pair, a word twice too
    turns = [play_game(solver, game) for game in games]
    assert max(turns) <= solver.max_guesses
    mean = sum(turns) / len(turns)
    value, after = optimum(FAMILY, FAMILY + PROBES, solver.max_guesses)
    first = solver.next_guess(solver.initial_state())
    board = tuple(FAMILY)
    # From its first guess on, it plays the best there is...
    assert mean == pytest.approx(after((board, board), first, solver.max_guesses), abs=1e-9)
    # ...and that first guess costs at most a little against the best first guess.
    assert mean <= value((board, board), solver.max_guesses) + 0.25


@pytest.fixture(scope="module")
def ight_universe() -> Universe:
    family = ["bight", "eight", "fight", "light", "might", "night", "right", "sight", "tight"]
    return Universe(list(words.guesses()), family)


@pytest.mark.parametrize("boards", [2, 4, 8])
def test_no_board_is_left_open_at_the_limit_on_a_word_family(ight_universe, boards):
    solver = MultiSolver(boards, universe=ight_universe)
    for game in sample_games(ight_universe.answers, boards, 12, seed=boards):
        assert play_game(solver, game) <= solver.max_guesses, game


@pytest.mark.parametrize("boards", [2, 4, 8])
def test_hard_mode_on_a_word_family_finishes_every_board_by_accepted_guesses(ight_universe, boards):
    """Each guess keeps all the hints of at least one open board (checked word by word)
    and the history check accepts it: after TERMS on RIGHT and TIGHT both answers may
    still be played, so no board is left open at the limit."""
    solver = MultiSolver(boards, hard=True, universe=ight_universe)
    for game in sample_games(ight_universe.answers, boards, 6, seed=boards):
        history: list[tuple[str, list[str | None]]] = []
        state = solver.initial_state()
        while state.open_boards() and state.used < solver.max_guesses:
            guess = solver.next_guess(state)
            opened = [state.boards[index].history for index in state.open_boards()]
            assert any(hard_mode_break(h, guess) is None for h in opened), (history, guess)
            feedbacks = [
                None if board.solved_in is not None else score(guess, answer)
                for board, answer in zip(state.boards, game, strict=True)
            ]
            history.append((guess, feedbacks))
            state = solver.state_after(history)
        assert not state.open_boards(), game
