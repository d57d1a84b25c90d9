from __future__ import annotations

from collections import Counter

import pytest
from solver_hints import obeys_hints

from epdle.solver import STRATEGIES, HistoryError, Solver, score
from epdle.solver.bench import play, run_bench
from epdle.solver.universe import Universe


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_strategy_solves_every_word(strategy, hard, small_universe, small_answers):
    solver = Solver(strategy, hard, universe=small_universe)
    result = run_bench(solver, small_answers)
    assert result.games == len(small_answers)
    assert result.failures == 0
    assert result.max <= 6
    assert 2.0 < result.mean < 4.5
    if hard:
        for answer in small_answers[::7]:
            guesses = play(solver, answer)
            history = [(g, score(g, answer)) for g in guesses]
            for turn, guess in enumerate(guesses):
                assert obeys_hints(guess, history[:turn]), (answer, guesses)


def test_best_beats_the_one_ply_strategies(small_universe, small_answers):
    means = {
        strategy: run_bench(Solver(strategy, universe=small_universe), small_answers).mean
        for strategy in STRATEGIES
    }
    assert means["best"] <= min(means.values())


def _brute_force_buckets(universe: Universe, candidates: list[str], guess: str) -> Counter:
    return Counter(score(guess, answer) for answer in candidates)


def test_one_ply_choices_match_brute_force(small_universe):
    history = [("salet", score("salet", "brown"))]
    candidates = [a for a in small_universe.answers if score("salet", a) == history[0][1]]
    by_guess = {
        g: _brute_force_buckets(small_universe, candidates, g) for g in small_universe.guesses
    }

    def worst(guess: str) -> int:
        return max((c for p, c in by_guess[guess].items() if p != "GGGGG"), default=0)

    def expected(guess: str) -> float:
        n = len(candidates)
        return sum(c * c for p, c in by_guess[guess].items() if p != "GGGGG") / n

    def buckets(guess: str) -> int:
        return len(by_guess[guess])

    entropy = Solver("entropy", universe=small_universe).advise(history, top=3)
    assert entropy.candidates_left == len(candidates)
    most_buckets = max(buckets(g) for g in small_universe.guesses)
    assert buckets(entropy.suggestions[0].word) >= most_buckets - 1
    assert entropy.suggestions[0].bits >= entropy.suggestions[1].bits
    minimax = Solver("minimax", universe=small_universe).advise(history, top=1)
    assert worst(minimax.suggestions[0].word) == min(map(worst, small_universe.guesses))
    best_expected = Solver("expected", universe=small_universe).advise(history, top=1)
    top = best_expected.suggestions[0]
    assert top.expected_left == pytest.approx(expected(top.word))
    assert top.expected_left == pytest.approx(min(map(expected, small_universe.guesses)))


def test_advice_fields(small_universe):
    solver = Solver("entropy", universe=small_universe)
    advice = solver.advise([], top=4)
    assert advice.candidates_left == len(small_universe.answers)
    assert not advice.solved
    assert len(advice.suggestions) == 4
    assert all(0 < s.bits <= 8 for s in advice.suggestions)
    assert [s.bits for s in advice.suggestions] == sorted(
        (s.bits for s in advice.suggestions), reverse=True
    )
    answer = small_universe.answers[5]
    solved = solver.advise([("salet", score("salet", answer)), (answer, "GGGGG")])
    assert solved.solved and solved.suggestions == [] and solved.candidates == [answer]


def test_one_candidate_left_is_suggested(small_universe):
    answer = small_universe.answers[10]
    solver = Solver("minimax", universe=small_universe)
    history = []
    while True:
        advice = solver.advise(history, top=2)
        if advice.candidates_left == 1:
            assert advice.suggestions[0].word == answer
            assert advice.suggestions[0].is_candidate
            assert advice.suggestions[0].expected_left == 0
            break
        guess = advice.suggestions[0].word
        history.append((guess, score(guess, answer)))


@pytest.mark.parametrize(
    ("history", "message"),
    [
        ([("salet", "BBBBB"), ("qzxwv", "BBBBB")], r"guess 2 'qzxwv': not in the accepted"),
        ([("sale", "BBBB")], r"guess 1 'sale': has 4 letters"),
        (
            [("crane", "BBBBB"), ("clout", "GBBBB")],
            r"guess 2 'clout': feedback GBBBB: no word of the answer list fits it .* --blind plays",
        ),
        (
            [("salet", "BYBYB"), ("crane", "GGGGG"), ("slate", "BBBBB")],
            r"guess 3 'slate': the game was already solved",
        ),
        ([("salet", "BBQBB")], r"guess 1 'salet': feedback 'BBQBB'"),
    ],
)
def test_bad_history_raises_history_error(history, message):
    solver = Solver("entropy")
    with pytest.raises(HistoryError, match=message):
        solver.advise(history)
    assert issubclass(HistoryError, ValueError)


def test_unknown_strategy_is_rejected():
    with pytest.raises(ValueError, match="unknown strategy 'greedy'"):
        Solver("greedy")


def test_blind_mode_plays_over_all_accepted_words(small_guesses, small_answers):
    universe = Universe(small_guesses, None)
    assert universe.blind and universe.answers == small_guesses
    assert universe.weights.sum() == pytest.approx(1.0)
    solver = Solver("best", universe=universe)
    advice = solver.advise([])
    assert advice.candidates_left == len(small_guesses)
    result = run_bench(solver, small_answers)
    assert result.failures == 0 and result.blind


def test_blind_last_guess_plays_the_likely_word_rather_than_hedging_for_rare_ones():
    # Five guesses leave VAUNT (Zipf 1.4) and the never-used MAUNT / NAUNT: no guess can
    # find all three in the one guess left, so the likely word must be played, not the
    # splitter AEVUM that would only find any of them on a seventh guess.
    universe = Universe(
        ["abjad", "aevum", "clift", "gaunt", "haunt", "maunt", "naunt", "tarse", "vaunt"], None
    )
    solver = Solver("best", universe=universe)
    history = [(guess, score(guess, "vaunt")) for guess in ("tarse", "clift", "haunt", "gaunt")]
    history.append(("abjad", score("abjad", "vaunt")))
    advice = solver.advise(history)
    assert set(advice.candidates) == {"vaunt", "maunt", "naunt"}
    assert advice.suggestions[0].word == "vaunt"


def test_bench_rejects_hidden_words_the_solver_cannot_know(small_universe):
    with pytest.raises(ValueError, match="not possible answers"):
        run_bench(Solver("entropy", universe=small_universe), ["zzzzz"])


def test_best_off_its_tree_still_finishes_every_game(small_universe, small_answers):
    solver = Solver("best", universe=small_universe)
    opener = solver.advise([]).suggestions[0].word
    own_opener = next(w for w in small_universe.answers if w != opener)
    turns = []
    for answer in small_answers:
        history = [(own_opener, score(own_opener, answer))]
        while history[-1][1] != "GGGGG":
            guess = solver.advise(history, top=1).suggestions[0].word
            history.append((guess, score(guess, answer)))
        turns.append(len(history))
    assert max(turns) <= 6
    assert sum(turns) / len(turns) < 4.0


def test_the_ranking_memo_is_bounded() -> None:
    from epdle.solver.ranking.stats import BoundedMemo

    memo = BoundedMemo(3)
    for index in range(5):
        memo[bytes([index])] = [index]
    assert list(memo) == [bytes([2]), bytes([3]), bytes([4])]
