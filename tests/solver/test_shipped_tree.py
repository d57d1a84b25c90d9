"""The decision trees shipped in the package: they match the lists and play well."""

from __future__ import annotations

import json

import pytest
from solver_hints import obeys_hints

from epdle import words
from epdle.solver import score, trees
from epdle.solver.ranking import book
from epdle.solver.scoring import GAME_GUESSES
from epdle.solver.universe import Universe


def _replay(tree: dict[str, str], answer: str, hard: bool) -> int:
    history: list[tuple[str, str]] = []
    while True:
        guess = tree[book.path_key(history)]
        if hard:
            assert obeys_hints(guess, history), (answer, history, guess)
        history.append((guess, score(guess, answer)))
        if guess == answer:
            return len(history)
        assert len(history) < 8, f"{answer}: tree runs past 7 guesses"


@pytest.mark.parametrize(("hard", "mean_goal"), [(False, 3.422), (True, 3.52)])
def test_shipped_tree_matches_lists_and_meets_goals(hard, mean_goal):
    universe = Universe.shipped(lists="original")  # the goals are the original list's
    path = trees.shipped_tree_path(universe, hard)
    assert path.is_file(), "rebuild with tools/gen/build_best_tree.py"
    document = json.loads(path.read_text())
    assert document["lists"] == universe.key
    tree = trees.load_or_build_tree(universe, hard)
    turns = [_replay(tree, answer, hard) for answer in words.answers("original")]
    assert sum(turns) == document["total_guesses"]
    assert sum(turns) / len(turns) <= mean_goal
    assert max(turns) <= GAME_GUESSES  # a sixth guess where it lowers the total
