"""Build the `best` decision trees for the shipped word lists into the package.

    PYTHONPATH=host .venv/bin/python tools/build_best_tree.py

Writes host/epdle/solver/data/best-tree-<lists hash>-{normal,hard}.json, so a fresh
install answers from the tree at once. Rerun after changing the lists or the search;
tests/solver/test_shipped_tree.py fails while a shipped tree does not match the lists.
"""

from __future__ import annotations

import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from epdle.solver import best
from epdle.solver.universe import Universe

DATA_DIR = Path(__file__).resolve().parents[1] / "host" / "epdle" / "solver" / "data"


def main() -> None:
    universe = Universe.shipped()
    for stale in DATA_DIR.glob("best-tree-*.json"):
        stale.unlink()
    for hard in (False, True):
        mode = "hard" if hard else "normal"
        started = time.perf_counter()
        with Progress(
            f"{mode} tree", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()
        ) as bar:
            task = bar.add_task(mode, total=None)

            def advance(done: int, count: int, task: int = task) -> None:
                bar.update(task, completed=done, total=count)

            total, tree = best.build_tree(universe, hard, advance)
        path = DATA_DIR / best.shipped_tree_path(universe, hard).name
        best.save_tree(path, universe, hard, total, tree)
        games = len(universe.answers)
        print(
            f"{mode}: {total:.0f} guesses over {games} answers (mean {total / games:.4f}), "
            f"{len(tree)} nodes, {time.perf_counter() - started:.0f} s -> {path.name}"
        )


if __name__ == "__main__":
    main()
