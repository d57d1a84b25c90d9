"""Build the `best` decision trees for the shipped word lists into the package.

    PYTHONPATH=host .venv/bin/python tools/gen/build_best_tree.py [--lists nyt2023] [--doc FILE]

Writes host/epdle/solver/data/best-tree-<lists hash>-{normal,hard}.json, so a fresh
install answers from the tree at once, and best-book-<lists hash>-{normal,hard}.json, the
Solver's ranked guesses at each node, so a one-shot `epdle suggest` answers without numpy
(`--books-only`: keep the trees, rewrite the books). Rerun after changing the lists or the
search; tests/solver/test_shipped_tree.py and test_book.py fail while the data is stale.
`--lists`: the named answer list (epdle.words.named; default: the default lists);
`--doc`: write each build's figures (total, wall and CPU time, cores, load) into that
document's `<!-- bench:trees -->` table.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from epdle.solver import Solver, search, trees
from epdle.solver.ranking.book import BOOK_DEPTH
from epdle.solver.universe import Universe
from epdle.words import answers as named_answers
from epdle.words import guesses
from epdle.words.named import ANSWER_FILES, DEFAULT_LISTS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import docs_tables  # tools/bench

DATA_DIR = Path(__file__).resolve().parents[2] / "host" / "epdle" / "solver" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--books-only", action="store_true", help="keep the shipped trees, rewrite the books"
    )
    parser.add_argument("--lists", choices=ANSWER_FILES, default=DEFAULT_LISTS)
    parser.add_argument("--doc", type=Path, help="write the build figures into this document")
    args = parser.parse_args()
    universe = Universe(guesses(), named_answers(args.lists))
    code = docs_tables.code_label(DATA_DIR.parents[3])  # the code the builds run
    stale = [*DATA_DIR.glob(f"best-book-{universe.key}-*.json")]
    if not args.books_only:
        stale += DATA_DIR.glob(f"best-tree-{universe.key}-*.json")
    for path in stale:
        path.unlink()
    for hard in (False, True):
        mode = "hard" if hard else "normal"
        started, cpu, load = time.perf_counter(), time.process_time(), os.getloadavg()[0]
        if args.books_only:
            tree_path = DATA_DIR / trees.shipped_tree_path(universe, hard).name
            write_book(universe, hard, json.loads(tree_path.read_text())["tree"])
            continue
        with Progress(
            f"{mode} tree", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()
        ) as bar:
            task = bar.add_task(mode, total=None)

            def advance(done: int, count: int, task: int = task) -> None:
                bar.update(task, completed=done, total=count)

            total, tree = search.build_tree(universe, hard, advance)
        path = DATA_DIR / trees.shipped_tree_path(universe, hard).name
        trees.save_tree(path, universe, hard, total, tree)
        games = len(universe.answers)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        print(
            f"{mode}: {total:.0f} guesses over {games} answers (mean {total / games:.4f}), "
            f"{len(tree)} nodes, {wall:.0f} s -> {path.name}"
        )
        if args.doc is not None:
            cells = [
                f"{args.lists}, {mode}",
                code,
                f"{games:,}",
                f"{total:,.0f}",
                f"{total / games:.4f}",
                tree[""].upper(),
                f"{len(tree):,}",
                f"{wall:.0f}",
                f"{cpu:.0f}",
                f"{load:.1f} / {os.getloadavg()[0]:.1f}",
                docs_tables.machine(),
            ]
            docs_tables.put_row(args.doc, "trees", docs_tables.TREE_HEADER, cells)
        write_book(universe, hard, tree)


def write_book(universe: Universe, hard: bool, tree: dict[str, str]) -> None:
    started = time.perf_counter()
    book = build_book(Solver("best", hard, universe=universe), tree)
    path = DATA_DIR / trees.shipped_book_path(universe, hard).name
    trees.save_book(path, universe, hard, book)
    mode = "hard" if hard else "normal"
    seconds = time.perf_counter() - started
    print(f"{mode}: book of {len(book)} nodes, {seconds:.0f} s -> {path.name}")


def build_book(solver: Solver, tree: dict[str, str]) -> dict[str, list[str]]:
    """Per tree node with more than two candidates, the guesses the Solver ranks first there.

    The book lets a one-shot `suggest` show the runners-up without the pattern engine
    (epdle.solver.ranking.book); nodes with two candidates or fewer need none.
    """
    book: dict[str, list[str]] = {}
    for key in sorted(tree):
        history: list[tuple[str, str]] = []
        for step in key.split("/") if key else []:
            guess, feedback = step.split(":", 1)
            history.append((guess, feedback))
        state = solver.state_after(history)
        if len(state.candidates) <= 2:
            continue
        ranked = solver.ranked_guesses(state)[:BOOK_DEPTH]
        book[key] = [solver.universe.guesses[guess] for guess in ranked]
    return book


if __name__ == "__main__":
    main()
