"""`epdle suggest --boards N` and `epdle bench --boards N`: output, errors and exit codes."""

from __future__ import annotations

import json

import pytest

from epdle.cli import main
from epdle.solver import score


@pytest.fixture
def lists(list_files):
    answers, guesses = list_files
    return ["--answers", str(answers), "--guesses", str(guesses)]


def test_suggest_boards_json_follows_each_board(capsys, lists, small_answers):
    hidden = small_answers[5], small_answers[60]
    history = "salet:" + "/".join(score("salet", answer) for answer in hidden)
    assert main(["suggest", "--boards", "2", "--history", history, "--json", *lists]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["boards"] == 2 and result["guess_limit"] == 7
    assert result["guesses_used"] == 1 and result["guesses_left"] == 6
    assert not result["solved"] and not result["lost"]
    assert 1 <= len(result["suggestions"]) <= 5
    first = set(result["suggestions"][0])
    assert first == {"rank", "word", "board_guesses", "expected_guesses", "solves"}
    for state, answer in zip(result["board_states"], hidden, strict=True):
        fits = [w for w in small_answers if score("salet", w) == score("salet", answer)]
        assert state["candidates_left"] == len(fits)
        assert sorted(state["candidates"]) == sorted(fits)
        assert state["solved_in"] is None
    for suggestion in result["suggestions"]:
        for board in suggestion["solves"]:
            assert suggestion["word"] in result["board_states"][board - 1]["candidates"]


def test_suggest_boards_text_names_solved_boards(capsys, lists, small_answers):
    first, second = small_answers[1], small_answers[2]
    history = f"{first}:GGGGG/{score(first, second)}"
    assert main(["suggest", "--boards", "2", "--history", history, *lists]) == 0
    out = capsys.readouterr().out
    assert f"board 1: solved in 1 ({first.upper()})" in out
    assert "board 2: " in out and "guess 2 of 7" in out


def test_suggest_boards_bad_history_is_one_line_exit_1(capsys, lists):
    assert main(["suggest", "--boards", "2", "--history", "salet:BBBBB", *lists]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("epdle suggest: error: history entry 1")
    assert "1 feedbacks, expected 2" in err and "\n" not in err


@pytest.mark.parametrize("boards", ["0", "33", "two"])
def test_boards_out_of_range_is_a_usage_error(capsys, boards):
    assert main(["suggest", "--boards", boards]) == 2
    assert "--boards" in capsys.readouterr().err


def test_bench_boards_json(capsys, lists):
    code = main(["bench", "--boards", "2", "--limit", "6", "--seed", "3", "--json", *lists])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert {"games", "mean", "max", "lost", "histogram"} <= set(result)
    assert result["games"] == 6 and result["lost"] == 0
    assert sum(result["histogram"].values()) == 6
    turns = [int(t) for t, n in result["histogram"].items() for _ in range(n)]
    assert result["max"] == max(turns) and result["mean"] == pytest.approx(sum(turns) / 6, 1e-3)


def test_bench_boards_games_file_and_plot(capsys, tmp_path, lists, small_answers):
    games = tmp_path / "games.txt"
    games.write_text(
        f"{small_answers[0]},{small_answers[9]}\n\n{small_answers[4]},{small_answers[7]}\n"
    )
    picture = tmp_path / "hist.png"
    code = main(["bench", "--boards", "2", "--games", str(games), "--plot", str(picture),
                 "--json", *lists])  # fmt: skip
    assert code == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2
    assert picture.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("line", "message"),
    [("aaaaa", "1 words, expected 2"), ("zzzzz,salet", "'zzzzz' is not a candidate word")],
)
def test_bench_games_file_errors_exit_1(capsys, tmp_path, lists, line, message):
    games = tmp_path / "games.txt"
    games.write_text(line + "\n")
    assert main(["bench", "--boards", "2", "--games", str(games), *lists]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["bench", "--boards", "2"], "give --limit G"),
        (["bench", "--boards", "2", "--limit", "3", "--games", "x"], "give --limit G"),
        (["bench", "--boards", "4", "--limit", "3", "--strategy", "entropy"], "one board"),
        (["bench", "--games", "x"], "give --boards N too"),
        (["bench", "--boards", "2", "--limit", "3", "--plot", "x.gif"], ".png or .svg"),
    ],
)
def test_bench_boards_usage_errors_exit_2(capsys, arguments, message):
    assert main(arguments) == 2
    assert message in capsys.readouterr().err


def test_help_has_an_example(capsys):
    assert main(["suggest", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--boards 4 --history" in out and "--boards N" in out


def test_the_documented_example_is_a_history_that_parses():
    import re
    from pathlib import Path

    from epdle.solver.multi import parse_multi_history

    reference = Path(__file__).resolve().parents[2] / "docs" / "reference.md"
    example = re.search(r'epdle suggest --boards 4 --history "([^"]+)"', reference.read_text())
    assert example is not None
    history = parse_multi_history(example.group(1), 4)
    assert [marks[0] for _, marks in history] == ["GGBYB", "GGGGG", None]
