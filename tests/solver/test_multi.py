"""The multi-board solver: history parsing, replay, advice and the guess limit's guard."""

from __future__ import annotations

import pytest

from epdle.solver.multi import (
    MultiAdvice,
    MultiHistoryError,
    MultiSolver,
    guess_limit,
    parse_multi_history,
)
from epdle.solver.multi.bench import play_game, run_bench, sample_games
from epdle.solver.scoring import hard_mode_break, score
from epdle.solver.universe import Universe


def test_parse_normalises_each_board_and_marks_solved_boards():
    history = parse_multi_history("SALET:bbybb/ggggg, crane:01200/-", 2)
    assert history == [("salet", ["BBYBB", "GGGGG"]), ("crane", ["BYGBB", None])]
    assert parse_multi_history("SALET bbybb/ggggg, crane 01200/-", 2) == history


@pytest.mark.parametrize(
    ("text", "boards", "message"),
    [
        ("salet:BBBBB", 2, "1 feedbacks, expected 2"),
        ("salet:BBBBB/BBBBB/BBBBB", 2, "3 feedbacks, expected 2"),
        ("salet", 2, "expected word:feedback"),
        ("sa1et:BBBBB/BBBBB", 2, "letters only"),
        ("salet:BBBBB/-", 2, "board 2 is marked - (solved) but no earlier guess solved it"),
        ("salet:GGGGG/BBBBB,crane:BBBBB/BBBBB", 2, "board 1 was solved by guess 1"),
        ("salet:BBBXB/BBBBB", 2, "board 1: feedback"),
        ("salet:BBBB/BBBBB", 2, "board 1: feedback"),
        ("salet:GGGGG/GGGGG,crane:-/-", 2, "every board was already solved"),
    ],
)
def test_parse_errors_name_the_entry(text, boards, message):
    with pytest.raises(MultiHistoryError) as raised:
        parse_multi_history(text, boards)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_parse_refuses_more_guesses_than_the_game_allows():
    text = ",".join(["salet:BBBBB/BBBBB"] * 8)
    with pytest.raises(MultiHistoryError, match="2 boards allow 7 guesses"):
        parse_multi_history(text, 2)


@pytest.mark.parametrize("boards", [0, 33, -1])
def test_board_count_is_checked(boards):
    with pytest.raises(ValueError, match="boards must be a whole number from 1 to 32"):
        parse_multi_history("", boards)


def test_guess_limit_is_boards_plus_five():
    assert [guess_limit(n) for n in (1, 2, 4, 8, 32)] == [6, 7, 9, 13, 37]


def test_advice_tracks_each_board(small_universe, small_answers):
    solver = MultiSolver(2, universe=small_universe)
    assert solver.max_guesses == 7
    answers = small_answers[3], small_answers[50]
    guess = solver.advise([]).suggestions[0].word
    history = [(guess, [score(guess, answer) for answer in answers])]
    advice = solver.advise(history)
    assert isinstance(advice, MultiAdvice)
    assert advice.guesses_used == 1 and advice.guesses_left == 6
    assert not advice.solved and not advice.lost
    for board, answer in zip(advice.boards, answers, strict=True):
        assert answer in board.candidates
        assert board.candidates_left == len(board.candidates) or board.candidates_left > 100
        assert all(score(guess, word) == score(guess, answer) for word in board.candidates)
    assert 1 <= len(advice.suggestions) <= 5
    first = advice.suggestions[0]
    assert first.expected_guesses >= 1 + 2  # one played, at least one per board to come
    assert all(first.word in advice.boards[b].candidates for b in first.solves)


def test_solved_boards_take_a_dash_and_end_the_game(small_universe, small_answers):
    solver = MultiSolver(2, universe=small_universe)
    first, second = small_answers[10], small_answers[20]
    history = [
        (first, ["GGGGG", score(first, second)]),
        (second, [None, "GGGGG"]),
    ]
    advice = solver.advise(history)
    assert advice.solved and not advice.lost and advice.suggestions == []
    assert [board.solved_in for board in advice.boards] == [1, 2]
    assert [board.answer for board in advice.boards] == [first, second]


@pytest.mark.parametrize(
    ("history", "message"),
    [
        ([("salet", ["BBBBB", None])], "board 2 is not solved"),
        ([("zzzzz", ["BBBBB", "BBBBB"])], "not in the accepted word list"),
        ([("salet", ["BBBBB", "GGGGB"])], "board 2: no word of the answer list fits"),
    ],
)
def test_replay_errors_name_guess_and_board(small_universe, history, message):
    solver = MultiSolver(2, universe=small_universe)
    with pytest.raises(MultiHistoryError, match=message):
        solver.state_after(history)


def test_hard_mode_holds_each_guess_to_an_open_boards_rule(small_universe, small_answers):
    solver = MultiSolver(2, hard=True, universe=small_universe)
    answers = small_answers[0], small_answers[1]
    guess = "salet"
    history = [(guess, [score(guess, a) for a in answers])]
    state = solver.state_after(history)
    for suggestion in solver.advise(history, top=20).suggestions:
        word = suggestion.word
        assert any(hard_mode_break(board.history, word) is None for board in state.boards)


@pytest.mark.parametrize("boards", [2, 4])
def test_small_games_are_all_won(small_universe, small_answers, boards):
    solver = MultiSolver(boards, universe=small_universe)
    games = sample_games(small_answers, boards, 40, seed=1)
    result = run_bench(solver, games)
    assert result.games == 40 and result.lost == 0
    assert boards <= result.mean <= result.max <= solver.max_guesses
    assert sum(result.histogram.values()) == 40


def test_play_game_counts_the_guess_that_solves_the_last_board(small_universe, small_answers):
    solver = MultiSolver(1, universe=small_universe)
    turns = play_game(solver, [small_answers[7]])
    assert 1 <= turns <= 6


def test_sample_games_is_seeded_and_distinct():
    pool = [f"w{i}" for i in range(50)]
    assert sample_games(pool, 4, 5, 3) == sample_games(pool, 4, 5, 3)
    assert sample_games(pool, 4, 5, 3) != sample_games(pool, 4, 5, 4)
    assert all(len(set(game)) == 4 for game in sample_games(pool, 4, 20, 0))
    with pytest.raises(ValueError, match="need 4 different answers"):
        sample_games(pool[:3], 4, 1, 0)


def test_universe_of_another_length_plays(tmp_path):
    universe = Universe(["abcd", "abce", "bcde", "dcba", "eeee"], ["abcd", "abce", "bcde"])
    solver = MultiSolver(2, universe=universe)
    assert play_game(solver, ["abcd", "bcde"]) <= solver.max_guesses
