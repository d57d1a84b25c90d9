"""The multi-board bench's histogram: games per total guesses, the guess limit marked."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from epdle.solver.multi.history import guess_limit
from epdle.solver.names import mode_name
from epdle.solver.pictures import plot_guess_histogram

if TYPE_CHECKING:
    from epdle.solver.multi.bench import MultiBenchResult

GAME_NAMES = {
    1: "Wordle",
    2: "Dordle",
    4: "Quordle",
    8: "Octordle",
    16: "Sedecordle",
    32: "Duotrigordle",
}


def game_name(boards: int) -> str:
    return GAME_NAMES.get(boards, f"{boards} boards")


def plot_multi_histogram(result: MultiBenchResult, path: str | Path) -> None:
    """Bars of games per total guesses; lost games (over the limit) in red."""
    limit = guess_limit(result.boards)
    lost = result.lost
    text = f"{lost} lost (over {limit})" if lost else f"every game within {limit}"
    title = (
        f"{game_name(result.boards)} ({mode_name(result.hard, result.blind)}), "
        f"{result.games} games, first guess {result.first_guess.upper()}: "
        f"mean {result.mean:.4f}, max {result.max}"
    )
    xlabel = "guesses to solve every board"
    plot_guess_histogram(path, result.histogram, result.boards, limit, xlabel, title, text, lost)
