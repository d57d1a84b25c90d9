"""The solver answers the 1,245 recorded histories as it did when they were recorded:
the same five guesses, in the same order, and the same candidates left (top5_record.py
says what they are and how the recording was made)."""

from __future__ import annotations

from pathlib import Path

import pytest
from top5_record import parse_history_text, record_line, recorded_solver

RECORDING = Path(__file__).with_name("top5_record.txt")


def _recorded() -> dict[tuple[str, bool], list[str]]:
    lines: dict[tuple[str, bool], list[str]] = {}
    for line in RECORDING.read_text().splitlines():
        strategy, mode = line.split()[:2]
        lines.setdefault((strategy, mode == "hard"), []).append(line)
    return lines


RECORDED = _recorded()


def test_the_recording_holds_every_history_once():
    lines = [line for group in RECORDED.values() for line in group]
    assert len(lines) == 1245
    assert len({tuple(line.split()[:3]) for line in lines}) == len(lines)


@pytest.mark.slow
@pytest.mark.parametrize(("strategy", "hard"), sorted(RECORDED))
def test_the_top_five_are_as_recorded(strategy, hard):
    solver = recorded_solver(strategy, hard)
    for line in RECORDED[strategy, hard]:
        history = parse_history_text(line.split()[2])
        assert record_line(solver, history) == line
