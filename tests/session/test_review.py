"""`epdle review`: a finished game scored turn by turn against the best move."""

from __future__ import annotations

import io
import json

import pytest

from epdle.cli import main
from epdle.frames import decode
from epdle.render.review import TurnFigures, render_review
from epdle.session.review import (
    CANDIDATES_LISTED,
    Reviewer,
    ReviewError,
    grid_hard,
    grid_history,
)
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec
from epdle.solver import Solver, score
from epdle.solver.scoring import hard_mode_violation
from epdle.solver.universe import Universe

# The games here are reviewed on the original list, named: its figures are the ones checked.
REVIEW = ["review", "--lists", "original"]


@pytest.fixture(scope="module")
def reviewer() -> Reviewer:
    return Reviewer(Solver("best", universe=Universe.shipped(lists="original")))


def own_game(solver: Solver, answer: str) -> list[tuple[str, str]]:
    history: list[tuple[str, str]] = []
    state = solver.initial_state()
    while not history or history[-1][1] != "GGGGG":
        guess = solver.next_guess(state)
        history.append((guess, score(guess, answer)))
        state = solver.apply(state, guess, history[-1][1])
    return history


def test_the_helpers_own_guesses_score_full_skill(reviewer: Reviewer) -> None:
    review = reviewer.review(own_game(reviewer.solver, "slosh"))
    assert review.solved and review.skill == 99
    assert all(turn.skill == 99 and turn.best == turn.guess for turn in review.turns)
    first = review.turns[0]
    assert first.left_before == 2315 and first.expected_played == first.expected_best
    for turn, following in zip(review.turns, review.turns[1:], strict=False):
        assert turn.left_after == following.left_before
        # The estimate left after a guess, against the next turn's one guess deeper.
        assert turn.expected_after == pytest.approx(following.expected_best, abs=0.25)
    assert review.turns[-1].expected_after == 0


def test_a_wasted_guess_costs_skill(reviewer: Reviewer) -> None:
    answer = "slosh"
    history = [(w, score(w, answer)) for w in ("salet", "salet", "slosh")]
    review = reviewer.review(history)
    again = review.turns[1]
    assert again.left_before == again.left_after  # it told nothing new
    assert again.expected_played > again.expected_best and again.skill < 99
    assert review.skill < 99


def test_luck_is_higher_for_the_outcome_that_leaves_less(reviewer: Reviewer) -> None:
    lucky = reviewer.review([("crane", "GGGGG")]).turns[0]
    unlucky = reviewer.review([("crane", "BBBBB")]).turns[0]
    assert lucky.luck == 99 and lucky.expected_after == 0
    assert unlucky.luck < lucky.luck


def test_a_shared_grid_with_its_words() -> None:
    grid = "Wordle 1,234 3/6\n\n🟩⬛🟨⬛⬛\n⬛⬛🟩⬛⬛\n🟩🟩🟩🟩🟩\n"
    assert grid_history(grid, ["salet", "crony", "slosh"]) == [
        ("salet", "GBYBB"),
        ("crony", "BBGBB"),
        ("slosh", "GGGGG"),
    ]
    with pytest.raises(ReviewError, match="3 rows of squares but 2 words"):
        grid_history(grid, ["salet", "crony"])


def test_a_grid_starred_as_hard_is_reviewed_in_hard_mode(capsys) -> None:
    assert grid_hard("Wordle 1,234 4/6*\n") and grid_hard("Wordle 1,234 X/6*")
    assert not grid_hard("Wordle 1,234 4/6\n\n🟩⬛🟨⬛⬛")
    squares = {"G": "🟩", "Y": "🟨", "B": "⬛"}
    words = ["salet", "sloth", "slosh"]
    rows = "\n".join("".join(squares[m] for m in score(word, "slosh")) for word in words)
    history = ",".join(f"{word}:{score(word, 'slosh')}" for word in words)
    assert main([*REVIEW, "--history", history, "--hard", "--json"]) == 0
    hard = capsys.readouterr().out
    assert main([*REVIEW, "--history", history, "--normal", "--json"]) == 0
    assert capsys.readouterr().out != hard  # the mode changes the review
    starred = f"Wordle 1,234 3/6*\n\n{rows}\n"
    assert main([*REVIEW, "--grid", starred, "--words", ",".join(words), "--json"]) == 0
    assert capsys.readouterr().out == hard
    # CRONY drops SALET's green S: hard mode refuses it, as it does the same --history.
    broken = "Wordle 1,234 3/6*\n\n🟩⬛🟨⬛⬛\n⬛⬛🟩⬛⬛\n🟩🟩🟩🟩🟩\n"
    assert main([*REVIEW, "--grid", broken, "--words", "salet,crony,slosh"]) == 1
    assert "hard mode" in capsys.readouterr().err


