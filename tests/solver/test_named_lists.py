"""The shipped answer lists by name (`--lists`): the 2023 list as published, its own lists
key and key memo, and the option that chooses a list."""

from __future__ import annotations

import json
import random

import pytest
from advice_checks import assert_same_advice
from solver_hints import obeys_hints

from epdle import words
from epdle.cli import main
from epdle.session.spec import GameSpec
from epdle.solver import Advice, Solver, engine, limit, records, score, trees
from epdle.solver.bench import LATENCY_OPENERS
from epdle.solver.cache import lists_key
from epdle.solver.ranking import book, fast_advice, pure
from epdle.solver.scoring import GAME_GUESSES
from epdle.solver.universe import Universe
from epdle.words.named import ANSWER_FILES, DEFAULT_LISTS, answers_file


def test_the_2023_list_is_selbys_3158_answers_all_accepted():
    answers = words.answers("nyt2023")
    assert len(answers) == 3158 == len(set(answers))
    assert list(answers) == sorted(answers)
    assert set(answers) <= set(words.guesses())
    # It keeps all but 13 of the original answers (the Times removed a few) and adds 856.
    original = set(words.answers("original"))
    assert len(original - set(answers)) == 13 and len(set(answers) - original) == 856
    assert {"fibre", "slave", "wench"} <= original - set(answers)


def test_the_default_lists_are_the_lists_a_game_starts_from():
    assert words.answers() == words.answers(DEFAULT_LISTS)
    assert GameSpec().lists == DEFAULT_LISTS
    assert GameSpec(lists="nyt2023").universe().answers == list(words.answers("nyt2023"))
    # Either named list widens to every accepted word when the feedback leaves it.
    assert GameSpec(lists="nyt2023").widens and GameSpec(lists="original").widens
    assert not GameSpec(lists="nyt2023", answers="mine.txt").widens


def test_an_unknown_list_name_says_which_there_are():
    with pytest.raises(ValueError, match="choose original, nyt2023"):
        answers_file("nyt2099")


@pytest.mark.parametrize("name", ANSWER_FILES)
def test_each_named_lists_key_is_its_universes_and_has_its_own_memo(name, monkeypatch):
    key = lists_key(words.guesses(), words.answers(name))
    book.shipped_key.cache_clear()
    for other in ANSWER_FILES:  # every memo written: none evicts another
        book.shipped_key(other)
    book.shipped_key.cache_clear()
    monkeypatch.setattr(book, "lists_key", lambda *_: pytest.fail("worked out again"))
    assert book.shipped_key(name) == key
    book.shipped_key.cache_clear()


def test_a_universe_carries_its_lists_name(tmp_path, monkeypatch):
    assert Universe.shipped(lists="original").lists == "original"
    assert Universe.shipped(blind=True, lists="original").lists is None
    assert Universe(["crane", "slate"], ["crane"]).lists is None
    assert GameSpec(lists="original").universe().lists == "original"
    answers = tmp_path / "answers.txt"
    answers.write_text("".join(f"{word}\n" for word in words.answers("original")))
    # The shipped words as a file of one's own: the file's, not the shipped list's.
    assert GameSpec(answers=str(answers)).universe().lists is None
    # The Solver asks the fast path with the name the universe carries.
    asked = []
    answer = Advice(1, True, [], ["shunt"])

    def fast(strategy, hard, blind, lists, history, top):
        asked.append(lists)
        return answer

    monkeypatch.setattr(engine, "fast_advice", fast)
    solver = Solver("best", universe=Universe.shipped(lists="original"))
    assert solver.advise([("crane", "BBBBB")]) is answer
    assert asked == ["original"]


def test_lists_goes_with_no_list_file(capsys, tmp_path):
    answers = tmp_path / "answers.txt"
    answers.write_text("crane\nslate\n")
    code = main(["suggest", "--lists", "nyt2023", "--answers", str(answers)])
    assert code == 2
    err = capsys.readouterr().err
    assert "--lists names a shipped answer list" in err and err.count("\n") == 1


