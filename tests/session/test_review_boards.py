"""`epdle review --boards N`: several boards' game (Dordle, Quordle, ...) scored turn by
turn against the several-board helper's moves."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from epdle.cli import main
from epdle.solver import score


def history_text(history: list[tuple[str, list[str | None]]]) -> str:
    return ",".join(f"{word}:" + "/".join(f or "-" for f in marks) for word, marks in history)


def played_as_suggested(
    answers: list[str], capsys: pytest.CaptureFixture[str], *options: str
) -> str:
    """The game `suggest --boards N` (with `options`) plays to the end on `answers`, as
    its history."""
    boards = str(len(answers))
    history: list[tuple[str, list[str | None]]] = []
    open_boards = [True] * len(answers)
    while any(open_boards):
        argv = ["suggest", "--boards", boards, "--top", "1", "--json", *options]
        assert main([*argv, "--history", history_text(history)] if history else argv) == 0
        word = json.loads(capsys.readouterr().out)["suggestions"][0]["word"]
        history.append(
            (
                word,
                [score(word, a) if o else None for a, o in zip(answers, open_boards, strict=False)],
            )
        )
        open_boards = [o and word != a for a, o in zip(answers, open_boards, strict=False)]
    return history_text(history)


@pytest.mark.parametrize(
    "answers", [["cider", "blunt", "gamer", "shove"], ["ample", "knoll", "wryly", "proxy"]]
)
def test_a_quordle_played_as_suggest_advises_scores_95_or_more(answers, capsys) -> None:
    history = played_as_suggested(answers, capsys)
    assert main(["review", "--boards", "4", "--history", history, "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert review["boards"] == 4 and review["solved"]
    turns = review["turns"]
    assert [t["guess"] for t in turns] == [entry.split(":")[0] for entry in history.split(",")]
    assert all(t["best"] == t["guess"] and t["skill"] >= 95 for t in turns)
    assert review["skill"] >= 95
    # Each turn lists every board open before it, with its colours and candidates.
    first = turns[0]["boards"]
    assert [b["board"] for b in first] == [1, 2, 3, 4]
    assert all(b["left_before"] == 3158 and len(b["candidates"]) == 10 for b in first)
    for turn, following in itertools.pairwise(turns):
        after = {b["board"]: b["left_after"] for b in turn["boards"] if b["colours"] != "GGGGG"}
        assert after == {b["board"]: b["left_before"] for b in following["boards"]}
    for turn in turns:
        for board in turn["boards"]:
            assert board["candidates_after"][: board["left_after"]] == board["candidates_after"]
            assert 0 <= turn["luck"] <= 99


def test_a_hard_mode_game_is_read_from_its_moves(capsys) -> None:
    history = played_as_suggested(["cider", "blunt"], capsys, "--hard")
    assert main(["review", "--boards", "2", "--history", history, "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert review["mode"] == "hard" and review["hard_from_moves"]
    assert all(t["best"] == t["guess"] and t["skill"] >= 95 for t in review["turns"])
    assert main(["review", "--boards", "2", "--history", history, "--normal", "--json"]) == 0
    normal = json.loads(capsys.readouterr().out)
    assert normal["mode"] == "normal" and not normal["hard_from_moves"]


def test_an_answer_off_the_list_is_reviewed_over_every_word_from_there(capsys) -> None:
    # WENCH: an original answer the 2023 list dropped; suggest goes on over every word.
    history = played_as_suggested(["wench", "cigar"], capsys)
    assert "wench:GGGGG" in history
    assert main(["review", "--boards", "2", "--history", history, "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert review["solved"] and review["widened_at"] is not None
    assert all(t["best"] == t["guess"] and t["skill"] >= 95 for t in review["turns"])


def test_the_text_says_what_the_json_does(capsys) -> None:
    history = "tarse:BBYBB/BBBGB,hoing:BYBGB/YYBBB,slosh:BBGBB/GGGGG,crony:GGGGG/-"
    assert main(["review", "--boards", "2", "--history", history, "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert main(["review", "--boards", "2", "--history", history]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0].split() == [
        "#",
        "guess",
        "best",
        "with",
        "best",
        "with",
        "guess",
        "skill",
        "luck",
    ]
    rows = [line.split() for line in lines if line[:1].isdigit()]
    for row, turn in zip(rows, review["turns"], strict=True):
        assert row[1:3] == [turn["guess"].upper(), turn["best"].upper()]
        assert row[3:] == [f"{turn['expected_best']:.2f}", f"{turn['expected_played']:.2f}",
                           str(turn["skill"]), str(turn["luck"])]  # fmt: skip
    for turn in review["turns"]:
        for board in turn["boards"]:
            left = f"{board['left_before']} -> {board['left_after']} left"
            assert f"board {board['board']} {board['colours']}: {left}" in text
    assert f"Skill {review['skill']}/99" in text and "solved in 4" in text
    # Where few are left, their words: board 2's SLOSH after HOING.
    assert "board 2 YYBBB: " in text and "SLOSH" in text.split("board 2 YYBBB: ")[1].splitlines()[0]


def test_a_guess_that_is_not_the_helpers_costs_skill(capsys) -> None:
    history = "crane:BBBBB/BBBBB,crane:BBBBB/BBBBB"
    assert main(["review", "--boards", "2", "--history", history, "--json"]) == 0
    second = json.loads(capsys.readouterr().out)["turns"][1]
    assert second["best"] != "crane" and second["skill"] < 50
    assert second["expected_played"] > second["expected_best"]


@pytest.mark.parametrize(
    ("history", "message"),
    [
        ("tarse:BBYBY/YBBBB/BGYBY", "3 feedbacks, expected 4"),
        ("zzzzz:BBBBB/BBBBB/BBBBB/BBBBB", "not in the accepted word list"),
        ("tarse:GGGGG/BBBBB/BBBBB/BBBBB,poind:GGGGG/BBBBB/BBBBB/BBBBB", "give - for it"),
        ("tarse:BBYBY/YBBBB/BGYBY/BBBYG,poind:GGGGG/GGGGG/GGGGG/GGGGG", "no accepted word fits"),
    ],
)
def test_a_bad_history_is_a_one_line_error(history, message, capsys) -> None:
    assert main(["review", "--boards", "4", "--history", history]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_review_boards_usage(capsys) -> None:
    assert main(["review", "--boards", "4"]) == 2
    assert main(["review", "--boards", "4", "--grid", "x", "--words", "crane"]) == 2
    err = capsys.readouterr().err
    assert "--grid reviews one board's game" in err
    assert all(line.startswith("epdle review: error:") for line in err.splitlines())


def test_the_review_frame_of_several_boards_is_written(tmp_path, capsys) -> None:
    from PIL import Image

    history = "tarse:BBYBB/BBBGB,hoing:BYBGB/YYBBB,slosh:BBGBB/GGGGG,crony:GGGGG/-"
    out = tmp_path / "review.png"
    assert main(["review", "--boards", "2", "--history", history, "--frame", str(out)]) == 0
    with Image.open(out) as frame:
        assert frame.size == (212, 104)
        colours = {tuple(c) for c in np.asarray(frame.convert("RGB")).reshape(-1, 3)}
        assert len(colours) == 3  # black, red (the solving guesses), white
