"""A game ends at six guesses: play, daemon, frames and the words that were left."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
from rich.console import Console

from epdle.cli import main
from epdle.render.suggestions import StatusKind, render_status
from epdle.session.daemon import Daemon
from epdle.session.game import GameError
from epdle.session.one_board import Game
from epdle.session.review import Reviewer, review_frame
from epdle.session.screens import frames_for
from epdle.solver import Solver, score
from epdle.solver.scoring import GAME_GUESSES

# ?A??T after SALET: five wrong ?AUNT words leave JAUNT alone.
LOSING = ["salet", "daunt", "gaunt", "haunt", "taunt", "vaunt"]
ANSWER = "jaunt"


def played(words: list[str], answer: str = ANSWER) -> list[tuple[str, str]]:
    return [(word, score(word, answer)) for word in words]


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver("entropy")


def test_the_sixth_wrong_guess_ends_the_game(solver: Solver) -> None:
    game = Game(solver)
    for word, feedback in played(LOSING[:-1]):
        game.play(word, feedback)
        assert not game.over
    game.play(*played(LOSING[-1:])[0])
    assert len(game.history) == GAME_GUESSES
    assert game.lost and game.over and not game.solved
    assert game.advice.candidates == [ANSWER]
    with pytest.raises(GameError, match="over: all 6 guesses are played"):
        game.play("jaunt", "GGGGG")
    assert len(game.history) == GAME_GUESSES  # unchanged
    game.undo()
    assert not game.over
    game.play("jaunt", "GGGGG")
    assert game.solved and not game.lost


def test_a_lost_game_shows_the_words_left_on_the_device(solver: Solver) -> None:
    game = Game(solver, history=played(LOSING))
    frames = frames_for(game)
    assert frames[0] == render_status(StatusKind.LOST, game.history, [ANSWER])
    assert frames[1] == review_frame(game) and len(frames) == 2  # then the game's review
    assert frames[0] != render_status(StatusKind.LOST, game.history, ["daunt"])
    assert frames[0] != render_status(StatusKind.NO_MATCH, game.history)


def test_scripted_play_ends_at_six(tmp_path: Path, monkeypatch, capsys, solver: Solver) -> None:
    script = [f"{word} {feedback}" for word, feedback in played(LOSING)] + ["jaunt ggggg"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(script) + "\n"))
    output = io.StringIO()
    monkeypatch.setattr(
        "rich.console.Console", lambda: Console(file=output, width=200, color_system=None)
    )
    # The game of `solver` (the 2023 list's), whose answer list JAUNT is on.
    argv = ["play", "--strategy", "entropy", "--prior", "uniform", "--panel-dir", str(tmp_path)]
    code = main(argv)
    errors = capsys.readouterr().err.splitlines()
    assert code == 1
    assert errors == [
        "epdle play: error: this game is over: all 6 guesses are played; "
        "type 'new' to start another"
    ]
    text = output.getvalue()
    assert "Not solved in 6: the answer was JAUNT." in text
    assert "Solved" not in text
    review = Reviewer(solver).review(played(LOSING))
    assert f"Review: skill {review.skill}/99, luck {review.luck}/99 (press the button" in text


def test_the_daemon_says_the_game_is_lost(solver: Solver, tmp_path: Path, caplog) -> None:
    from epdle.session.controller import Controller
    from epdle.session.presenter import DevicePresenter

    feed = tmp_path / "feed"
    lines = [f"{word} {feedback}" for word, feedback in played(LOSING)] + ["jaunt ggggg"]
    feed.write_text("\n".join(lines) + "\n")
    controller = Controller(Game(solver), DevicePresenter("sim://"))
    with caplog.at_level(logging.INFO, logger="epdle.daemon"):
        assert Daemon(controller, str(feed), poll_interval=0.01).run() == 0
    messages = [record.getMessage() for record in caplog.records]
    assert "Not solved in 6: the answer was JAUNT." in messages
    assert any("this game is over" in message for message in messages)
    assert len(controller.game.history) == GAME_GUESSES


def test_daemon_errors_do_not_offer_a_help_it_has_not(solver: Solver, tmp_path, caplog) -> None:
    from epdle.session.controller import Controller
    from epdle.session.presenter import DevicePresenter

    feed = tmp_path / "feed"
    feed.write_text("what is this\n")
    controller = Controller(Game(solver), DevicePresenter("sim://"))
    with caplog.at_level(logging.INFO, logger="epdle.daemon"):
        Daemon(controller, str(feed), poll_interval=0.01).run()
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert errors == [
        "what is this: expected '<guess> <colours>' (e.g. 'crane gybbb') or a command, "
        "got 'what is this'"
    ]


def test_play_on_a_missing_device_fails(capsys) -> None:
    assert main(["play", "--port", "/dev/nonexistent"]) == 1
    assert capsys.readouterr().err == (
        "epdle play: error: no serial device at /dev/nonexistent: plug the device in, "
        "or --port sim:// for the simulated board\n"
    )


def test_merge_help_names_the_firmware_make_pic_builds(capsys) -> None:
    assert main(["merge", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "build/pic/epdle.hex, made by make pic" in text
    build = (Path(__file__).resolve().parents[2] / "tools/pic/build.sh").read_text()
    assert "build/pic/epdle.hex" in build
