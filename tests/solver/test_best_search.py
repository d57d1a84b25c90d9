"""The tree builder's search against the true optimum, on lists small enough to check."""

from __future__ import annotations

import pytest
from exhaustive import optimal_total

from epdle.solver import quick, score, search
from epdle.solver.universe import Universe

# ?ATCH and a few others: in hard mode the hints soon pin the family down.
ATCH = ["adobe", "batch", "catch", "hatch", "latch", "later", "match", "patch", "remit"]
ATCH += ["trait", "watch", "wench"]
ATCH_GUESSES = ["abeam", "baked", "chara", "donas", "dowly", "hovel", "impis", "jambs"]
ATCH_GUESSES += ["leapt", "ledge", "lives", "molts", "morat", "nasis", "noias", "oohed"]
ATCH_GUESSES += ["oppos", "pandy", "paver", "perls", "quoif", "taira", "torch", "trags", "wexes"]

ASKEW = ["askew", "batch", "catch", "chuck", "giver", "hatch", "latch", "match", "patch"]
ASKEW += ["riper", "tabby", "watch"]
ASKEW_GUESSES = ["abhor", "admin", "alfas", "aloft", "ancon", "bries", "dusty", "ennui"]
ASKEW_GUESSES += ["forex", "gusto", "karri", "lotes", "makaf", "order", "point", "proud"]
ASKEW_GUESSES += ["rewon", "scend", "sense", "slams", "stunt", "surat", "tipup", "wooly", "zendo"]


def _replayed_total(tree: dict[str, str], answers: list[str]) -> tuple[int, int]:
    """(total guesses, longest game) playing the tree against every answer."""
    turns = []
    for answer in answers:
        history: list[tuple[str, str]] = []
        while not history or history[-1][0] != answer:
            guess = tree[quick.path_key(history)]
            history.append((guess, score(guess, answer)))
        turns.append(len(history))
    return sum(turns), max(turns)


def test_the_checker_on_a_family_only_one_guess_at_a_time_can_split():
    # Each of these words tells the others nothing (all BGGGG): the games take 1 to 7.
    family = ["batch", "catch", "hatch", "latch", "match", "patch", "watch"]
    assert optimal_total(family, family, hard=False, limit=7) == 1 + 2 + 3 + 4 + 5 + 6 + 7
    assert optimal_total(family, family, hard=False, limit=6) is None
    # A word with B, C, H and W tells four of them apart at once.
    assert optimal_total([*family, "bewch"], family, hard=False) < 28


@pytest.mark.parametrize(
    ("answers", "guesses"), [(ATCH, ATCH_GUESSES), (ASKEW, ASKEW_GUESSES)], ids=["atch", "askew"]
)
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_the_tree_reaches_the_optimum(answers, guesses, hard):
    universe = Universe(guesses, answers)
    total, tree = search.build_tree(universe, hard)
    assert total == optimal_total(guesses, answers, hard)
    assert _replayed_total(tree, answers)[0] == total


def test_the_opener_is_searched_not_the_estimates_first():
    universe = Universe(ATCH_GUESSES, ATCH)
    first = universe.guesses[search._estimated_openers(universe, 1)[0]]
    optimum = optimal_total(ATCH_GUESSES, ATCH, hard=True)
    assert optimal_total(ATCH_GUESSES, ATCH, hard=True, opener=first) > optimum
    total, tree = search.build_tree(universe, hard=True)
    assert total == optimum
    assert tree[""] != first


def test_a_wide_beam_is_exact():
    """With every guess in the beam at every depth the search is exhaustive."""
    answers, guesses = ASKEW[:8], ASKEW_GUESSES[:8]
    universe = Universe(guesses, answers)
    width = len(universe.guesses)
    for hard in (False, True):
        exhaustive = search.TreeSearch(universe, hard, (width,))
        costs = [exhaustive.opener_cost(opener, 6) for opener in range(width)]
        assert min(costs) == optimal_total(guesses, answers, hard)
