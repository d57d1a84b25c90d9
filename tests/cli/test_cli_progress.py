"""A solver's set-up on a terminal shows its progress bar at once, its time running,
before the work reports a first step (a list of one's own takes seconds to set up)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from epdle.cli import main
from epdle.session.spec import GameSpec


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_set_up_of_a_list_of_ones_own_shows_progress_before_its_first_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = tmp_path / "answers.txt"
    answers.write_text("crane\nslate\ntrace\ncrate\n")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    shown_before: list[str] = []
    make = GameSpec.solver

    def solver(spec: GameSpec, *args, **kwargs):  # the set-up starts here
        shown_before.append(terminal.getvalue())
        return make(spec, *args, **kwargs)

    monkeypatch.setattr(GameSpec, "solver", solver)
    assert main(["suggest", "--answers", str(answers)]) == 0
    assert shown_before and "preparing the solver" in shown_before[0]
