"""The tree builder's search against the true optimum, on lists small enough to check."""

from __future__ import annotations

import numpy as np
import pytest
from exhaustive import optimal_total

from epdle.solver import score, search
from epdle.solver.ranking import book
from epdle.solver.search import INFINITE
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
            guess = tree[book.path_key(history)]
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


def test_the_bounded_search_costs_what_the_full_one_does(small_universe):
    """Bounds only spare work: under the bound a cost is exact, at or over it a lower bound."""
    full = search.TreeSearch(small_universe, False, (1, 6, 3))
    bounded = search.TreeSearch(small_universe, False, (1, 6, 3), bounded=True)
    openers = search._estimated_openers(small_universe, 4)
    costs = [full.opener_cost(opener, 6) for opener in openers]
    assert [bounded.opener_cost(opener, 6) for opener in openers] == costs
    # Asked to beat the best, the others give up with a lower bound at least as high.
    again = search.TreeSearch(small_universe, False, (1, 6, 3), bounded=True)
    best = min(costs)
    for opener, cost in zip(openers, costs, strict=True):
        given_up = again.opener_cost(opener, 6, best)
        assert given_up == cost if cost < best else best <= given_up <= cost
        # Bounded by its own cost, it gives up in the last parts it solves.
        assert again.opener_cost(opener, 6, cost) == cost
    every = np.arange(len(small_universe.answers))
    for opener in openers:  # the memo's lower bounds never stand in for a cost
        assert again.extract(opener, None, 6) == full.extract(opener, None, 6)
    assert again.solve(every, None, 6, 0) == full.solve(every, None, 6, 0)


@pytest.mark.parametrize("limit", [4, 5])
def test_a_guess_given_up_on_for_the_bound_does_not_stop_the_rescue(limit):
    """Near the guess limit whole beams may not fit it: a guess given up on for the bound
    is not known to fit, so the rescue guesses must still be tried, as without bounds."""
    universe = Universe(ATCH_GUESSES, ATCH)
    width = len(universe.guesses)
    for narrow in ((1, 1), (1, 2, 1)):
        full = search.TreeSearch(universe, True, narrow, rescue_width=width)
        costs = [full.opener_cost(opener, limit) for opener in range(width)]
        bounded = search.TreeSearch(universe, True, narrow, rescue_width=width, bounded=True)
        best = INFINITE
        for opener, cost in enumerate(costs):
            given = bounded.opener_cost(opener, limit, best)
            assert given == cost if cost < best else given >= best, (narrow, opener)
            best = min(best, given)


def test_an_openers_progress_counts_the_words_of_the_parts_solved(small_universe):
    opener = search._estimated_openers(small_universe, 1)[0]
    ticks: list[tuple[int, int]] = []
    cost = search.TreeSearch(small_universe, False, (1, 6, 3)).opener_cost(
        opener, 6, progress=lambda done, total: ticks.append((done, total))
    )
    assert cost < INFINITE
    everyone = np.arange(len(small_universe.answers))
    solved = small_universe.pattern_count - 1
    parts = [len(p) for code, p in search.TreeSearch(small_universe, False, (1,)).buckets(
        everyone, opener) if code != solved]  # fmt: skip
    # Largest part first: the first tick is its words, not one part of many.
    assert ticks[0] == (max(parts), sum(parts))
    assert [done for done, _ in ticks] == sorted({done for done, _ in ticks})
    assert ticks[-1] == (sum(parts), sum(parts)) and len(ticks) == len(parts)


@pytest.mark.parametrize("gap", [search.FINALIST_GAP, 0.0])
def test_the_builders_progress_keeps_one_total_and_only_rises(monkeypatch, gap):
    # No gap: the screen's best alone (or its equals) goes on, fewer than OPENER_FINALISTS.
    monkeypatch.setattr(search, "FINALIST_GAP", gap)
    ticks: list[tuple[int, int]] = []
    universe = Universe(ATCH_GUESSES, ATCH)
    search.build_tree(universe, True, lambda done, total: ticks.append((done, total)))
    assert len({total for _, total in ticks}) == 1
    assert [done for done, _ in ticks] == sorted(done for done, _ in ticks)
    assert ticks[-1][0] == ticks[-1][1]
