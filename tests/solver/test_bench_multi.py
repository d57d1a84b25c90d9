"""tools/bench/bench_multi.py's hard-mode check: every guess played held to the rule of at
least one open board, by the one-board game's own check, not the solver's mask."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "bench"))
import bench_multi

from epdle.solver.scoring import score
from epdle.solver.universe import Universe

# After CRANE, board 1 (CHOMP) has C green in 1st place, board 2 (STOVE) E in 5th.
BOARD_1, BOARD_2 = [("crane", "GBBBB")], [("crane", "BBBBG")]


def test_a_guess_breaks_the_rule_only_when_it_keeps_no_open_boards_hints() -> None:
    assert bench_multi.rule_breaking([BOARD_1, BOARD_2], "stomp")  # neither C nor E
    assert not bench_multi.rule_breaking([BOARD_1, BOARD_2], "chomp")  # board 1's
    assert not bench_multi.rule_breaking([BOARD_1, BOARD_2], "stove")  # board 2's
    assert bench_multi.rule_breaking([BOARD_1], "stove")  # board 2 solved: board 1's only
    assert not bench_multi.rule_breaking([], "stomp")  # nothing open: nothing to keep


def test_the_checked_solver_counts_a_rule_breaking_guess_played() -> None:
    answers = ["chimp", "chomp", "stone", "stove"]
    universe = Universe(sorted([*answers, "crane", "stomp"]), answers)
    hidden = ("chomp", "stove")
    solver = bench_multi.RuleCheckedSolver(2, hard=True, universe=universe)
    state = solver.state_after([("crane", [score("crane", answer) for answer in hidden])])
    assert [list(board.history) for board in state.boards] == [BOARD_1, BOARD_2]
    assert (solver.checked, solver.broken) == (1, 0)  # CRANE, first: nothing to keep
    for guess, broken in (("stomp", 1), ("chomp", 1), ("stove", 1)):
        solver.apply(state, guess, [score(guess, answer) for answer in hidden])
        assert solver.broken == broken
    assert solver.checked == 4


@pytest.fixture
def document(tmp_path, monkeypatch) -> Path:
    """A bench document of its own with the hard-mode section, and two Dordle games."""
    path = tmp_path / "bench.md"
    path.write_text("# Bench\n\n<!-- bench:multi-hard -->\nold\n<!-- /bench:multi-hard -->\n")
    monkeypatch.setattr(bench_multi, "BENCH_MD", path)
    monkeypatch.setattr(bench_multi, "HARD_RUNS", ((2, 2),))
    return path


def test_the_hard_bench_writes_its_table_with_every_guess_checked(document) -> None:
    assert bench_multi.run_hard() == 0
    table = [line for line in document.read_text().splitlines() if line.startswith("| Dordle")]
    assert len(table) == 1
    cells = [cell.strip() for cell in table[0].strip("|").split("|")]
    assert cells[1] == "2" and cells[5].startswith("0 of ")
    assert int(cells[5].removeprefix("0 of ")) >= 2 * 2 * 2  # two boards, both runs


def test_the_hard_bench_stops_before_writing_on_a_rule_breaking_guess(
    document, monkeypatch, capsys
) -> None:
    before = document.read_text()
    # Every board's history refuses every guess: the first guess after one breaks the rule.
    monkeypatch.setattr(bench_multi, "hard_mode_break", lambda history, guess: bool(history))
    assert bench_multi.run_hard() == 1
    assert "broke the hard rule; docs/bench.md not written" in capsys.readouterr().err
    assert document.read_text() == before
