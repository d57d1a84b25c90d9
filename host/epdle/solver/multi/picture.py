"""The multi-board bench's histogram: games per total guesses, the guess limit marked."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from epdle.solver.names import mode_name
from epdle.solver.pictures import BAR, FAILED, GREY, _matplotlib, _save, check_format

if TYPE_CHECKING:
    from epdle.solver.multi.bench import MultiBenchResult

GAME_NAMES = {1: "Wordle", 2: "Dordle", 4: "Quordle", 8: "Octordle"}


def game_name(boards: int) -> str:
    return GAME_NAMES.get(boards, f"{boards} boards")


def plot_multi_histogram(result: MultiBenchResult, path: str | Path) -> None:
    """Bars of games per total guesses; lost games (over the limit) in red."""
    path = Path(path)
    check_format(path)
    _matplotlib()
    from matplotlib.figure import Figure

    limit = result.boards + 5
    shown = list(range(result.boards, max(limit + 1, *result.histogram) + 1))
    counts = [result.histogram.get(t, 0) for t in shown]
    figure = Figure(figsize=(6.4, 3.8), layout="constrained")
    axes = figure.add_subplot()
    bars = axes.bar(shown, counts, color=[FAILED if t > limit else BAR for t in shown])
    axes.bar_label(bars, labels=[str(c) if c else "" for c in counts], padding=2, fontsize=8)
    axes.axvline(limit + 0.5, color=GREY, linestyle="--", linewidth=1)
    axes.set_xticks(shown)
    axes.set_xlabel("guesses to solve every board")
    axes.set_ylabel("games")
    axes.set_ylim(0, max(counts, default=0) * 1.15 + 1)
    mode = mode_name(result.hard, result.blind)
    axes.set_title(
        f"{game_name(result.boards)} ({mode}), {result.games} games, first guess "
        f"{result.first_guess.upper()}: mean {result.mean:.4f}, max {result.max}",
        fontsize=10,
    )
    lost = result.lost
    text = f"{lost} lost (over {limit})" if lost else f"every game within {limit}"
    axes.text(
        0.02, 0.95, text, transform=axes.transAxes, ha="left", va="top",
        color=FAILED if lost else "black", fontsize=9,
    )  # fmt: skip
    axes.spines[["top", "right"]].set_visible(False)
    _save(figure, path)
