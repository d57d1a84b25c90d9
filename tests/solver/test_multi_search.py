"""The multi-board search against an independent exhaustive one, and the guard at the
guess limit on word families that the hints cannot tell apart."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from epdle import words
from epdle.solver.multi import MultiSolver
from epdle.solver.multi.bench import play_game, sample_games
from epdle.solver.multi.endgame import EndgameSearch
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


def worst_case(guesses: list[str], board: tuple[str, ...], guess: str, left: int) -> int:
    """The most guesses `guess` and then best play by expectation may take on one board
    (brute force on score(); of plays expected to take the same, the fewest at worst)."""
    value, after = optimum(list(board), guesses, left)

    def most(words: tuple[str, ...], played: str, left: int) -> int:
        parts: dict[str, list[str]] = {}
        for word in words:
            parts.setdefault(score(played, word), []).append(word)
        worst = 1
        for pattern, part in parts.items():
            if pattern != "GGGGG":
                rest = tuple(part)
                best = value((rest,), left - 1)
                tied = [g for g in guesses if after((rest,), g, left - 1) == pytest.approx(best)]
                worst = max(worst, 1 + min(most(rest, g, left - 1) for g in tied))
        return worst

    return most(board, guess, left)


def test_of_guesses_as_good_on_average_one_that_keeps_off_the_last_guess_is_played():
    # GRADE, GRAVE, GRAZE on one board with three guesses left: playing one of them takes
    # 2 guesses on average and 3 at worst (the last guess of the game); DOZEN tells all
    # three apart, also 2 on average, but never 3. The estimate ranks the words first.
    family = ("grade", "grave", "graze")
    guesses = [*family, "dozen"]
    universe = Universe(guesses, list(family))
    index = {word: universe.guess_index[word] for word in guesses}
    board = tuple(sorted(universe.answers.index(word) for word in family))
    search = EndgameSearch(universe, [index["dozen"]], budget=1000)
    prefer = [index[word] for word in guesses]
    ranked = search.rank([board], 3, prefer=prefer)
    assert ranked is not None
    _, after = optimum(list(family), guesses, 3)
    expected = {universe.guesses[g]: figure for g, figure in ranked}
    assert expected == pytest.approx({word: after((family,), word, 3) for word in guesses})
    assert expected["dozen"] == pytest.approx(expected["grade"]) == pytest.approx(2.0)
    assert universe.guesses[ranked[0][0]] == "dozen"
    assert worst_case(guesses, family, "dozen", 3) == 2
    assert worst_case(guesses, family, "grade", 3) == 3


def test_no_seeded_game_ends_on_its_last_guess_where_a_guess_as_good_would_not():
    # Three Dordle games of the bench that, with ties kept in the estimate's order, took
    # all 7 guesses (GRADE, GRAVE, GRAZE left; COMFY, POPPY, WOOZY; the _OLLY family):
    # each now ends in 6, its expectation unchanged.
    solver = MultiSolver(2, universe=Universe.shipped(lists="original"))
    for game in (("graze", "bosom"), ("ruder", "woozy"), ("folly", "pecan")):
        assert play_game(solver, game) == 6, game
