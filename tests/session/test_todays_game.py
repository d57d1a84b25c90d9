"""Today's game: a shipped list (here the original one) while the feedback fits it, then
every accepted word by frequency, said in one line, without a restart; hard mode and
blind play switched during a game."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from epdle import words
from epdle.cli import main
from epdle.session.controller import CHECK_COLOURS, Controller
from epdle.session.game import GameError, widened_note
from epdle.session.one_board import Game
from epdle.session.presenter import DevicePresenter
from epdle.session.review import game_review, review_planes
from epdle.session.screens import frames_for
from epdle.solver import Solver, score
from epdle.solver.scoring import GAME_GUESSES
from epdle.solver.universe import Universe

# Answers the NYT has set that the original list lacks (27 March and 9 June 2023).
NYT_ADDED = ["guano", "balsa"]
# The games here start from the original list (GUANO and BALSA are on the 2023 one).
WIDENED_NOTE = widened_note("original")


@pytest.fixture(scope="module")
def solvers():
    made: dict[tuple[bool, bool], Solver] = {}

    def solver_for(hard: bool, blind: bool) -> Solver:
        if (hard, blind) not in made:
            universe = Universe.shipped(blind=blind, lists="original")
            made[hard, blind] = Solver("best", hard, universe=universe)
        return made[hard, blind]

    return solver_for


def default_game(solvers) -> Game:
    return Game(solvers(False, False), top=1, solvers=solvers, lists="original")


def play_out(game: Game, answer: str) -> Game:
    """The helper's first suggestion played every turn until the game is over."""
    while not game.over:
        guess = game.advice.suggestions[0].word
        game.play(guess, score(guess, answer))
    return game


def dictionary_words_outside_the_list() -> list[str]:
    """Everyday words the original answer list lacks (in the English dictionary list,
    Zipf 3 or more, not a plural or past tense): the kind the NYT adds. Every 8th."""
    original = set(words.answers("original"))
    table, dictionary = words.frequency_table(), words.language_table("en")
    chosen = [
        word
        for word in words.guesses()
        if word not in original
        and word in dictionary
        and table[word].zipf >= 3.0
        and not (table[word].plural or table[word].past_tense)
    ]
    return chosen[::8]


@pytest.mark.parametrize("answer", NYT_ADDED + dictionary_words_outside_the_list())
def test_default_settings_solve_answers_outside_the_original_list(solvers, answer) -> None:
    assert answer not in words.answers("original")
    game = play_out(default_game(solvers), answer)
    assert game.solved and len(game.history) <= GAME_GUESSES, game.history
    assert game.widened


def test_on_the_original_list_the_default_plays_as_the_original_solver(solvers) -> None:
    game = play_out(default_game(solvers), "slosh")
    alone = Game(solvers(False, False), top=1)
    play_out(alone, "slosh")
    assert game.history == alone.history and not game.widened


def test_without_other_solvers_the_game_still_stops_at_the_list(solvers) -> None:
    game = Game(solvers(False, False))
    with pytest.raises(GameError, match="no word of the answer list"):
        for guess in ("salet", "courd", "pinky"):
            game.play(guess, score(guess, "guano"))


def test_feedback_no_word_fits_is_still_an_error(solvers) -> None:
    game = default_game(solvers)
    with pytest.raises(GameError, match="no accepted word gets this feedback"):
        game.play("xylyl", "GGGGY")
    assert game.history == [] and not game.widened


def test_widening_is_said_once_and_undo_goes_back(solvers) -> None:
    controller = Controller(default_game(solvers), DevicePresenter("sim://"))
    try:
        notes = []
        for guess in ("salet", "courd", "pinky", "gnome"):
            outcome = controller.handle(f"{guess} {score(guess, 'guano')}")
            assert outcome.error is None, outcome.error
            notes += [note for note in outcome.notes if note == WIDENED_NOTE]
        assert notes == [WIDENED_NOTE] and controller.game.widened
        while controller.game.widened:
            controller.handle("undo")
        assert len(controller.game.history) >= 1
    finally:
        controller.presenter.close()


def test_hard_and_blind_switch_during_a_game(solvers) -> None:
    controller = Controller(default_game(solvers), DevicePresenter("sim://"))
    try:
        controller.handle("salet bbbgb")
        outcome = controller.handle("hard")
        assert outcome.error is None and outcome.notes[0] == "hard mode on"
        assert controller.game.solver.hard
        refused = controller.handle("crony bbbbb")
        assert refused.error == "guess 2 'crony': hard mode: letter 4 must be E (green in SALET)"
        assert controller.handle("blind on").notes[0] == "blind mode on"
        assert controller.game.solver.blind and controller.game.solver.hard
        assert controller.game.advice.candidates_left > 0
        assert controller.handle("hard off").notes[0] == "hard mode off"
        controller.handle("crony bbbbb")
        assert controller.handle("hard on").error == (
            "cannot switch: guess 2 'crony': hard mode: letter 4 must be E (green in SALET)"
        )
        assert not controller.game.solver.hard and len(controller.game.history) == 2
        assert controller.handle("hard maybe").error == (
            "hard takes on or off, e.g. 'hard off' ('hard' turns it on, 'normal' off)"
        )
    finally:
        controller.presenter.close()


