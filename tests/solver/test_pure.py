"""The numpy-free answer off the shipped tree (epdle.solver.ranking.pure) equals the
Solver's."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from array import array
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from advice_checks import assert_same_advice, cold_advice

from epdle import words
from epdle.solver import (
    HistoryError,
    Solver,
    cache,
    limit,
    names,
    score,
    settings,
    trees,
)
from epdle.solver.bench import LATENCY_OPENERS
from epdle.solver.ranking import book, pure
from epdle.solver.ranking.pure import bounds as pure_bounds
from epdle.solver.ranking.pure import estimate as ranking
from epdle.solver.ranking.pure import hard as pure_hard
from epdle.solver.ranking.pure import kernel, matrix
from epdle.solver.ranking.pure import search as pure_search
from epdle.solver.ranking.stats import guess_stats
from epdle.solver.scoring import pattern_code
from epdle.solver.universe import Universe


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> tuple[Solver, Path]:
    """The Solver on the shipped lists, normal mode, and the cache holding its matrix."""
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EPDLE_CACHE_DIR", str(cache))
        solver = Solver("best")
        solver.universe.patterns  # noqa: B018 (builds the pattern matrix into the cache)
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
    for opener in LATENCY_OPENERS:
        answer = sample.choice(answers)
        histories.append([(opener, score(opener, answer))])
    return histories


def _size_class(left: int) -> str:
    if left <= 2:
        return "two or fewer"
    if left <= settings.SEARCH_MAX_CANDIDATES[False]:
        return "searched"
    return "looked ahead" if left <= settings.LOOKAHEAD_MAX_CANDIDATES[False] else "ranked only"


def _compared(solver: Solver, histories: list[list[tuple[str, str]]], top: int) -> set[int]:
    """cold_advice against the Solver on each history: the same advice wherever it
    answers, and it answers almost every one, of every size class; the turns it answered.
    (As the fast path gives it: where the guard at the guess limit would change its
    suggestions, the Solver answers, epdle.solver.limit.)"""
    answered, guarded, kinds, turns = 0, 0, set(), set()
    for history in histories:
        fast = cold_advice(history, solver.hard, top)
        if fast is not None and not fast.solved:
            shown = [suggestion.word for suggestion in fast.suggestions]
            if not limit.shown_unchanged(shown, fast.candidates, len(history), solver.hard):
                guarded += 1
                continue
        if fast is None:
            continue
        answered += 1
        solver.forget_rankings()  # a fresh search, as a process starts with
        assert_same_advice(fast, solver.engine_advice(history, top=top))
        kinds.add(_size_class(fast.candidates_left))
        turns.add(len(history))
    # The rest: estimates that numpy's rounding may order either way.
    assert answered >= 0.9 * (len(histories) - guarded)
    assert kinds == {"two or fewer", "searched", "looked ahead", "ranked only"}
    return turns


@pytest.mark.parametrize(("top", "seed"), [(5, 1), (1, 2), (12, 3)])
def test_cold_advice_equals_the_solver_off_the_tree(solver, top, seed):
    _compared(solver, _off_tree_histories(solver, 45, seed), top)


@pytest.mark.parametrize(
    "history", [[("slate", "GYYBB")], [("adieu", "GYBYB")], [("crane", "BYGBY")]]
)
def test_few_candidates_that_thousands_of_guesses_split_apart_rank_as_the_solver(solver, history):
    # Three to nine left: thousands of guesses tie at the cost of splitting them apart,
    # and only the first few of those in list order are read.
    assert len(solver.state_after(history).candidates) <= 9
    fast = cold_advice(history, False, 12)
    assert fast is not None
    solver.forget_rankings()
    assert_same_advice(fast, solver.engine_advice(history, 12))


@pytest.fixture(scope="module")
def shipped_hard(shipped) -> Solver:
    """The Solver on the shipped lists in hard mode, on the same cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EPDLE_CACHE_DIR", str(shipped[1]))
        solver = Solver("best", hard=True)
        solver.universe.patterns  # noqa: B018 (read from the cache while it is set)
    return solver


