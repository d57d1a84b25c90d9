"""Pictures of the play: the bench's histogram and the first levels of the decision tree.

Drawn with matplotlib (the optional `plot` extra: pip install '.[plot]') on its
Agg and SVG canvases, without pyplot, so nothing opens a window. SVG keeps its text as
text, so the words can be searched (and tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from epdle.solver.names import mode_name
from epdle.solver.scoring import GAME_GUESSES

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from epdle.solver.bench import BenchResult
    from epdle.solver.engine import Solver
    from epdle.solver.state import GameState

# Colours: the game's tiles, and the mark of a lost game.
GREEN, YELLOW, GREY = "#6aaa64", "#c9b458", "#787c7e"
BAR, FAILED = "#4c72b0", "#d62728"
_TILE = {"G": GREEN, "Y": YELLOW, "B": GREY}
FORMATS = (".png", ".svg")


def _matplotlib() -> None:
    try:
        import matplotlib
    except ImportError as error:
        raise ValueError(
            "pictures need matplotlib, the optional plot extra: `make run` installs it, "
            "or pip install '.[plot]' in the repository"
        ) from error
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text in SVG


def check_format(path: Path) -> None:
    """Refuse a picture name that is neither .png nor .svg (before any long work)."""
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"{path}: picture must be .png or .svg, not {path.suffix or 'none'}")


def _save(figure: Figure, path: Path) -> None:
    try:
        # No date in the file: the same play draws the same bytes.
        metadata = {"Date": None} if path.suffix.lower() == ".svg" else {}
        figure.savefig(path, dpi=150, metadata=metadata)
    except OSError as error:
        raise ValueError(f"cannot write {path}: {error.strerror}") from error


# -- the bench's histogram ----------------------------------------------------------------


def plot_histogram(result: BenchResult, path: str | Path) -> None:
    """Bars of games per guess count; games over six in red, with how many lost."""
    lost = result.failures
    text = f"{lost} game{'s' if lost != 1 else ''} over six" if lost else "no game over six"
    if lost and result.worst_words:
        text += f"\nworst ({result.max}): " + ", ".join(w.upper() for w in result.worst_words[:4])
    title = (
        f"{result.strategy} ({mode_name(result.hard, result.blind)}), first guess "
        f"{result.first_guess.upper()}: mean {result.mean:.4f}, max {result.max}"
    )
    plot_guess_histogram(path, result.histogram, 1, GAME_GUESSES, "guesses", title, text, lost)


def plot_guess_histogram(
    path: str | Path,
    histogram: dict[int, int],
    first: int,
    limit: int,
    xlabel: str,
    title: str,
    text: str,
    lost: int,
) -> None:
    """Bars of games per guesses (from `first`), those over `limit` in red, with a title
    and, top left, `text` (red when `lost` games went over)."""
    path = Path(path)
    check_format(path)
    _matplotlib()
    from matplotlib.figure import Figure

    shown = list(range(first, max(limit + 1, *histogram) + 1))
    counts = [histogram.get(t, 0) for t in shown]
    colours = [FAILED if t > limit else BAR for t in shown]
    figure = Figure(figsize=(6.4, 3.8), layout="constrained")
    axes = figure.add_subplot()
    bars = axes.bar(shown, counts, color=colours)
    labels = axes.bar_label(
        bars, labels=[str(c) if c else "" for c in counts], padding=2, fontsize=8
    )
    top = max(counts) * 1.15 + 1
    axes.axvspan(limit + 0.5, shown[-1] + 0.6, color=FAILED, alpha=0.08, linewidth=0)
    axes.axvline(limit + 0.5, color=GREY, linestyle="--", linewidth=1)  # the limit
    for turn, count, label in zip(shown, counts, labels, strict=True):
        if turn > limit and count:
            # Lost games are few: a marker above the bar keeps them visible at any scale.
            label.set_color(FAILED)
            label.set_fontweight("bold")
            axes.plot(turn, count + top * 0.06, marker="v", color=FAILED, markersize=6)
    axes.set_xticks(shown)
    axes.set_xlim(first - 0.6, shown[-1] + 0.6)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("games")
    axes.set_ylim(0, top)
    axes.set_title(title, fontsize=10)
    axes.text(
        0.02, 0.95, text, transform=axes.transAxes, ha="left", va="top",
        color=FAILED if lost else "black", fontsize=9,
    )  # fmt: skip
    axes.spines[["top", "right"]].set_visible(False)
    _save(figure, path)


# -- the decision tree --------------------------------------------------------------------


@dataclass
class TreeNode:
    """A guess played for `size` candidates; `feedback` is what led here ('' at the root)."""

    guess: str
    size: int
    feedback: str = ""
    children: list[TreeNode] = field(default_factory=list)
    hidden: int = 0  # feedbacks left out of the picture (the smaller ones)
    hidden_words: int = 0  # candidates under them


def decision_tree(
    solver: Solver, opener: str | None = None, depth: int = 2, branches: int = 6
) -> TreeNode:
    """The solver's play from an opener, `depth` guesses below it, the `branches` largest
    feedbacks of each guess (the solved one left out: it ends the game)."""
    if depth < 0 or branches < 1:
        raise ValueError("the tree needs a depth of at least 0 and at least one branch")
    state = solver.initial_state()
    if opener is None:
        opener = solver.next_guess(state)
    opener = opener.lower()
    if opener not in solver.universe.guess_index:
        raise ValueError(f"opener {opener!r} is not in the accepted word list")
    return _grow(solver, state, opener, "", depth, branches)


def _grow(
    solver: Solver, state: GameState, guess: str, feedback: str, depth: int, branches: int
) -> TreeNode:
    node = TreeNode(guess, len(state.candidates), feedback)
    if depth == 0:
        return node
    from epdle.solver.scoring import score

    answers = solver.universe.answers
    groups: dict[str, int] = {}
    for index in state.candidates:
        marks = score(guess, answers[index])
        if marks != "G" * len(guess):
            groups[marks] = groups.get(marks, 0) + 1
    ordered = sorted(groups.items(), key=lambda item: (-item[1], item[0]))
    for marks, _size in ordered[:branches]:
        child = solver.apply(state, guess, marks)
        next_guess = solver.next_guess(child)
        node.children.append(_grow(solver, child, next_guess, marks, depth - 1, branches))
    node.hidden = max(0, len(ordered) - branches)
    node.hidden_words = sum(size for _, size in ordered[branches:])
    return node


def _leaves(node: TreeNode) -> int:
    """Rows the node takes in the picture (one per leaf, one for a 'more' line)."""
    rows = sum(_leaves(child) for child in node.children) + (1 if node.hidden else 0)
    return max(1, rows)


def draw_tree(root: TreeNode, path: str | Path, title: str = "") -> None:
    """Left to right: each guess a box with its candidates; each edge the feedback tiles."""
    path = Path(path)
    check_format(path)
    _matplotlib()
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch, Rectangle

    rows = _leaves(root)
    levels = _depth(root) + 1
    column = 3.2  # data units between levels
    figure = Figure(figsize=(1.2 + 2.3 * levels, 0.8 + 0.32 * rows), layout="constrained")
    axes = figure.add_subplot()
    axes.set_xlim(-0.9, column * (levels - 1) + 1.3)
    axes.set_ylim(rows + 0.2, -0.9)
    axes.axis("off")
    if title:
        axes.set_title(title, fontsize=10)

    def box(x: float, y: float, node: TreeNode) -> None:
        axes.add_patch(
            FancyBboxPatch(
                (x - 0.8, y - 0.32), 1.6, 0.64, boxstyle="round,pad=0.02",
                facecolor="white", edgecolor="black", linewidth=0.8,
            )
        )  # fmt: skip
        axes.text(x - 0.05, y, node.guess.upper(), ha="right", va="center", fontsize=8,
                  fontweight="bold", family="monospace")  # fmt: skip
        axes.text(x + 0.05, y, f"{node.size}", ha="left", va="center", fontsize=7, color=GREY)

    def tiles(x: float, y: float, feedback: str) -> None:
        for i, mark in enumerate(feedback):
            tile = Rectangle((x + 0.2 * i, y - 0.09), 0.18, 0.18, facecolor=_TILE[mark])
            tile.set_edgecolor("none")
            axes.add_patch(tile)

    def place(node: TreeNode, level: int, top: float) -> float:
        """Draw the node and its subtree from row `top`; returns the node's row."""
        x = column * level
        child_rows: list[float] = []
        row = top
        for child in node.children:
            child_rows.append(place(child, level + 1, row))
            row += _leaves(child)
        if node.hidden:
            more_y = row + 0.5
            axes.text(x + column - 0.8, more_y, f"+{node.hidden} more ({node.hidden_words})",
                      ha="left", va="center", fontsize=7, color=GREY)  # fmt: skip
        y = (child_rows[0] + child_rows[-1]) / 2 if child_rows else top + 0.5
        for child, child_y in zip(node.children, child_rows, strict=True):
            start, end = x + 0.8, x + column - 0.8
            axes.plot([start, end - 1.05], [y, child_y], color=GREY, linewidth=0.6)
            axes.plot([end - 1.05, end], [child_y, child_y], color=GREY, linewidth=0.6)
            tiles(end - 1.02, child_y - 0.22, child.feedback)
        box(x, y, node)
        return y

    place(root, 0, 0.0)
    _save(figure, path)


def _depth(node: TreeNode) -> int:
    return 1 + max((_depth(child) for child in node.children), default=-1)


def tree_words(node: TreeNode) -> Sequence[str]:
    """Every guess in the picture, root first (depth first)."""
    return [node.guess, *(word for child in node.children for word in tree_words(child))]