def test_hard_turns_hard_mode_on_normal_turns_it_off_and_new_says_the_mode(solvers) -> None:
    controller = Controller(default_game(solvers), DevicePresenter("sim://"))
    try:
        for _ in range(2):  # `hard` twice: still on (it switched back and forth)
            assert controller.handle("hard").notes[0] == "hard mode on"
            assert controller.game.solver.hard
        assert controller.handle("new").notes[0] == (
            "new game in hard mode ('normal' or 'hard off' for normal mode)"
        )
        assert controller.game.solver.hard and controller.game.history == []
        assert controller.handle("normal").notes[0] == "hard mode off"
        assert not controller.game.solver.hard
        assert controller.handle("n").notes[0] == "new game in normal mode"
        assert controller.handle("blind").notes[0] == "blind mode on"
        assert controller.handle("blind").notes[0] == "blind mode on"
    finally:
        controller.presenter.close()


def test_play_goes_on_past_the_list_in_one_line(tmp_path: Path, monkeypatch, capsys) -> None:
    lines = [f"{guess} {score(guess, 'guano')}" for guess in ("salet", "courd", "pinky")]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    output = io.StringIO()
    monkeypatch.setattr(
        "rich.console.Console", lambda: Console(file=output, width=200, color_system=None)
    )
    assert main(["play", "--panel-dir", str(tmp_path), "--lists", "original"]) == 0
    assert capsys.readouterr().err == ""
    text = output.getvalue()
    assert text.count(WIDENED_NOTE) == 1
    # Said before the advice it explains, with the hint for a colour typed wrong.
    ahead = f"{WIDENED_NOTE}\n{CHECK_COLOURS}\nSALET BYBBB\nCOURD BYYBB\n\n3 candidates left"
    assert f"{ahead} of every accepted word (not in the original list)\n" in text
    assert "1 candidate left of every accepted word (not in the original list)\n" in text
    assert "\nranked by best: fewest guesses to win (decision tree)\n" in text
    assert [line for line in text.splitlines() if line.endswith(" ")] == []


def test_suggest_goes_on_past_the_list_too(capsys) -> None:
    import json

    history = ",".join(f"{g}:{score(g, 'guano')}" for g in ("crane", "stout"))
    assert main(["suggest", "--history", history, "--json", "--lists", "original"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["candidates"] == ["guano"] and report["blind"] is True
    assert captured.err == f"epdle suggest: note: {WIDENED_NOTE}\n"
    assert main(["suggest", "--history", "crane:BBGGB,zzzzz:BBBBB"]) == 1
    assert "not in the accepted word list" in capsys.readouterr().err


def test_suggest_boards_goes_on_past_the_list_too(capsys) -> None:
    import json

    history = ",".join(f"{g}:{score(g, 'guano')}/{score(g, 'cigar')}" for g in ("crane", "stout"))
    assert (
        main(["suggest", "--boards", "2", "--history", history, "--json", "--lists", "original"])
        == 0
    )
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["blind"] is True
    assert report["board_states"][0]["candidates"] == ["guano"]
    assert "cigar" in report["board_states"][1]["candidates"]
    assert captured.err == f"epdle suggest: note: {WIDENED_NOTE}\n"
    # A history no accepted word fits stays an error.
    assert (
        main(["suggest", "--boards", "2", "--history", "crane:BBGGB/BBBBB,zzzzz:BBBBB/BBBBB"]) == 1
    )
    assert "not in the accepted word list" in capsys.readouterr().err


def test_a_game_past_the_list_ends_with_its_review_on_the_device(solvers) -> None:
    game = play_out(default_game(solvers), "guano")
    assert game.solved and game.widened
    frames = frames_for(game)
    review = game_review(tuple(game.history), game.solver, game.solvers)
    assert frames[-1] == review_planes(review) and len(frames) == 2
    # Reviewed over the list, then over every accepted word, as the game went on.
    assert review.solved and [turn.guess for turn in review.turns] == [w for w, _ in game.history]
    assert review.turns[0].left_before == len(game.solver.universe.answers)
    assert review.widened_at is not None and review.widened_at < len(review.turns)
    after = review.turns[review.widened_at]
    assert after.left_before == review.turns[review.widened_at - 1].left_after
    assert all(turn.skill == 99 for turn in review.turns)  # the helper's own moves


def test_the_note_names_the_list_the_game_started_from(capsys) -> None:
    # WENCH: an original answer the 2023 list dropped; off that list the game goes on.
    history = ",".join(f"{g}:{score(g, 'wench')}" for g in ("crane", "bench"))
    assert main(["suggest", "--history", history, "--lists", "nyt2023", "--json"]) == 0
    note = capsys.readouterr().err
    assert note == f"epdle suggest: note: {widened_note('nyt2023')}\n"
    assert note.startswith("epdle suggest: note: no answer of the 2023 list fits: ")
    assert main(["suggest", "--history", history, "--lists", "original", "--json"]) == 0
    assert capsys.readouterr().err == ""  # WENCH is on the original list