@pytest.fixture
def hard(shipped_hard, shipped, monkeypatch) -> Solver:
    monkeypatch.setenv("EPDLE_CACHE_DIR", str(shipped[1]))
    return shipped_hard


def _hard_histories(solver: Solver, count: int, seed: int) -> list[list[tuple[str, str]]]:
    """`count` hard-mode games off the shipped tree: the latency bench's openers, then
    random first guesses, each against a random answer; as often a second turn, or a
    second and a third, as none: the Solver's guess or a random one the hints allow."""
    sample = random.Random(seed)
    answers = list(words.answers())
    tree = trees.load_or_build_tree(solver.universe, True)
    histories: list[list[tuple[str, str]]] = []
    openers = [opener for opener in LATENCY_OPENERS if opener != tree[""]]
    while len(histories) < count:
        answer = sample.choice(answers)
        if openers:
            opener = openers.pop()
            histories.append([(opener, score(opener, answer))])
            continue
        opener = sample.choice(solver.universe.guesses)
        history = [(opener, score(opener, answer))]
        for _ in range(sample.choice([0, 1, 2])):
            state = solver.state_after(history)
            if state.solved:
                break
            if sample.random() < 0.5:
                guess = solver.next_guess(state)
            else:
                assert state.allowed is not None
                allowed = np.flatnonzero(state.allowed)
                guess = solver.universe.guesses[int(sample.choice(allowed))]
            history.append((guess, score(guess, answer)))
        if book.path_key(history) not in tree:
            histories.append(history)
    return histories


@pytest.mark.parametrize(("top", "seed"), [(5, 11), (1, 12), (12, 13)])
def test_cold_advice_in_hard_mode_equals_the_solver(hard, top, seed):
    assert _compared(hard, _hard_histories(hard, 45, seed), top) == {1, 2, 3}


@pytest.mark.parametrize(
    "history",
    [
        [("latch", "BGGGG")],  # _ATCH: six words, none to split them, five guesses left
        [("fight", "BGGGG")],
        [("crane", "BBBGB"), ("mound", "BGGGG")],
    ],
)
def test_a_hard_mode_family_the_beam_cannot_finish_is_rescued_as_by_the_solver(
    hard, history, monkeypatch
):
    # Hard mode allows only the family's own words: no guess in the beam finds every one
    # in time, so the search tries its rescue guesses, then relaxes the limit.
    rescued = []
    rescue = pure_search.Search._rescue

    def spy(self, *args):
        rescued.append(rescue(self, *args))
        return rescued[-1]

    monkeypatch.setattr(pure_search.Search, "_rescue", spy)
    fast = cold_advice(history, True)
    assert fast is not None and rescued
    hard.forget_rankings()
    assert_same_advice(fast, hard.engine_advice(history))


def test_hard_mode_leaves_to_the_solver_what_it_cannot_answer(hard):
    crane = [("crane", score("crane", "cloud"))]
    assert pure.cold_advice(crane, True) is not None
    opener = trees.load_or_build_tree(hard.universe, True)[""]
    assert pure.cold_advice([(opener, score(opener, "cloud"))], True) is None  # on the tree
    # CRANE BBBBG keeps E last: FUZZY breaks the rule, and the Solver says so.
    broken = [("crane", "BBBBG"), ("fuzzy", "BBBBB")]
    assert pure.cold_advice(broken, True) is None
    with pytest.raises(HistoryError, match="hard mode"):
        hard.advise(broken)
    solved = [("crane", score("crane", "globe")), ("globe", "GGGGG")]
    assert cold_advice(solved, True) == hard.engine_advice(solved)


