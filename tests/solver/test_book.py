"""The numpy-free answer from the shipped tree and book equals the Solver's own advice."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from advice_checks import assert_same_advice
from hypothesis import given
from hypothesis import strategies as st

from epdle import words
from epdle.solver import Solver, score, scoring, trees
from epdle.solver.ranking import book
from epdle.solver.universe import Universe
from epdle.words.named import ANSWER_FILES

# Each named shipped list (epdle.words.named) in each mode: its tree and book.
LISTS_AND_MODES = [(lists, hard) for lists in ANSWER_FILES for hard in (False, True)]


@pytest.fixture(
    scope="module",
    params=LISTS_AND_MODES,
    ids=[f"{lists}-{'hard' if hard else 'normal'}" for lists, hard in LISTS_AND_MODES],
)
def solver(request, tmp_path_factory) -> Solver:
    lists, hard = request.param
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EPDLE_CACHE_DIR", str(cache))
        solver = Solver("best", hard, universe=Universe.shipped(lists=lists))
        solver.advise([])  # load the matrix and the openers while the cache is set
        solver.lists = lists  # type: ignore[attr-defined]
        yield solver


def _tree_histories(hard: bool, count: int, seed: int, lists: str) -> list[list[tuple[str, str]]]:
    """Histories reached by the shipped tree: a random answer's game cut at a random turn."""
    tree = trees.load_or_build_tree(Universe.shipped(lists=lists), hard)
    sample = random.Random(seed)
    histories = []
    for answer in sample.sample(list(words.answers(lists)), count):
        history: list[tuple[str, str]] = []
        game = []
        while True:
            guess = tree[book.path_key(history)]
            if guess == answer:
                break
            history = [*history, (guess, score(guess, answer))]
            game.append(history)
        histories.append([] if not game else sample.choice([[], *game]))
    return histories


def test_the_solver_itself_answers_on_the_tree_from_the_book(solver):
    """play, the daemon and the web page hold a Solver: on the tree it ranks nothing."""
    for history in _tree_histories(solver.hard, 5, 11, solver.lists):
        solver.forget_rankings()
        advice = solver.advise(history)
        assert len(solver.best.ranked_memo) == 0, history
        assert_same_advice(advice, solver.engine_advice(history))


@pytest.mark.parametrize("top", [1, 5, book.BOOK_DEPTH])
def test_tree_advice_equals_the_solver_on_the_tree(solver, top):
    histories = _tree_histories(solver.hard, 40, top, solver.lists)
    # Every kind of node: the opening, big sets from the book, two candidates or one.
    sizes = set()
    for history in histories:
        fast = book.tree_advice(history, solver.hard, top, solver.lists)
        assert fast is not None, history
        assert_same_advice(fast, solver.engine_advice(history, top=top))
        sizes.add(min(fast.candidates_left, 3))
    assert sizes == {1, 2, 3}


def test_off_the_tree_it_leaves_the_answer_to_the_solver(solver):
    hard, lists = solver.hard, solver.lists
    opener = trees.load_or_build_tree(solver.universe, hard)[""]
    assert opener != "crane"
    assert book.tree_advice([("crane", "BBBBB")], hard, 5, lists) is None  # not the opener
    assert book.tree_advice([(opener, "BBBBB")], hard, book.BOOK_DEPTH + 1, lists) is None
    assert book.tree_advice([(opener, "GGGGG")], hard, 5, lists) is None  # solved: no node
    # A feedback no answer gives is no node of the tree either.
    assert book.tree_advice([(opener, "GGGGY")], hard, 5, lists) is None


def test_the_book_covers_every_node_the_solver_ranks(solver):
    universe = solver.universe
    path = trees.shipped_book_path(universe, solver.hard)
    document = json.loads(path.read_text())
    assert document["lists"] == universe.key == book.shipped_key(solver.lists)
    tree = trees.load_or_build_tree(universe, solver.hard)
    ranked_at = document["book"]
    for key, ranked in ranked_at.items():
        assert ranked[0] == tree[key]
        # A node may have fewer guesses worth ranking than the book keeps (hard mode
        # allows fewer): then the book keeps every one the Solver ranks.
        assert 1 <= len(ranked) <= book.BOOK_DEPTH
        if len(ranked) < book.BOOK_DEPTH:
            history = [tuple(step.split(":")) for step in key.split("/")] if key else []
            assert len(solver.ranked_guesses(solver.state_after(history))) == len(ranked), key
    answers = list(words.answers(solver.lists))
    for key in tree:
        history = [tuple(step.split(":")) for step in key.split("/")] if key else []
        assert (len(book.candidates_after(history, answers)) > 2) == (key in ranked_at), key


@given(st.text("abcdeo", min_size=5, max_size=5), st.text("abcdeo", min_size=5, max_size=5))
def test_feedback_is_the_games_score(guess, answer):
    assert scoring.feedback(guess, answer) == score(guess, answer)


@pytest.mark.parametrize("hard", [False, True])
def test_a_cold_suggest_on_the_tree_loads_no_numpy(tmp_path, hard):
    tree = trees.load_or_build_tree(Universe.shipped(), hard)
    opener = tree[""]
    history = f"{opener}:{score(opener, 'cloud')}"
    code = (
        "import sys; from epdle.cli import main; "
        # The answer list's game, whose shipped tree this is.
        f"main(['suggest', '--prior', 'uniform', '--history', {history!r}, '--json']"
        f" + {['--hard'] * hard!r}); "
        "print(sorted({'numpy', 'PIL', 'rich', 'serial'} & set(sys.modules)))"
    )
    env = {"EPDLE_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    advice_line, loaded = run.stdout.strip().splitlines()
    assert loaded == "[]"
    advice = json.loads(advice_line)
    left = [a for a in words.answers() if score(opener, a) == score(opener, "cloud")]
    assert advice["candidates_left"] == len(left)
    assert advice["suggestions"][0]["word"] == tree[history]
