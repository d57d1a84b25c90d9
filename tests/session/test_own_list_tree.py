"""A list of one's own answers: `best` searches its decision tree only up to
trees.TREE_MAX_ANSWERS answers (a longer list's search takes minutes: its first
suggestion comes from the estimate, in seconds), unless asked to wait for it whatever
the size (the bench). The one place that chooses is trees.load_or_build_tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from epdle.solver import trees
from epdle.solver.engine import Solver
from epdle.solver.universe import Universe

ANSWERS = ["crane", "slate", "trace", "crate", "grate", "plate"]
GUESSES = [*ANSWERS, "salet", "roate", "lucky", "ghost"]


@pytest.fixture
def searched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The answer counts of the trees searched (none cached: a fresh cache)."""
    monkeypatch.setenv("EPDLE_CACHE_DIR", str(tmp_path))
    counts: list[int] = []
    build = trees.build_tree

    def recorded(universe: Universe, *args, **kwargs):
        counts.append(len(universe.answers))
        return build(universe, *args, **kwargs)

    monkeypatch.setattr(trees, "build_tree", recorded)
    return counts


@pytest.mark.parametrize("hard", [False, True])
def test_a_list_over_the_bound_is_ranked_by_the_estimate(
    searched: list[int], hard: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trees, "TREE_MAX_ANSWERS", len(ANSWERS) - 1)
    solver = Solver("best", hard, universe=Universe(GUESSES, ANSWERS))
    advice = solver.engine_advice([], top=3)
    assert searched == []
    assert len(advice.suggestions) == 3
    # and it plays on to the end as `best` does off a tree
    assert solver.engine_advice([("crane", "BBGBG")], top=1).suggestions


def test_a_list_within_the_bound_has_its_tree_searched(
    searched: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trees, "TREE_MAX_ANSWERS", len(ANSWERS))
    Solver("best", universe=Universe(GUESSES, ANSWERS)).engine_advice([], top=3)
    assert searched == [len(ANSWERS)]


def test_the_bench_waits_for_a_tree_whatever_the_size(
    searched: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trees, "TREE_MAX_ANSWERS", 1)
    solver = Solver("best", universe=Universe(GUESSES, ANSWERS), tree_any_size=True)
    solver.engine_advice([], top=3)
    assert searched == [len(ANSWERS)]
