"""`epdle demo`: a whole game played automatically against the simulated board.

The solver picks, the scorer answers, the device gets every step's frames
and its button is pressed to cycle through them; the panel after every
refresh, the pin trace and the controller log land in the output folder.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from epdle.link import LinkError
from epdle.render.multi import render_multi
from epdle.render.planes import Planes
from epdle.session.boards import MultiGame
from epdle.session.one_board import Game
from epdle.session.presenter import DevicePresenter
from epdle.session.screens import frames_for, panel_mode
from epdle.solver import score
from epdle.solver.multi.history import SOLVED_MARK


@dataclass
class DemoStep:
    guess: str
    feedback: str
    candidates_before: int
    frames: int


@dataclass
class DemoResult:
    answer: str
    steps: list[DemoStep] = field(default_factory=list)
    solved: bool = False
    frames_pushed: int = 0
    payload_bytes: int = 0
    bytes_sent: int = 0
    simulated_ms: float = 0.0
    refreshes: int = 0
    energy_per_refresh_mJ: float = 0.0
    standby_uA: float = 0.0
    violations: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        return {
            "answer": self.answer,
            "guesses": [step.guess for step in self.steps],
            "feedback": [step.feedback for step in self.steps],
            "candidates_before": [step.candidates_before for step in self.steps],
            "solved": self.solved,
            "frames_pushed": self.frames_pushed,
            "payload_bytes": self.payload_bytes,
            "bytes_sent": self.bytes_sent,
            "simulated_ms": round(self.simulated_ms, 3),
            "refreshes": self.refreshes,
            "energy_per_refresh_mJ": self.energy_per_refresh_mJ,
            "standby_uA": self.standby_uA,
            "violations": self.violations,
        }


def sim_url(out_dir: Path) -> str:
    query = urlencode(
        {
            "png_dir": str(out_dir),
            "vcd": str(out_dir / "trace.vcd"),
            "epd_log": str(out_dir / "epd.jsonl"),
        }
    )
    return f"sim://?{query}"


def _cycle_frames(presenter: DevicePresenter, count: int) -> None:
    """Press the simulated button once per remaining frame, each time until it is shown."""
    for _ in range(count - 1):
        presenter.press_and_wait()


# Makes what shows the demo's frames on the simulated board at a sim:// URL (a
# GameSetup's `presenter`: full refreshes only if its spec says so).
PresenterFactory = Callable[[str], DevicePresenter]


def play_demo(
    game: Game,
    answer: str,
    out_dir: Path,
    cycle: bool = True,
    presenter: PresenterFactory = DevicePresenter,
) -> DemoResult:
    def step(frames: int) -> DemoStep:
        advice = game.advice
        guess = advice.suggestions[0].word
        feedback = score(guess, answer)
        game.play(guess, feedback)
        return DemoStep(guess, feedback, advice.candidates_left, frames)

    return _run_demo(game, answer, lambda: frames_for(game), step, out_dir, cycle, presenter)


def play_multi_demo(
    game: MultiGame,
    answers: Sequence[str],
    out_dir: Path,
    cycle: bool = True,
    presenter: PresenterFactory = DevicePresenter,
) -> DemoResult:
    """A game of several boards, one answer a board; a step's feedback is each board's
    colours separated by / ('-' for a board already solved)."""

    def frames() -> list[Planes]:
        return render_multi(game.advice, game.top, panel_mode(game))

    def step(frames: int) -> DemoStep:
        advice = game.advice
        guess = advice.suggestions[0].word
        open_boards = game.open_boards()
        feedbacks = [
            score(guess, answer) if is_open else None
            for answer, is_open in zip(answers, open_boards, strict=True)
        ]
        left = sum(board.candidates_left for board in advice.boards if board.solved_in is None)
        game.play(guess, feedbacks)
        shown = "/".join(feedback or SOLVED_MARK for feedback in feedbacks)
        return DemoStep(guess, shown, left, frames)

    return _run_demo(game, ",".join(answers), frames, step, out_dir, cycle, presenter)


def _run_demo(
    game: Game | MultiGame,
    answer: str,
    frames: Callable[[], list[Planes]],
    step: Callable[[int], DemoStep],
    out_dir: Path,
    cycle: bool,
    make_presenter: PresenterFactory,
) -> DemoResult:
    """Push the game's frames, cycle them, play the solver's guess (``step``, told how
    many frames were pushed), until the game is over; then the simulated board's figures."""
    out_dir.mkdir(parents=True, exist_ok=True)
    presenter = make_presenter(sim_url(out_dir))
    result = DemoResult(answer=answer)
    try:
        while True:
            published = presenter.publish(frames())
            result.frames_pushed += published.frames
            result.payload_bytes += published.payload_bytes
            result.bytes_sent += published.bytes_on_wire
            if game.over:
                break
            if cycle:
                _cycle_frames(presenter, published.frames)
            result.steps.append(step(published.frames))
        result.solved = game.solved
        board = presenter.simulated_board()
        if board is None:
            raise LinkError(f"{presenter.port} is not the simulated board (sim://)")
        board.run_until(lambda b: b.asleep, max_ms=5_000)
        power = board.power_report()
        result.simulated_ms = board.time_ms
        result.refreshes = board.refresh_count
        result.energy_per_refresh_mJ = power["energy_per_update_mJ"] or 0.0
        result.standby_uA = power["standby_uA"] or 0.0
        result.violations = board.violations()
    finally:
        presenter.close()
    (out_dir / "summary.json").write_text(json.dumps(result.summary(), indent=2) + "\n")
    return result