@pytest.mark.parametrize(
    "history",
    [[("crane", "GGBBB")], [("crane", "BGBGB")], [("crane", "BBBYG")], [("slate", "BBGBY")]],
)
def test_the_search_past_a_perfect_split_equals_the_solvers(solver, history):
    state = solver.state_after(history)
    assert 2 < len(state.candidates) <= settings.SEARCH_MAX_CANDIDATES[False]
    stats = guess_stats(solver.universe, state.candidates)
    assert not (stats.buckets == len(state.candidates)).any()  # no guess splits them apart
    fast = cold_advice(history, False)
    assert fast is not None
    solver.forget_rankings()
    assert_same_advice(fast, solver.engine_advice(history))


@pytest.mark.parametrize(
    "history", [[("xylyl", "BBYBB")], [("mamma", "BGBBB")], [("adieu", "YBBBB")]]
)
def test_the_look_ahead_past_its_pool_equals_the_solvers(solver, history):
    # More candidates than the pool takes words from: some buckets' words are not in it.
    left = len(solver.state_after(history).candidates)
    assert settings.LOOKAHEAD_POOL < left <= settings.LOOKAHEAD_MAX_CANDIDATES[False]
    fast = cold_advice(history, False)
    assert fast is not None
    solver.forget_rankings()
    assert_same_advice(fast, solver.engine_advice(history))


def test_the_cost_curve_is_exact_and_whole_for_small_buckets():
    curve = settings.cost_curve(30)
    assert curve[:5] == [0.0, 1.0, 3.0, 5.0, 7.0]  # 2 n - 1: each but the first costs two
    assert curve[5] > 9.0  # past the exact part, more than two guesses a word


def test_it_leaves_to_the_solver_what_it_cannot_answer(solver, tmp_path, monkeypatch):
    crane = [("crane", score("crane", "cloud"))]
    assert pure.cold_advice(crane, False) is not None
    assert pure.cold_advice([], False) is None  # the opening is the tree's
    opener = trees.load_or_build_tree(Universe.shipped(), False)[""]
    assert pure.cold_advice([(opener, "BBBBB")], False) is None  # on the tree
    assert pure.cold_advice(crane, False, names.MAX_SUGGESTIONS + 1) is None
    assert pure.cold_advice([("zzzzz", "BBBBB")], False) is None  # the Solver words it
    assert pure.cold_advice([("crane", "GGGGY")], False) is None  # no word fits
    solved = pure.cold_advice([("crane", "GGGGG")], False)
    assert solved is not None and solved.solved and solved.answer == "crane"
    monkeypatch.setenv("EPDLE_CACHE_DIR", str(tmp_path))  # no matrix cached here
    assert pure.cold_advice(crane, False) is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_entropy_bound_is_never_below_the_entropy(solver, seed):
    universe = solver.universe
    sample = np.random.default_rng(seed)
    size = [5, 60, 700][seed]
    candidates = np.sort(sample.choice(len(universe.answers), size, replace=False))
    bounds = pure_bounds.entropy_bounds(
        [universe.answers[a] for a in candidates], len(universe.guesses)
    )
    bits = guess_stats(universe, candidates).bits
    assert (np.array(bounds) >= bits - 1e-9).all()
    assert max(bounds) <= math.log2(size) + 1e-12


def test_a_stale_shapes_cache_is_rebuilt(solver, shipped):
    # Enough candidates that the ranking bounds guesses by their letters (by shape).
    xylyl = [("xylyl", score("xylyl", "snort"))]
    left = len(solver.state_after(xylyl).candidates)
    assert left * len(solver.universe.guesses) > ranking.COUNTED_WORK
    matrix.shapes.cache_clear()
    path = shipped[1] / f"cold-shapes-{matrix.shipped_key()}.json"
    path.write_text(json.dumps({"lists": "other", "shapes": []}))
    solver.forget_rankings()
    assert_same_advice(cold_advice(xylyl, False), solver.engine_advice(xylyl))
    assert json.loads(path.read_text())["lists"] == matrix.shipped_key()


# What a one-shot suggest does without: the numpy engine, the other layers' libraries, the
# path and resource machinery the shipped files are read without, and the standard
# library's typing, shutil and hashlib (each a few ms; tests/cli/test_cold_start.py).
NOT_LOADED = (
    "{'numpy', 'PIL', 'serial', 'pathlib', 'importlib.resources', 'tempfile', 'typing', "
    "'shutil', 'hashlib'}"
)


