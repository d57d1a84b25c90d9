"""The controller's calls for front ends that do not type lines, and the presenter's
`on_shown` hook (both used by `epdle web`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from epdle.frames import decode
from epdle.session.commands import Control, GuessLine, InputError, parse_line, parse_played
from epdle.session.controller import Controller
from epdle.session.one_board import Game
from epdle.session.presenter import DevicePresenter
from epdle.solver import Solver


@pytest.fixture
def controller() -> Iterator[Controller]:
    controller = Controller(Game(Solver("entropy"), top=3), DevicePresenter("sim://"))
    yield controller
    controller.presenter.close()


def test_parse_played_takes_word_and_colours_apart() -> None:
    assert parse_played("CRANE", "🟩🟨⬛⬜⬛") == GuessLine("crane", "GYBBB")
    assert parse_line("crane 21000") == parse_played("crane", "21000")
    # A control word is just a word here ('show' is a 4-letter word, not a command).
    assert parse_played("show", "bbbb") == GuessLine("show", "BBBB")
    with pytest.raises(InputError, match="letters only"):
        parse_played("cr4ne", "bbbbb")


def test_play_and_command_and_the_frames_the_device_reports_shown(
    controller: Controller,
) -> None:
    shown: list[int] = []
    controller.presenter.on_shown = shown.append
    controller.start()
    assert shown == [0]
    outcome = controller.play("salet", "bbygb")
    assert outcome.error is None and outcome.changed
    assert controller.game.history == [("salet", "BBYGB")]
    assert shown == [0, 0]
    assert controller.command(Control.PRESS).error is None
    assert shown == [0, 0, 1]
    board = controller.presenter.simulated_board()
    assert board is not None
    assert board.panel_planes() == decode(controller.presenter.frame(1))
    assert controller.command(Control.SHOW, 3).error is None
    assert shown[-1] == 2
    assert controller.command(Control.UNDO).changed
    assert controller.game.history == []
    assert controller.play("salet", "bbb").error == "'salet' has 5 letters but 3 colours were given"
    assert controller.command(Control.UNDO).error == "nothing to undo"


def test_deferred_pushes_wait_for_catch_up(controller: Controller) -> None:
    shown: list[int] = []
    controller.presenter.on_shown = shown.append
    controller.defer_pushes = True
    assert controller.start().notes == []
    assert controller.behind and shown == [] and controller.presenter.frame_count == 0
    assert controller.play("salet", "bbygb").changed
    assert controller.command(Control.UNDO).changed
    outcome = controller.catch_up()  # one push, of the advice as it is now
    assert outcome.notes[0].startswith("device: 3 frame(s)")
    assert shown == [0] and not controller.behind
    board = controller.presenter.simulated_board()
    assert board is not None
    assert board.panel_planes() == decode(controller.presenter.frame(0))
    assert controller.catch_up().notes == []  # nothing left to push
    assert shown == [0]
