"""The multi-board endgame search in hard mode, against an independent exhaustive search
that holds every guess to the rule of at least one open board (scoring.hard_mode_break)
after each feedback."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from epdle.solver.multi import MultiSolver
from epdle.solver.multi import engine as multi_engine
from epdle.solver.multi.endgame import LOST, EndgameSearch
from epdle.solver.multi.hard_rule import HardRule
from epdle.solver.scoring import hard_mode_break, score
from epdle.solver.universe import Universe

# Two boards, one guess played: board 1 ACTOR or ALTAR, board 2 AFTER or ALTER (E green
# in 4th place): ACTOR and ALTAR keep board 1's hints only, the probes REFEL, ICHED and
# TOAZE no board's.
ANSWERS = ["actor", "after", "altar", "alter"]
PROBES = ["iched", "refel", "teres", "toaze"]
HIDDEN = ("after", "altar")
PLAYED = "teres"
# Two boards, both down to the same five words after STYLO (S and T revealed): the best
# guess without the rule, LEECH, keeps neither board's hints.
ASTE = ["baste", "caste", "haste", "paste", "waste"]
ASTE_PROBES = ["leech", "stylo", "thrae"]

Open = tuple[tuple[str, ...], tuple[tuple[str, str], ...]]  # candidates, history


def strict_search(guesses: list[str]):
    """(value, after): the expected guesses to finish every board, and 1 + those after a
    guess, by brute force on score(), every guess keeping all the hints of at least one
    open board; a game past the limit costs LOST."""

    def allowed(state: tuple[Open, ...]) -> list[str]:
        return [g for g in guesses if any(hard_mode_break(h, g) is None for _, h in state)]

    @cache
    def value(state: tuple[Open, ...], left: int) -> float:
        if not state:
            return 0.0
        if left == 0:
            return LOST
        return min(after(state, guess, left) for guess in allowed(state))

    @cache
    def after(state: tuple[Open, ...], guess: str, left: int) -> float:
        splits = []
        for board, history in state:
            parts: dict[str, list[str]] = {}
            for word in board:
                parts.setdefault(score(guess, word), []).append(word)
            split = []
            for feedback, words in parts.items():
                still = (
                    None if feedback == "GGGGG" else (tuple(words), (*history, (guess, feedback)))
                )
                split.append((len(words) / len(board), still))
            splits.append(split)
        unchanged = all(
            len(split) == 1 and split[0][1] is not None and split[0][1][0] == board
            for split, (board, _) in zip(splits, state, strict=True)
        )
        if unchanged:
            return LOST  # it tells nothing and solves nothing
        total = 0.0
        for outcome in itertools.product(*splits):
            chance = 1.0
            for c, _ in outcome:
                chance *= c
            total += chance * value(tuple(sorted(p for _, p in outcome if p is not None)), left - 1)
        return 1.0 + total

    return value, after


@pytest.fixture
def universe() -> Universe:
    return Universe(sorted(ANSWERS + PROBES), ANSWERS)


def played(solver: MultiSolver, hidden=HIDDEN, guess=PLAYED):
    history = [(guess, [score(guess, answer) for answer in hidden])]
    state = solver.state_after(history)
    boards = [tuple(sorted(board.candidates.tolist())) for board in state.boards]
    words = tuple(
        sorted(
            (tuple(solver.universe.answers[i] for i in b.candidates), b.history)
            for b in state.boards
        )
    )
    return state, boards, words


@pytest.mark.parametrize(
    ("answers", "probes", "hidden", "guess"),
    [(ANSWERS, PROBES, HIDDEN, PLAYED), (ASTE, ASTE_PROBES, ("waste", "haste"), "stylo")],
)
def test_hard_endgame_keeps_the_rule_to_the_end(answers, probes, hidden, guess):
    universe = Universe(sorted(answers + probes), answers)
    solver = MultiSolver(2, hard=True, universe=universe)
    state, boards, words = played(solver, hidden, guess)
    left = solver.max_guesses - state.used
    rules = [HardRule.of(board.history) for board in state.boards]
    indexes = [universe.guess_index[word] for word in probes]
    hard = EndgameSearch(universe, indexes, 4000, hard=True).rank(boards, left, rules)
    assert hard is not None
    # What is ranked is what keeps the hints of at least one board...
    histories = [board.history for board in state.boards]
    keeps = [w for w in universe.guesses if any(hard_mode_break(h, w) is None for h in histories)]
    assert sorted(universe.guesses[g] for g, _ in hard) == keeps
    # ...each at what it costs when every later guess keeps the rule too.
    value, after = strict_search(universe.guesses)
    for index, expected in hard:
        assert expected == pytest.approx(after(words, universe.guesses[index], left))
    assert hard[0][1] == pytest.approx(value(words, left))


def test_a_guess_keeping_one_boards_hints_is_ranked(universe):
    solver = MultiSolver(2, hard=True, universe=universe)
    state, boards, _ = played(solver)
    rules = [HardRule.of(board.history) for board in state.boards]
    probes = [universe.guess_index[word] for word in PROBES]
    hard = EndgameSearch(universe, probes, 4000, hard=True).rank(boards, 5, rules)
    assert hard is not None
    ranked = {universe.guesses[g] for g, _ in hard}
    altar = universe.guess_index["altar"]
    assert "altar" in ranked and not HardRule.of(state.boards[0].history).mask(universe)[altar]
    assert ranked.isdisjoint({"iched", "refel", "toaze"})


def test_the_rule_costs_what_the_search_without_it_saves():
    universe = Universe(sorted(ASTE + ASTE_PROBES), ASTE)
    solver = MultiSolver(2, hard=True, universe=universe)
    state, boards, _ = played(solver, ("waste", "haste"), "stylo")
    left = solver.max_guesses - state.used
    rules = [HardRule.of(board.history) for board in state.boards]
    probes = [universe.guess_index[word] for word in ASTE_PROBES]
    free = EndgameSearch(universe, probes, 4000).rank(boards, left)
    hard = EndgameSearch(universe, probes, 4000, hard=True).rank(boards, left, rules)
    assert free is not None and hard is not None
    leech = universe.guess_index["leech"]
    assert free[0][0] == leech
    assert all(hard_mode_break(board.history, "leech") for board in state.boards)
    # The search without the rule finishes WASTE's lines through guesses it forbids.
    waste = universe.guess_index["waste"]
    assert dict(free)[waste] < dict(hard)[waste] - 0.1


@pytest.mark.parametrize(
    ("answers", "probes", "hidden", "guess", "margin"),
    [
        # PARER leaves both boards on CHEER, SHEER, SNEER, STEER: the search's SNEER
        # finishes in 2.5 guesses on average, the estimate's CHEER in 2.625.
        (
            ["cheer", "sheer", "sneer", "steer"],
            ["absey", "doucs", "kagus", "kayak", "parer", "resow"],
            ("sneer", "steer"),
            "parer",
            0.1,
        ),
        # FUJIS reveals nothing: the search's DADDY finishes in 3.0 guesses on average,
        # the estimate's BADLY in 3.2.
        (
            ["badly", "caddy", "daddy", "madly", "paddy", "sadly"],
            ["areic", "fujis", "gamed", "istle", "maddy", "poach"],
            ("badly", "madly"),
            "fujis",
            0.15,
        ),
    ],
)
def test_hard_endgame_beats_the_estimate(answers, probes, hidden, guess, margin):
    universe = Universe(sorted(answers + probes), answers)
    solver = MultiSolver(2, hard=True, universe=universe)
    state, _, words = played(solver, hidden, guess)
    left = solver.max_guesses - state.used
    value, after = strict_search(universe.guesses)
    chosen = solver.ranked(state)[0]
    assert chosen[2] is None  # ranked by the search
    # The solver without its endgame search (the bench's switch) keeps to the estimate.
    estimated = MultiSolver(2, hard=True, universe=universe, endgame=False).ranked(state)[0]
    assert estimated[2] is not None
    best = value(words, left)
    assert after(words, universe.guesses[chosen[0]], left) == pytest.approx(best)
    assert after(words, universe.guesses[estimated[0]], left) > best + margin


def test_hard_endgame_past_its_budget_leaves_the_estimate(universe, monkeypatch):
    solver = MultiSolver(2, hard=True, universe=universe)
    state, _, _ = played(solver)
    assert all(summed is None for *_, summed in solver.ranked(state)[:3])
    monkeypatch.setattr(multi_engine, "ENDGAME_WORDS", 0)
    estimate = solver.ranked(state)
    monkeypatch.setattr(multi_engine, "ENDGAME_WORDS", 12)
    monkeypatch.setattr(multi_engine, "ENDGAME_STATES", 2)
    assert solver.ranked(state) == estimate


def test_a_rule_as_a_value_allows_what_the_history_allows(small_universe, small_answers):
    solver = MultiSolver(2, hard=True, universe=small_universe)
    hidden = small_answers[10], small_answers[70]
    history: list[tuple[str, list[str | None]]] = []
    for _ in range(2):
        guess = solver.next_guess(solver.state_after(history))
        history.append((guess, [score(guess, answer) for answer in hidden]))
    for board in solver.state_after(history).boards:
        rule = HardRule.of(board.history)
        assert rule.greens and rule.counts
        allowed = [hard_mode_break(board.history, w) is None for w in small_universe.guesses]
        assert rule.mask(small_universe).tolist() == allowed


@pytest.mark.parametrize("hard", [True, False])
def test_where_the_search_finds_guesses_equal_the_estimates_choice_is_kept(hard):
    # SANDY solves board 2 and leaves board 1 on BOXER, JOKER, POKER: JOKER or POKER tells
    # the other two apart (1.67 guesses on average), BOXER does not (2.0). The estimate
    # plays POKER, the commoner; the search played JOKER, the first by index: the two
    # differed, on such games, by luck alone.
    answers = ["boxer", "joker", "poker", "sandy"]
    universe = Universe(answers, answers)
    solver = MultiSolver(2, hard=hard, universe=universe)
    state, _, words = played(solver, ("poker", "sandy"), "sandy")
    words = tuple(entry for entry in words if entry[0] != ("sandy",))
    left = solver.max_guesses - state.used
    value, after = strict_search(universe.guesses)
    ranked = solver.ranked(state)
    assert ranked[0][2] is None  # ranked by the search
    values = {universe.guesses[g]: after(words, universe.guesses[g], left) for g, *_ in ranked}
    assert values["joker"] == values["poker"] == pytest.approx(value(words, left))
    assert values["boxer"] > values["poker"] + 0.3
    estimated = MultiSolver(2, hard=hard, universe=universe, endgame=False).ranked(state)[0]
    assert universe.guesses[estimated[0]] == "poker"
    assert ranked[0][0] == estimated[0]