def _second_run(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`python -c code` after a first run of it has written the caches a first run writes."""
    for _ in range(2):
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    return run


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_a_cold_suggest_off_the_tree_loads_no_numpy(shipped, shipped_hard, mode):
    solver = shipped_hard if mode == "hard" else shipped[0]
    history = [("xylyl", score("xylyl", "cloud"))]
    if mode == "hard":  # a second turn too, the hints binding it
        history.append(("level", score("level", "cloud")))
    text = ",".join(f"{guess}:{feedback}" for guess, feedback in history)
    flags = ["--hard"] if mode == "hard" else []
    code = (
        "import sys; from epdle.cli import main; "
        f"main(['suggest', '--prior', 'uniform', *{flags!r}, '--history', {text!r}, '--json']); "
        f"print(sorted(({NOT_LOADED} | {{'rich'}}) & set(sys.modules)))"
    )
    env = {"EPDLE_CACHE_DIR": str(shipped[1]), "PATH": "/usr/bin:/bin"}
    run = _second_run(code, env)
    assert run.returncode == 0, run.stderr
    advice_line, loaded = run.stdout.strip().splitlines()
    assert loaded == "[]"
    advice = json.loads(advice_line)
    slow = solver.engine_advice(history)
    assert [s["word"] for s in advice["suggestions"]] == [s.word for s in slow.suggestions]
    assert advice["candidates"] == slow.candidates


@pytest.mark.parametrize("opener", ["xylyl", "crane"])
def test_a_cold_suggest_as_text_loads_no_numpy(solver, shipped, opener):
    # What a user sees: the table, printed without rich and without the numpy engine.
    history = [(opener, score(opener, "cloud"))]
    text = ",".join(f"{guess}:{feedback}" for guess, feedback in history)
    code = (
        "import sys; from epdle.cli import main; "
        f"main(['suggest', '--prior', 'uniform', '--history', {text!r}]); "
        f"print(sorted(({NOT_LOADED} | {{'rich'}}) & set(sys.modules)), file=sys.stderr)"
    )
    env = {"EPDLE_CACHE_DIR": str(shipped[1]), "PATH": "/usr/bin:/bin", "COLUMNS": "80"}
    run = _second_run(code, env)
    assert run.returncode == 0, run.stderr
    assert run.stderr.strip() == "[]"
    ranked = [line.split()[1] for line in run.stdout.splitlines() if line.split()[:1] == ["1"]]
    assert ranked == [solver.engine_advice(history).suggestions[0].word.upper()]


@pytest.mark.parametrize("size", [1, 2, 40, 700])
def test_the_kernel_counts_each_guesss_buckets(solver, size):
    # Against a plain count of the codes, over every guess: the sum in the order the codes
    # first occur over the candidates, exactly as a count in Python sums it.
    universe = solver.universe
    sample = random.Random(size)
    members = sample.sample(range(len(universe.answers)), size)  # any order
    rows = matrix.Rows(matrix.shipped_matrix(), members)
    sums, parts = rows.stats()
    clc = matrix.count_log_count(size)
    patterns = universe.patterns
    for guess in [*range(0, len(universe.guesses), 37), len(universe.guesses) - 1]:
        sizes = Counter(int(patterns[a, guess]) for a in members).values()
        assert sums[guess] == sum(clc[c] for c in sizes)
        assert parts[guess] == len(sizes) - 1


def test_the_kernel_counts_over_gathered_columns_as_over_the_matrix(solver):
    sample = random.Random(5)
    members = sample.sample(range(len(solver.universe.answers)), 30)
    pool = sample.sample(range(len(solver.universe.guesses)), 500)
    whole = matrix.shipped_matrix()
    gathered = matrix.Gathered(whole, members, pool)
    part = [3, 29, 0, 17]  # positions among the members
    groups = [part, [5, 6], [1]]
    in_pool = matrix.bucket_stats(gathered, groups, gathered.every_guess)
    in_matrix = matrix.bucket_stats(
        whole, [[members[i] for i in group] for group in groups], array("H", pool)
    )
    assert in_pool == in_matrix
    one_group = matrix.bucket_stats(gathered, [[5, 6]], gathered.every_guess)
    assert one_group[0] == in_pool[0][500:1000] and one_group[1] == in_pool[1][500:1000]
    assert gathered.column(7, part) == whole.column(pool[7], [members[i] for i in part])


def test_without_the_kernel_the_solver_answers(solver, tmp_path, monkeypatch):
    crane = [("crane", score("crane", "cloud"))]
    monkeypatch.setattr(pure, "__path__", [str(tmp_path)])  # where no library is
    kernel._library.cache_clear()
    try:
        assert pure.cold_advice(crane, False) is None
        with pytest.raises(kernel.KernelMissing, match="not installed"):
            matrix.Rows(matrix.shipped_matrix(), [1, 2]).stats([0])
        (tmp_path / kernel.LIBRARY_NAME).write_text("not a library")
        kernel._library.cache_clear()
        assert pure.cold_advice(crane, False) is None
    finally:
        kernel._library.cache_clear()


def _partitions(n: int, parts: int, largest: int | None = None) -> list[list[int]]:
    """Every way to write n as `parts` positive sizes, largest first."""
    largest = n if largest is None else largest
    if parts == 1:
        return [[n]] if n <= largest else []
    return [
        [first, *rest]
        for first in range(min(n - parts + 1, largest), 0, -1)
        for rest in _partitions(n - first, parts - 1, first)
    ]


@pytest.mark.parametrize("n", [1, 2, 7, 12])
def test_balanced_entropy_is_the_most_entropy_of_as_many_buckets(n):
    clc = matrix.count_log_count(n)
    for parts in range(1, n + 1):
        entropies = [matrix.entropy(sizes, n) for sizes in _partitions(n, parts)]
        assert pure_bounds.balanced_entropy(n, parts, clc) == pytest.approx(
            max(entropies), abs=1e-12
        )


def test_the_feedback_floor_order_yields_each_guess_once_lowest_floor_first():
    feedbacks = bytes([3, 0, 2, 3, 1, 0, 3, 2])
    inside = {2, 6}

    def floor(parts: int, candidate: bool) -> float:
        return 10.0 - parts - 1.5 * candidate

    order = list(pure_bounds.feedback_floor_order(feedbacks, inside, floor, fewest=2))
    assert sorted(guess for _, guess in order) == [0, 2, 3, 4, 6, 7]  # 1 and 5: one feedback
    assert [value for value, _ in order] == sorted(value for value, _ in order)
    assert all(value == floor(feedbacks[g] + 1, g in inside) for value, g in order)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_feedback_bound_is_never_below_the_entropy(solver, seed):
    # The ranking's bound for few candidates: exact feedbacks, evenly filled.
    universe = solver.universe
    sample = np.random.default_rng(seed)
    candidates = np.sort(
        sample.choice(len(universe.answers), [3, 24, ranking.PARTS_RANKING][seed], replace=False)
    )
    rows = matrix.Rows(matrix.shipped_matrix(), [int(a) for a in candidates])
    stats = guess_stats(universe, candidates)
    assert list(rows.bucket_counts()) == list(stats.buckets - 1)
    bounds = [
        pure_bounds.balanced_entropy(rows.n, more + 1, rows.clc) for more in rows.bucket_counts()
    ]
    assert (np.array(bounds) >= stats.bits - 1e-9).all()


@pytest.mark.parametrize("size", [2, 3, 9, 30, 70])
def test_the_finish_cost_is_the_cheapest_pool_guess(solver, size):
    # The bound-pruned search against every pool guess tried, on real rows.
    universe = solver.universe
    sample = random.Random(size)
    bucket = sorted(sample.sample(range(len(universe.answers)), size))
    own = [universe.guesses.index(universe.answers[a]) for a in bucket]
    pool = sample.sample(range(len(universe.guesses)), 200) + own[: size // 2]
    pooled = matrix.Gathered(matrix.shipped_matrix(), bucket, pool)
    codes = [[pooled.column(i, [r])[0] for i in range(len(pool))] for r in range(size)]
    members = list(range(200, len(pool)))
    whole = math.log2(size)

    def cost(i: int) -> float:
        column = [row[i] for row in codes]
        bits = matrix.entropy(list(Counter(column).values()), size)
        return settings.estimated_cost(bits, 1.0 / size if i in members else 0.0, whole)

    expected = min(map(cost, range(len(pool))))
    bucket = list(range(size))
    stats = matrix.bucket_stats(pooled, [bucket], pooled.every_guess)
    found = ranking.finish_cost(pooled, bucket, members, stats)
    assert found == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("rule", ["its own words", "all but the cheapest", "none"])
def test_the_hard_finish_cost_charges_traps_among_the_guesses_that_follow(solver, rule):
    # ?IGHT: each of its own words leaves the others in one pinned family (BGGGG).
    universe = solver.universe
    bucket = [a for a, word in enumerate(universe.answers) if word.endswith("ight")]
    size = len(bucket)
    own = [universe.guesses.index(universe.answers[a]) for a in bucket]
    pool = random.Random(size).sample(range(len(universe.guesses)), 150) + own[:3]
    members = list(range(150, len(pool)))
    pooled = matrix.Gathered(matrix.shipped_matrix(), bucket, pool)
    codes = [[pooled.column(i, [r])[0] for i in range(len(pool))] for r in range(size)]
    trap = ranking.Trap(settings.TRAP_PENALTY_NEXT, 2, universe.length)
    pinned = settings.pinned_feedbacks(universe.length)

    def charge(i: int) -> float:
        sizes = Counter(row[i] for row in codes)
        caught = sum(count for code, count in sizes.items() if pinned[code] and count > 2)
        return trap.penalty * caught / size

    def cost(i: int) -> float:
        bits = matrix.entropy(list(Counter(row[i] for row in codes).values()), size)
        chance = 1.0 / size if i in members else 0.0
        return settings.estimated_cost(bits, chance, math.log2(size)) + charge(i)

    cheapest = min(range(len(pool)), key=cost)
    follows = {
        "its own words": members.__contains__,  # each charged: it leaves the rest pinned
        "all but the cheapest": cheapest.__ne__,
        "none": lambda i: False,  # none may follow: any pool guess finishes it
    }[rule]
    tried = [i for i in range(len(pool)) if follows(i)] or list(range(len(pool)))
    assert all(charge(i) > 0 for i in members)
    expected = min(map(cost, tried))
    bucket = list(range(size))
    stats = matrix.bucket_stats(pooled, [bucket], pooled.every_guess)
    followers = [i for i in range(len(pool)) if follows(i)]
    found = ranking.finish_cost(pooled, bucket, members, stats, trap, followers)
    assert found == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_hints_allow_the_guesses_the_solver_allows(hard, seed):
    sample = random.Random(seed)
    guesses = matrix.shipped_lists_indexed()[0]
    assert guesses == hard.universe.guesses
    for _ in range(8):
        answer, history = sample.choice(hard.universe.answers), []
        for _ in range(3):
            state = hard.state_after(history)
            assert state.allowed is not None
            guess = guesses[int(sample.choice(np.flatnonzero(state.allowed)))]
            history.append((guess, score(guess, answer)))
            allowed = hard.state_after(history).allowed
            assert pure_hard.history_allowed(history, guesses) == tuple(np.flatnonzero(allowed))
    # A guess that breaks the rule: no allowed guesses, the Solver words the error.
    assert pure_hard.history_allowed([("crane", "BBBBG"), ("fuzzy", "BBBBB")], guesses) is None


@pytest.mark.parametrize("seed", [0, 1])
def test_the_pools_hints_allow_what_the_hints_allow(hard, seed):
    # The look's per-bucket rule, by bits over the pool, against the rule word by word.
    sample = random.Random(seed)
    guesses = hard.universe.guesses
    pool = sample.sample(range(len(guesses)), 400)
    pool += [guesses.index(word) for word in ("eerie", "geese", "mamma", "sissy")]
    hints = pure_hard.PoolHints(guesses, pool)
    for _ in range(40):
        guess = guesses[sample.choice(pool)]
        answer = sample.choice(hard.universe.answers)
        code = pattern_code(score(guess, answer))
        expected = pure_hard.after_feedback(guess, code, guesses, pool)
        assert [pool[i] for i in hints.followers(guess, code)] == expected


def test_the_entropy_bound_of_a_repeated_letter_is_its_marks(solver):
    # Candidates without S, H or P: SHEEP's feedback is the marks of its two Es alone, so
    # the bound (each letter with all its copies) is the entropy itself.
    universe = solver.universe
    candidates = np.array(
        [a for a, word in enumerate(universe.answers) if not set(word) & set("shp")]
    )
    sheep = universe.guesses.index("sheep")
    bounds = pure_bounds.entropy_bounds(
        [universe.answers[a] for a in candidates], len(universe.guesses)
    )
    assert bounds[sheep] == pytest.approx(guess_stats(universe, candidates).bits[sheep], abs=1e-9)


@pytest.mark.parametrize("size", [10, 1024, ranking.LETTERS_SORTED_FIRST, 13000])
def test_highest_first_is_a_stable_sort_by_bound(size):
    sample = random.Random(size)
    bounds = [
        sample.choice([0.5, 1.0, 2.0]) if sample.random() < 0.3 else sample.random()
        for _ in range(size)
    ]
    expected = sorted(range(size), key=bounds.__getitem__, reverse=True)
    for first in (1024, ranking.LETTERS_SORTED_FIRST):
        assert list(pure_bounds.highest_first(bounds, first)) == expected


def test_the_floor_order_merges_candidates_in():
    sample = random.Random(4)
    bounds = [sample.random() * 5 for _ in range(5000)]
    inside = set(sample.sample(range(5000), 40))
    order = list(pure_bounds.floor_order(bounds, inside, 0.1, 5.0, 1024))
    expected = sorted(
        (settings.estimated_cost(b, 0.1 if g in inside else 0.0, 5.0), g)
        for g, b in enumerate(bounds)
    )
    assert order == expected


def test_guess_index_finds_words_in_any_order():
    assert matrix.guess_index(["ab", "cd", "ef"], "cd") == 1  # sorted: by bisection
    assert matrix.guess_index(["ef", "ab", "cd"], "ab") == 1  # unsorted: by a scan
    assert matrix.guess_index(["ab", "cd"], "zz") is None


@pytest.mark.parametrize("stale", ["other lists", "not a list", "wrong places"])
def test_a_stale_answers_cache_is_rebuilt(solver, shipped, stale):
    crane = [("crane", score("crane", "cloud"))]
    key, count = matrix.shipped_key(), len(solver.universe.answers)
    document = {
        "other lists": {"lists": "other", "answers": list(range(count))},
        "not a list": {"lists": key, "answers": "0, 1, 2"},
        "wrong places": {"lists": key, "answers": list(range(count))},  # fresh by its key
    }[stale]
    matrix.shipped_lists_indexed.cache_clear()
    path = shipped[1] / f"cold-shapes-{key}-answers.json"
    path.write_text(json.dumps(document))
    solver.forget_rankings()
    assert_same_advice(pure.cold_advice(crane, False), solver.engine_advice(crane))
    rebuilt = json.loads(path.read_text())
    answers = solver.universe.answers
    assert [solver.universe.guesses[g] for g in rebuilt["answers"]] == list(answers)
    assert path in cache.entries(shipped[1])  # `epdle cache` counts and clears it
