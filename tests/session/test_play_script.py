"""`epdle play` with stdin not a terminal: one command per line, errors keep it going."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from rich.console import Console

from epdle.cli import main
from epdle.solver import score


def test_scripted_play_session(tmp_path: Path, monkeypatch, capsys) -> None:
    script = "\n".join(
        [
            "salet bybbb",
            "salet zzzzz",  # bad colours
            "qqqqq bbbbb",  # not a word
            "undo",
            "help",
            "salet 01000",
            "quit",
            "crony 21000",  # never read: quit came first
        ]
    )
    monkeypatch.setattr("sys.stdin", io.StringIO(script + "\n"))
    output = io.StringIO()
    monkeypatch.setattr(
        "rich.console.Console", lambda: Console(file=output, width=120, color_system=None)
    )
    panel_dir = tmp_path / "panel"
    code = main(["play", "--strategy", "entropy", "--top", "2", "--panel-dir", str(panel_dir)])
    text = output.getvalue()
    errors = capsys.readouterr().err.splitlines()
    assert code == 1  # two lines failed
    # Scripted, each failed line is one line on stderr, in the command's convention.
    assert len(errors) == 2
    assert errors[0].startswith("epdle play: error: colours for 'salet'")
    assert errors[1] == "epdle play: error: guess 2 'qqqqq': not in the accepted word list"
    assert "error" not in text
    assert "undo (u)" in text  # the help text
    assert "CRONY GYBBB" not in text  # never played (CRONY may still be suggested)
    assert str(panel_dir.resolve()) in text
    # opening, salet, undo, salet again: four pushes, each showing its first frame
    assert len(list(panel_dir.glob("panel-*.png"))) == 4


@pytest.mark.parametrize(
    ("boards", "salet", "crony", "shown"),
    [
        ([], "bybbb", "21000", "CRONY GYBBB"),
        (["--boards", "2"], "bybbb/bbbbb", "21000/00000", "CRONY  GYBBB  BBBBB"),
    ],
)
def test_a_line_of_separators_is_an_error_and_the_game_goes_on(
    boards: list[str], salet: str, crony: str, shown: str, tmp_path: Path, monkeypatch, capsys
) -> None:
    script = f"salet {salet}\n,\n:\n=\ncrony {crony}\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    output = io.StringIO()
    monkeypatch.setattr(
        "rich.console.Console", lambda: Console(file=output, width=120, color_system=None)
    )
    code = main(["play", "--top", "2", "--panel-dir", str(tmp_path), *boards])
    errors = capsys.readouterr().err.splitlines()
    assert code == 1  # three lines failed
    assert len(errors) == 3
    assert all("expected '<guess> <colours>'" in line for line in errors)
    assert shown in output.getvalue()  # played after them


def test_piped_output_keeps_each_line_whole(tmp_path: Path) -> None:
    # Through a pipe, no terminal width: a note of 90 characters stays one line (rich
    # cut it at 80, inside a phrase).
    import subprocess
    import sys

    from epdle.session.game import widened_note

    lines = [f"{guess} {score(guess, 'guano')}" for guess in ("salet", "courd")]
    play = ["play", "--lists", "original", "--panel-dir", str(tmp_path)]
    done = subprocess.run(
        [sys.executable, "-m", "epdle", *play],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "COLUMNS": ""},
    )
    assert done.returncode == 0, done.stderr
    note = widened_note("original")
    assert len(note) > 80 and note in done.stdout.splitlines()