def test_review_command_json_and_text(capsys) -> None:
    history = "salet:GBYBB,crony:BBGBB,slosh:GGGGG"
    assert main([*REVIEW, "--history", history, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["solved"] is True
    assert [turn["guess"] for turn in report["turns"]] == ["salet", "crony", "slosh"]
    assert report["turns"][0]["left_before"] == 2315
    assert 0 <= report["skill"] <= 99 and 0 <= report["luck"] <= 99
    assert main([*REVIEW, "--history", history]) == 0
    text = capsys.readouterr().out
    skill = f"Skill {report['skill']}/99 ({report['skill_after_opener']} without the opener)"
    assert f"{skill}, luck {report['luck']}/99; solved in 3." in text
    assert "2315 -> 24" in text


def test_a_game_that_left_the_answer_list_is_reviewed_over_every_word_from_there(
    capsys,
) -> None:
    words = ("crane", "pious", "guano")  # GUANO is not one of the original answers
    history = ",".join(f"{word}:{score(word, 'guano')}" for word in words)
    assert main([*REVIEW, "--history", history, "--normal", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    first, last = report["turns"][0], report["turns"][-1]
    # The opener as the game knew it: the answer list; after the colours that left it,
    # every accepted word, weighted by frequency.
    assert first["left_before"] == 2315 and report["widened_at"] in (1, 2)
    widened = report["turns"][report["widened_at"] - 1]
    assert widened["left_after"] == report["turns"][report["widened_at"]]["left_before"]
    assert last["guess"] == "guano" and last["left_before"] == 1 and report["solved"]
    assert main([*REVIEW, "--history", history, "--normal"]) == 0
    text = capsys.readouterr().out
    assert f"The colours of guess {report['widened_at']} left the answer list" in text


def test_review_command_usage(capsys) -> None:
    assert main(["review"]) == 2
    assert "give the game as --history, or as --grid with --words" in capsys.readouterr().err
    assert main([*REVIEW, "--history", "salet:GGGGG,qqqqq:BBBBB"]) == 1
    assert capsys.readouterr().err.count("\n") == 1


def test_review_command_writes_the_devices_frame(tmp_path, capsys) -> None:
    history = "crane:GYYBB,chart:GBYYB,cigar:GGGGG"
    out = tmp_path / "review.frame"
    assert main([*REVIEW, "--history", history, "--json", "--frame", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    turns = [TurnFigures(t["guess"], t["colours"], t["skill"], t["luck"]) for t in report["turns"]]
    expected = render_review(turns, report["skill"], report["luck"])
    assert decode(out.read_bytes()) == (expected.black, expected.red)
    assert main([*REVIEW, "--history", history, "--frame", str(tmp_path / "r.bmp")]) == 2
    assert "unknown output type" in capsys.readouterr().err


def test_skill_is_given_with_and_without_the_opener(reviewer: Reviewer) -> None:
    answer = "slosh"
    # A poor opener, then the helper's own moves from there.
    state = reviewer.solver.apply(reviewer.solver.initial_state(), "fuzzy", score("fuzzy", answer))
    history = [("fuzzy", score("fuzzy", answer))]
    while history[-1][1] != "GGGGG":
        guess = reviewer.solver.next_guess(state)
        history.append((guess, score(guess, answer)))
        state = reviewer.solver.apply(state, guess, history[-1][1])
    review = reviewer.review(history)
    assert review.turns[0].skill < 99 and review.skill < 99
    assert review.skill_after_opener == 99
    assert reviewer.review([("crane", "GGGGG")]).skill_after_opener is None


def test_a_hard_mode_game_is_reviewed_under_its_rule(capsys) -> None:
    history = [(w, score(w, "crank")) for w in ("salet", "brain", "crank")]
    text = ",".join(f"{word}:{colours}" for word, colours in history)
    best_moves = {}
    for mode in ("normal", "hard"):
        argv = [*REVIEW, "--history", text, "--json", f"--{mode}"]
        assert main(argv) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["mode"] == mode
        assert report["prior"] == "uniform (2,315 answers, equally likely)"
        best_moves[mode] = [turn["best"] for turn in report["turns"]]
    # Every best move of the hard review keeps hard mode's rule; the normal review's
    # best second move (after SALET left A yellow) breaks it, so the two differ there.
    for turn, best in enumerate(best_moves["hard"]):
        assert hard_mode_violation(history[:turn], best) is None, (turn, best)
    assert hard_mode_violation(history[:1], best_moves["normal"][1]) is not None
    # A game that broke the rule is refused in hard mode, in one line.
    assert main([*REVIEW, "--hard", "--history", "salet:BYBBB,crony:BBBBB"]) == 1
    assert "hard mode" in capsys.readouterr().err


def test_the_review_names_its_mode_and_prior(capsys) -> None:
    history = "salet:GBYBB,crony:BBGBB,slosh:GGGGG"
    assert main([*REVIEW, "--history", history, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert main([*REVIEW, "--history", history]) == 0
    text = capsys.readouterr().out
    assert f"({report['skill_after_opener']} without the opener)" in text
    assert "Reviewed in normal mode; prior: uniform (2,315 answers, equally likely)." in text
    assert report["prior_name"] == "uniform"
    for option in ("--blind", "--prior=frequency"):
        assert main([*REVIEW, option, "--history", history, "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["prior_name"] == "frequency"
        assert report["prior"] == "frequency (14,855 words, weighted by word frequency)"
    assert main([*REVIEW, "--prior", "frequency", "--history", history]) == 0
    text = " ".join(capsys.readouterr().out.split())  # the console may wrap the line
    assert "Reviewed in normal, blind mode; prior: frequency (14,855 words," in text


def played_as_advised(setup: GameSetup, answer: str) -> str:
    """A game played with the first suggestion each turn, as `suggest` gives it."""
    game = setup.new_game()
    while not game.over:
        guess = game.advice.suggestions[0].word
        game.play(guess, score(guess, answer))
    return ",".join(f"{word}:{colours}" for word, colours in game.history)


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_the_helpers_own_advice_is_never_faulted(capsys, hard: bool) -> None:
    # KEFIR and LORIS are on no answer list: the game widens, and so does the review,
    # from the guess whose colours left the list on (not from the first guess). A hard
    # game is read as one from its moves, as `review --history` gets it.
    setup = GameSetup(GameSpec(hard=hard))
    widened = []
    for answer in ("kefir", "loris", "slosh", "crimp"):
        history = played_as_advised(setup, answer)
        # The game `setup` plays: the 2023 list's.
        assert main(["review", "--history", history, "--json", "--prior", "uniform"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["mode"] == ("hard" if hard else "normal")
        assert report["hard_from_moves"] is hard
        skills = [(turn["guess"], turn["best"], turn["skill"]) for turn in report["turns"]]
        assert all(skill >= 95 for _, _, skill in skills), (answer, skills)
        assert [guess for guess, _, _ in skills] == [best for _, best, _ in skills]
        widened.append(report["widened_at"])
    assert widened[0] is not None and widened[1] is not None and widened[2:] == [None, None]


def test_each_turn_lists_its_candidates(reviewer: Reviewer, capsys) -> None:
    review = reviewer.review(own_game(reviewer.solver, "slosh"))
    for turn in review.turns:
        assert len(turn.candidates) == min(turn.left_before, CANDIDATES_LISTED)
        assert "slosh" in turn.candidates or turn.left_before > CANDIDATES_LISTED
    assert review.turns[-1].candidates[: review.turns[-1].left_before].count("slosh") == 1
    assert main([*REVIEW, "--history", "salet:GBYBB,crony:BBGBB,slosh:GGGGG"]) == 0
    text = capsys.readouterr().out
    assert "Candidates before each guess, likeliest first:" in text
    assert " 3  SLOOP SLOSH SPOIL SPOOL\n" in text


def test_the_table_keeps_one_heading_line_and_whole_cells(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "70")
    assert main([*REVIEW, "--history", "salet:GBYBB,crony:BBGBB,slosh:GGGGG"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["#", "guess", "colours", "left"]
    assert lines[1].split()[:2] == ["1", "SALET"] and "2315 -> 24" in lines[1]
    assert lines[2].split()[:2] == ["2", "CRONY"] and len(lines[0]) <= 70


def test_a_grid_from_a_file_or_stdin(tmp_path, capsys, monkeypatch) -> None:
    grid = "Wordle 1,234 3/6\n\n🟩⬛🟨⬛⬛\n⬛⬛🟩⬛⬛\n🟩🟩🟩🟩🟩\n"
    path = tmp_path / "grid.txt"
    path.write_text(grid, encoding="utf-8")
    words = ["--words", "salet,crony,slosh", "--json"]
    assert main([*REVIEW, "--history", "salet:GBYBB,crony:BBGBB,slosh:GGGGG", "--json"]) == 0
    expected = capsys.readouterr().out
    assert main([*REVIEW, "--grid", str(path), *words]) == 0
    assert capsys.readouterr().out == expected
    monkeypatch.setattr("sys.stdin", io.StringIO(grid))
    assert main([*REVIEW, "--grid", "-", *words]) == 0
    assert capsys.readouterr().out == expected
    assert main([*REVIEW, "--grid", str(tmp_path / "none.txt"), *words]) == 1
    assert capsys.readouterr().err.strip().endswith("none.txt does not exist")


def test_the_review_shows_the_figures_suggest_shows(capsys) -> None:
    """The best move's expected guesses are the ones `suggest` gives it (the opener's is
    the tree's own 3.55, not an estimate of its own), in hard mode hard mode's; skill
    reads only the difference to the guess played."""
    for hard, mode in (([], ["--normal"]), (["--hard"], ["--hard"])):
        assert main(["suggest", "--json", *hard]) == 0
        opener = json.loads(capsys.readouterr().out)["suggestions"][0]
        history = f"{opener['word']}:BBBBB,colin:BYBBB,gumbo:GGGGG"
        assert main(["review", "--history", history, "--json", *mode]) == 0
        first = json.loads(capsys.readouterr().out)["turns"][0]
        assert first["best"] == opener["word"]
        assert first["expected_best"] == round(opener["guesses"], 2)
        assert first["expected_played"] == first["expected_best"]
