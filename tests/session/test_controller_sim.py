"""The controller against the in-process simulated board (sim://)."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator

import pytest
from rich.console import Console

from epdle.frames import decode, encode
from epdle.render.review import TurnFigures, render_review
from epdle.session.controller import Controller
from epdle.session.one_board import Game
from epdle.session.play import read_while_watching
from epdle.session.presenter import DevicePresenter
from epdle.session.review import Reviewer
from epdle.session.screens import frames_for
from epdle.solver import Solver


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(strategy="entropy")


@pytest.fixture
def controller(solver: Solver) -> Iterator[Controller]:
    controller = Controller(Game(solver, top=3), DevicePresenter("sim://"))
    yield controller
    controller.presenter.close()


def _board(controller: Controller):
    device = controller.presenter.device
    assert device is not None
    return device.serial.board


def _expected_panel(controller: Controller) -> tuple[bytes, bytes]:
    first = frames_for(controller.game)[0]
    return decode(encode(first.black, first.red))


def _assert_shows_first_frame_and_sleeps(controller: Controller) -> None:
    board = _board(controller)
    assert board.run_until(lambda b: b.asleep, max_ms=5_000)
    assert board.panel_planes() == _expected_panel(controller)
    assert not board.panel_powered
    assert board.violations() == []


def test_each_step_puts_the_first_suggestion_on_the_panel(controller: Controller) -> None:
    start = controller.start()
    assert start.error is None
    _assert_shows_first_frame_and_sleeps(controller)
    for line in ("salet bybbb", "crony 21000"):
        outcome = controller.handle(line)
        assert outcome.error is None, outcome.error
        assert outcome.changed
        _assert_shows_first_frame_and_sleeps(controller)
    assert [g for g, _ in controller.game.history] == ["salet", "crony"]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("zzzzz bbbbb", "not in the accepted word list"),
        ("cran bbbb", "letters"),
        ("crane gyxbb", "colours"),
        ("crane", "expected"),
    ],
)
def test_bad_input_is_explained_and_changes_nothing(
    controller: Controller, line: str, reason: str
) -> None:
    controller.start()
    refreshes = _board(controller).refresh_count
    outcome = controller.handle(line)
    assert outcome.error is not None and reason in outcome.error
    assert "\n" not in outcome.error
    assert not outcome.changed
    assert controller.game.history == []
    assert _board(controller).refresh_count == refreshes


def test_contradiction_with_earlier_feedback_is_refused(controller: Controller) -> None:
    controller.start()
    assert controller.handle("salet gbbbb").error is None
    outcome = controller.handle("spore bbbbb")  # S was green in place 1
    assert outcome.error is not None and "fits it and the feedback before" in outcome.error
    assert len(controller.game.history) == 1


def test_undo_and_new_republish(controller: Controller) -> None:
    controller.start()
    controller.handle("salet bybbb")
    assert controller.handle("undo").changed
    assert controller.game.history == []
    _assert_shows_first_frame_and_sleeps(controller)
    assert controller.handle("undo").error == "nothing to undo"
    controller.handle("salet bybbb")
    assert controller.handle("new").changed
    assert controller.game.history == []


def test_press_cycles_to_the_next_frame(controller: Controller) -> None:
    controller.start()
    board = _board(controller)
    board.run_until(lambda b: b.asleep, max_ms=5_000)
    outcome = controller.handle("press")
    assert outcome.error is None
    assert outcome.notes == ["button pressed", "frame 2 shown"]
    second = frames_for(controller.game)[1]
    assert board.run_until(
        lambda b: b.asleep and b.panel_planes() == decode(encode(second.black, second.red)),
        max_ms=40_000,
    )


def test_solved_game_shows_the_solved_card_then_its_review(controller: Controller) -> None:
    controller.start()
    outcome = controller.handle("crane ggggg")
    assert outcome.error is None
    assert controller.game.solved
    frames = frames_for(controller.game)
    review = Reviewer(controller.game.solver).review([("crane", "GGGGG")])
    turns = [TurnFigures(t.guess, t.colours, t.skill, t.luck) for t in review.turns]
    assert frames[1:] == [render_review(turns, review.skill, review.luck)]
    _assert_shows_first_frame_and_sleeps(controller)
    # The button brings the review up on the panel.
    assert controller.handle("press").notes == ["button pressed", "frame 2 shown"]
    shown = decode(encode(frames[1].black, frames[1].red))
    board = _board(controller)
    assert board.run_until(lambda b: b.asleep and b.panel_planes() == shown, max_ms=40_000)
    assert controller.handle("salet bbbbb").error is not None


def test_show_puts_suggestion_n_on_the_panel(controller: Controller) -> None:
    controller.start()
    outcome = controller.handle("show 3")
    assert outcome.error is None
    third = frames_for(controller.game)[2]
    board = _board(controller)
    assert board.panel_planes() == decode(encode(third.black, third.red))
    assert controller.handle("show 4").error == "the device holds suggestions 1 to 3"
    assert controller.handle("show 0").error == "the device holds suggestions 1 to 3"


def test_a_device_speaking_another_protocol_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from epdle.link import LinkError, protocol

    device_speaks = protocol.PROTOCOL_VERSION
    monkeypatch.setattr(protocol, "PROTOCOL_VERSION", device_speaks + 1)
    presenter = DevicePresenter("sim://")
    speaks = f"speaks protocol {device_speaks}, this epdle speaks {device_speaks + 1}"
    with pytest.raises(LinkError, match=speaks):
        presenter.connect()
    assert not presenter.connected


def test_presses_show_while_the_prompt_waits(controller: Controller) -> None:
    controller.start()
    board = _board(controller)
    assert board.run_until(lambda b: b.asleep, max_ms=5_000)
    output = io.StringIO()
    console = Console(file=output, width=120, color_system=None)
    board.press_button()  # a press on the device while the user thinks

    def slow_typist() -> str:
        deadline = time.monotonic() + 10
        while "button pressed" not in output.getvalue() and time.monotonic() < deadline:
            time.sleep(0.05)
        return "crane bbbbb"

    assert read_while_watching(console, controller, slow_typist) == "crane bbbbb"
    assert "device: button pressed" in output.getvalue()
