"""The numpy-free answer off the shipped tree (epdle.solver.cold) equals the Solver's."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from advice_checks import assert_same_advice

from epdle import words
from epdle.solver import Solver, best, cold, engine, names, score
from epdle.solver.bench import LATENCY_OPENERS
from epdle.solver.strategies import guess_stats


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> tuple[Solver, Path]:
    """The Solver on the shipped lists, normal mode, and the cache holding its matrix."""
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EPDLE_CACHE_DIR", str(cache))
        solver = Solver("best")
        solver.advise([])  # builds the pattern matrix into the cache
    return solver, cache


@pytest.fixture
def solver(shipped, monkeypatch) -> Solver:
    monkeypatch.setenv("EPDLE_CACHE_DIR", str(shipped[1]))
    return shipped[0]


def _off_tree_histories(solver: Solver, count: int, seed: int) -> list[list[tuple[str, str]]]:
    """First guesses of every kind against random answers: any accepted word, the latency
    bench's openers, and games the Solver played on from a random first guess."""
    sample = random.Random(seed)
    answers = list(words.answers())
    histories = []
    for _ in range(count):
        opener, answer = sample.choice(solver.universe.guesses), sample.choice(answers)
        history = [(opener, score(opener, answer))]
        if sample.random() < 0.2:  # a later turn, off the tree too
            guess = solver.next_guess(solver.state_after(history))
            history.append((guess, score(guess, answer)))
        histories.append(history)
    for opener in LATENCY_OPENERS[1:]:  # SALET is the tree's
        answer = sample.choice(answers)
        histories.append([(opener, score(opener, answer))])
    return histories


def _size_class(left: int) -> str:
    if left <= 2:
        return "two or fewer"
    if left <= cold.SEARCH_MAX_CANDIDATES:
        return "searched"
    return "looked ahead" if left <= cold.LOOKAHEAD_MAX_CANDIDATES else "ranked only"


@pytest.mark.parametrize(("top", "seed"), [(5, 1), (1, 2), (12, 3)])
def test_cold_advice_equals_the_solver_off_the_tree(solver, top, seed):
    histories = _off_tree_histories(solver, 45, seed)
    answered, kinds = 0, set()
    for history in histories:
        fast = cold.cold_advice(history, False, top)
        if fast is None:
            continue
        answered += 1
        solver.forget_rankings()  # a fresh search, as a process starts with
        assert_same_advice(fast, solver.advise(history, top=top))
        kinds.add(_size_class(fast.candidates_left))
    # It answers almost every turn itself (the rest: estimates numpy's rounding orders).
    assert answered >= 0.9 * len(histories)
    assert kinds == {"two or fewer", "searched", "looked ahead", "ranked only"}


@pytest.mark.parametrize(
    "history",
    [[("crane", "GGBBB")], [("crane", "BGBGB")], [("crane", "BBBYG")], [("slate", "BBGBY")]],
)
def test_the_search_past_a_perfect_split_equals_the_solvers(solver, history):
    state = solver.state_after(history)
    assert 2 < len(state.candidates) <= cold.SEARCH_MAX_CANDIDATES
    stats = guess_stats(solver.universe, state.candidates)
    assert not (stats.buckets == len(state.candidates)).any()  # no guess splits them apart
    fast = cold.cold_advice(history, False)
    assert fast is not None
    solver.forget_rankings()
    assert_same_advice(fast, solver.advise(history))


@pytest.mark.parametrize(
    "history", [[("xylyl", "BBYBB")], [("mamma", "BYBBB")], [("immix", "YBBBB")]]
)
def test_the_look_ahead_past_its_pool_equals_the_solvers(solver, history):
    # More candidates than the pool takes words from: some buckets' words are not in it.
    left = len(solver.state_after(history).candidates)
    assert cold.LOOKAHEAD_POOL < left <= cold.LOOKAHEAD_MAX_CANDIDATES
    fast = cold.cold_advice(history, False)
    assert fast is not None
    solver.forget_rankings()
    assert_same_advice(fast, solver.advise(history))


def test_it_mirrors_the_solvers_settings():
    assert cold.RANKED_KEPT == names.MAX_SUGGESTIONS
    assert engine.SEARCH_MAX_CANDIDATES[False] == cold.SEARCH_MAX_CANDIDATES
    assert cold.LOOKAHEAD_TURNS == engine.LOOKAHEAD_TURNS
    assert engine.LOOKAHEAD_WIDTH[False] == cold.LOOKAHEAD_WIDTH
    assert cold.LOOKAHEAD_POOL == engine.LOOKAHEAD_POOL
    assert engine.LOOKAHEAD_MAX_CANDIDATES[False] == cold.LOOKAHEAD_MAX_CANDIDATES
    assert cold._COPIED_ROWS >= cold.LOOKAHEAD_MAX_CANDIDATES  # the look reads the rows
    assert best.FALLBACK_WIDTHS == cold.FALLBACK_WIDTHS
    curve = best._cost_curve(np.arange(30))
    assert cold._cost_curve(29) == pytest.approx(list(curve), abs=1e-12)
    assert (curve[: cold._EXACT_CURVE + 1] == np.round(curve[: cold._EXACT_CURVE + 1])).all()