def test_a_game_on_the_2023_list_counts_its_candidates(capsys):
    answer = "slave"  # an original answer the 2023 list left out
    history = f"tarse:{score('tarse', answer)}"
    for name in ANSWER_FILES:
        assert main(["suggest", "--strategy", "entropy", "--lists", name, "--history", history,
                     "--json"]) == 0  # fmt: skip
        left = json.loads(capsys.readouterr().out)["candidates_left"]
        fitting = [a for a in words.answers(name) if score("tarse", a) == score("tarse", answer)]
        assert left == len(fitting)
        assert ("slave" in fitting) == (name == "original")


@pytest.mark.parametrize(("hard", "published"), [(False, 11219), (True, 11627)])
def test_the_2023_trees_are_shipped_and_play_the_published_optimum(hard, published):
    universe = GameSpec(lists="nyt2023").universe()
    path = trees.shipped_tree_path(universe, hard)
    assert path.is_file(), "build with tools/gen/build_best_tree.py --lists nyt2023"
    assert json.loads(path.read_text())["lists"] == universe.key
    tree = trees.load_or_build_tree(universe, hard)
    turns = [_replay(tree, answer, hard) for answer in universe.answers]
    assert (
        sum(turns)
        == published
        == records.published_optimum(universe.guesses, universe.answers, hard).total
    )
    assert max(turns) <= GAME_GUESSES


def _replay(tree: dict[str, str], answer: str, hard: bool) -> int:
    history: list[tuple[str, str]] = []
    while not history or history[-1][0] != answer:
        guess = tree[book.path_key(history)]
        if hard:
            assert obeys_hints(guess, history), (answer, history, guess)
        history.append((guess, score(guess, answer)))
    return len(history)


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_suggest_on_the_2023_list_answers_as_the_solver_does_on_and_off_its_tree(hard):
    """The fast path (the shipped tree and its book; off it, the numpy-free ranking over
    the 2023 list's matrix) gives the Solver's own advice, and then the original lists'
    again."""
    solver = Solver("best", hard, universe=GameSpec(lists="nyt2023").universe())
    solver.universe.patterns  # noqa: B018 (the matrix in the cache, as after a first game)
    sample = random.Random(3)
    answered = 0
    for opener in ("tarse", *LATENCY_OPENERS):
        answer = sample.choice(solver.universe.answers)
        history = [(opener, score(opener, answer))]
        fast = fast_advice("best", hard, False, "nyt2023", history)
        if fast is not None:
            answered += 1
            assert_same_advice(fast, solver.engine_advice(history))
    assert answered >= len(LATENCY_OPENERS) // 2
    original = Solver("best", hard, universe=GameSpec(lists="original").universe())
    original.universe.patterns  # noqa: B018
    history = [("crane", score("crane", "cloud"))]
    assert fast_advice("best", hard, False, "original", history).candidates == (
        original.engine_advice(history).candidates
    )


@pytest.mark.parametrize(
    "history", [[("adieu", "YBBGB")], [("raise", "BBYBY")], [("xylyl", "BBGBB")]]
)
def test_where_the_guard_drops_leading_guesses_the_fast_path_drops_them_as_the_solver(history):
    """Hard mode, 2023 list: the numpy-free ranking leads with guesses that leave a family
    the hints pin down out of reach; the guard at the guess limit keeps the others, and a
    one-shot suggest says the same without the Solver."""
    solver = Solver("best", True, universe=GameSpec(lists="nyt2023").universe())
    solver.universe.patterns  # noqa: B018
    unguarded = pure.cold_advice(history, True, 5, "nyt2023")
    shown = [s.word for s in unguarded.suggestions]
    assert not limit.shown_unchanged(shown, unguarded.candidates, len(history), True)
    fast = fast_advice("best", True, False, "nyt2023", history)
    assert fast is not None
    assert_same_advice(fast, solver.engine_advice(history))
    assert [s.word for s in fast.suggestions] != shown
