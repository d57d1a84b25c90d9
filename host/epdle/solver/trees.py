"""The `best` decision trees on disk: shipped with the package, or built and cached.

A tree maps a history path ('salet:BBYBB/crony:GYBBB', '' for the opening) to the guess
to play; its book (written by tools/gen/build_best_tree.py) holds the runners-up a one-shot
`suggest` shows (epdle.solver.ranking.book).
"""

from __future__ import annotations

import json
import logging
from importlib import resources
from pathlib import Path

from epdle.solver.cache import cache_dir, write_atomically
from epdle.solver.ranking.book import BOOK_FORMAT, book_file_name, tree_file_name
from epdle.solver.search import Progress, build_tree
from epdle.solver.universe import Universe

log = logging.getLogger(__name__)

TREE_FORMAT = 1
# The most answers a list of one's own has its `best` tree searched for: the search takes
# minutes beyond (some 240-300 s for 3,000 random words on a busy 2-core machine), where
# the estimate gives the first suggestion in seconds (tools/bench/bench_own_list.py).
TREE_MAX_ANSWERS = 500


def _tree_name(universe: Universe, hard: bool) -> str:
    return tree_file_name(universe.key, hard)


def _read_tree(path: Path | resources.abc.Traversable, universe: Universe) -> dict[str, str] | None:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        log.warning("best tree %s unreadable (%s); rebuilding", path, error)
        return None
    if data.get("format") != TREE_FORMAT or data.get("lists") != universe.key:
        return None
    tree = data.get("tree")
    if not isinstance(tree, dict) or "" not in tree:
        return None
    return tree


def shipped_tree_path(universe: Universe, hard: bool) -> resources.abc.Traversable:
    return resources.files("epdle.solver").joinpath("data", _tree_name(universe, hard))


def save_tree(
    path: Path, universe: Universe, hard: bool, total: float, tree: dict[str, str]
) -> None:
    document = {
        "format": TREE_FORMAT,
        "lists": universe.key,
        "hard": hard,
        "total_guesses": round(total),
        "games": len(universe.answers),
        "tree": dict(sorted(tree.items())),
    }
    write_atomically(path, lambda temporary: temporary.write_text(json.dumps(document, indent=0)))


def shipped_book_path(universe: Universe, hard: bool) -> resources.abc.Traversable:
    return resources.files("epdle.solver").joinpath("data", book_file_name(universe.key, hard))


def save_book(path: Path, universe: Universe, hard: bool, book: dict[str, list[str]]) -> None:
    document = {"format": BOOK_FORMAT, "lists": universe.key, "hard": hard, "book": book}
    text = json.dumps(document, separators=(",", ":"))
    write_atomically(path, lambda temporary: temporary.write_text(text))


def load_or_build_tree(
    universe: Universe, hard: bool, progress: Progress | None = None, any_size: bool = False
) -> dict[str, str]:
    """The tree for these lists: shipped with the package, cached, or built now and cached;
    for lists of more than TREE_MAX_ANSWERS answers without one, an empty tree (`best`
    then ranks by its estimate, and searches once few candidates are left), unless
    `any_size` (the bench, which waits for it): the one place that chooses between
    searching a tree and the estimate."""
    for path in (shipped_tree_path(universe, hard), cache_dir() / _tree_name(universe, hard)):
        tree = _read_tree(path, universe)
        if tree is not None:
            return tree
    if len(universe.answers) > TREE_MAX_ANSWERS and not any_size:
        log.info(
            "%d answers: ranked by the estimate, no tree searched (up to %d are)",
            len(universe.answers),
            TREE_MAX_ANSWERS,
        )
        return {}
    total, tree = build_tree(universe, hard, progress)
    try:
        save_tree(cache_dir() / _tree_name(universe, hard), universe, hard, total, tree)
    except OSError as error:
        log.warning("cannot cache the best tree: %s", error)
    return tree