def test_it_leaves_to_the_solver_what_it_cannot_answer(solver, tmp_path, monkeypatch):
    crane = [("crane", score("crane", "cloud"))]
    assert cold.cold_advice(crane, False) is not None
    assert cold.cold_advice(crane, True) is None  # hard mode
    assert cold.cold_advice([], False) is None  # the opening is the tree's
    assert cold.cold_advice([("salet", "BBBBB")], False) is None  # on the tree
    assert cold.cold_advice(crane, False, names.MAX_SUGGESTIONS + 1) is None
    assert cold.cold_advice([("zzzzz", "BBBBB")], False) is None  # the Solver words it
    assert cold.cold_advice([("crane", "GGGGY")], False) is None  # no word fits
    solved = cold.cold_advice([("crane", "GGGGG")], False)
    assert solved is not None and solved.solved and solved.answer == "crane"
    monkeypatch.setenv("EPDLE_CACHE_DIR", str(tmp_path))  # no matrix cached here
    assert cold.cold_advice(crane, False) is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_entropy_bound_is_never_below_the_entropy(solver, seed):
    universe = solver.universe
    sample = np.random.default_rng(seed)
    size = [5, 60, 700][seed]
    candidates = np.sort(sample.choice(len(universe.answers), size, replace=False))
    bounds = cold.entropy_bounds([universe.answers[a] for a in candidates], len(universe.guesses))
    bits = guess_stats(universe, candidates).bits
    assert (np.array(bounds) >= bits - 1e-9).all()
    assert max(bounds) <= math.log2(size) + 1e-12


def test_a_stale_shapes_cache_is_rebuilt(solver, shipped):
    crane = [("crane", score("crane", "cloud"))]
    cold._shapes.cache_clear()
    path = shipped[1] / f"cold-shapes-{cold.shipped_key()}.json"
    path.write_text(json.dumps({"lists": "other", "shapes": []}))
    assert_same_advice(cold.cold_advice(crane, False), solver.advise(crane))
    assert json.loads(path.read_text())["lists"] == cold.shipped_key()


# What a one-shot suggest does without: the numpy engine, the other layers' libraries, and
# the path and resource machinery the shipped files are read without (each a few ms).
NOT_LOADED = "{'numpy', 'PIL', 'serial', 'pathlib', 'importlib.resources', 'tempfile'}"


def test_a_cold_suggest_off_the_tree_loads_no_numpy(solver, shipped):
    history = f"xylyl:{score('xylyl', 'cloud')}"
    cold.cold_advice([("xylyl", score("xylyl", "cloud"))], False)  # a first run's shapes cache
    code = (
        "import sys; from epdle.cli import main; "
        f"main(['suggest', '--history', {history!r}, '--json']); "
        f"print(sorted(({NOT_LOADED} | {{'rich'}}) & set(sys.modules)))"
    )
    env = {"EPDLE_CACHE_DIR": str(shipped[1]), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    advice_line, loaded = run.stdout.strip().splitlines()
    assert loaded == "[]"
    advice = json.loads(advice_line)
    slow = solver.advise([("xylyl", score("xylyl", "cloud"))])
    assert [s["word"] for s in advice["suggestions"]] == [s.word for s in slow.suggestions]
    assert advice["candidates"] == slow.candidates


@pytest.mark.parametrize("opener", ["xylyl", "crane"])
def test_a_cold_suggest_as_text_loads_no_numpy(solver, shipped, opener):
    # What a user sees: the table, printed by rich, without the numpy engine.
    history = [(opener, score(opener, "cloud"))]
    text = ",".join(f"{guess}:{feedback}" for guess, feedback in history)
    code = (
        "import sys; from epdle.cli import main; "
        f"main(['suggest', '--history', {text!r}]); "
        f"print(sorted({NOT_LOADED} & set(sys.modules)), file=sys.stderr)"
    )
    env = {"EPDLE_CACHE_DIR": str(shipped[1]), "PATH": "/usr/bin:/bin", "COLUMNS": "80"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stderr.strip() == "[]"
    ranked = [line.split()[1] for line in run.stdout.splitlines() if line.split()[:1] == ["1"]]
    assert ranked == [solver.advise(history).suggestions[0].word.upper()]
