"""tools/bench/bench_multi.py's hard-mode check: every guess played held to the rule of at
least one open board, by the one-board game's own check, not the solver's mask."""

from __future__ import annotations

import sys
from pathlib import Path

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
