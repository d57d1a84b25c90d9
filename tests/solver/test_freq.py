"""The letter-frequency strategy: opener, letter split (free and hard mode), endgame."""

from __future__ import annotations

from collections import Counter

import pytest
from solver_hints import obeys_hints

from epdle.solver import Solver, score
from epdle.solver.bench import play
from epdle.solver.ranking.one_ply import SPLIT_MIN_CANDIDATES
from epdle.solver.universe import Universe

# Near-identical families that a candidate-only player walks through one by one.
OUND = ["bound", "found", "hound", "mound", "pound", "sound", "wound"]
ATCH = ["batch", "match", "patch", "watch", "latch"]
RA_E = ["grace", "brave", "frame", "drake", "drape", "erase"]
SPLITTERS = ["blimp", "whomp", "bumph", "damps", "frump", "gawks", "alert", "areal"]


def _solver(answers: list[str], hard: bool = False) -> Solver:
    return Solver("freq", hard, universe=Universe(answers + SPLITTERS, answers))


def _groups(guess: str, candidates: list[str]) -> int:
    """How many distinct feedbacks `guess` gets from the candidates."""
    return len(Counter(score(guess, answer) for answer in candidates))


def test_first_guess_is_the_candidate_with_the_most_frequent_letters():
    answers = RA_E + ATCH + OUND
    solver = _solver(answers)
    tiers = solver.universe.tiers
    # Letters are counted over the most frequent tier, whose words are guessed first.
    pool = [word for word, tier in zip(answers, tiers, strict=True) if tier == tiers.min()]
    having = Counter(letter for word in pool for letter in set(word))
    best = max(sum(having[letter] for letter in set(word)) for word in pool)
    first = solver.advise([], top=1).suggestions[0].word
    assert first in pool
    assert sum(having[letter] for letter in set(first)) == best


def test_a_family_agreeing_on_all_but_one_position_is_split_by_another_word():
    solver = _solver(ATCH)
    history = [("latch", score("latch", "batch"))]
    candidates = ["batch", "match", "patch", "watch"]
    assert solver.advise(history).candidates_left == len(candidates)
    guess = solver.advise(history, top=1).suggestions[0]
    assert not guess.is_candidate
    # Any candidate leaves three of them together; the split word tells more apart.
    assert _groups(guess.word, candidates) > max(_groups(word, candidates) for word in candidates)


def test_a_family_sharing_letters_in_different_places_is_split_too():
    solver = _solver(RA_E)
    history = [("areal", score("areal", "drape"))]
    left = solver.advise(history, top=1)
    assert left.candidates_left == len(RA_E)
    guess = left.suggestions[0].word
    assert guess not in RA_E
    assert _groups(guess, RA_E) > max(_groups(word, RA_E) for word in RA_E)
    for answer in RA_E:
        assert len(play(solver, answer)) <= 6, answer


def test_hard_mode_splits_with_an_allowed_word_while_one_exists():
    solver = _solver(OUND, hard=True)
    history = [("alert", score("alert", "hound"))]  # all grey: every word is still allowed
    guess = solver.advise(history, top=1).suggestions[0].word
    assert guess not in OUND
    assert obeys_hints(guess, history)
    assert _groups(guess, OUND) > max(_groups(word, OUND) for word in OUND)


def test_hard_mode_guesses_candidates_when_the_hints_allow_nothing_else():
    solver = _solver(OUND, hard=True)
    history = [("sound", score("sound", "hound"))]  # ?OUND: only the family is allowed
    for suggestion in solver.advise(history, top=3).suggestions:
        assert suggestion.is_candidate
        assert obeys_hints(suggestion.word, history)


@pytest.mark.parametrize("hard", [False, True])
def test_few_candidates_are_guessed_rather_than_split(hard):
    solver = _solver(ATCH, hard)
    history = [("whomp", score("whomp", "batch"))]  # leaves batch, latch
    advice = solver.advise(history, top=1)
    assert advice.candidates_left < SPLIT_MIN_CANDIDATES
    assert advice.suggestions[0].is_candidate


def test_anagrams_no_letter_can_split_are_guessed_directly():
    anagrams = ["least", "slate", "stale", "steal"]
    solver = _solver(anagrams + OUND)
    history = [("whomp", score("whomp", "slate"))]  # all grey: no yellow to move either
    advice = solver.advise(history, top=1)
    assert advice.candidates_left == len(anagrams) >= SPLIT_MIN_CANDIDATES
    assert advice.suggestions[0].word in anagrams


def test_hard_mode_guard_keeps_the_games_the_letter_rule_alone_loses(monkeypatch):
    from epdle.solver import limit_guard
    from epdle.solver.ranking import best as policy

    # After LATER and SOWER, the letter rule walks into the _O_ER family.
    lost = ["foyer", "boxer", "roger"]
    monkeypatch.setattr(policy, "GUARD_CANDIDATES", 0)
    monkeypatch.setattr(limit_guard, "LOOKED_AT", 0)  # nor the guard at the guess limit
    unguarded = Solver("freq", hard=True, universe=Universe.shipped(lists="original"))
    assert all(len(play(unguarded, answer)) > 6 for answer in lost)
    monkeypatch.undo()
    guarded = Solver("freq", hard=True, universe=unguarded.universe)
    for answer in lost:
        guesses = play(guarded, answer)
        assert len(guesses) <= 6 and guesses[-1] == answer
        history = [(guess, score(guess, answer)) for guess in guesses]
        assert all(obeys_hints(g, history[:turn]) for turn, g in enumerate(guesses))
        # The guard starts at the second guess: the opening is the letter rule's.
        assert guesses[0] == play(unguarded, answer)[0]


def test_hard_mode_guard_keeps_the_letter_rules_pick_while_it_is_safe(monkeypatch):
    from epdle.solver import search
    from epdle.solver.ranking import best as policy

    limits = policy.GUARD_CANDIDATES
    monkeypatch.setattr(policy, "GUARD_CANDIDATES", 0)
    unguarded = _solver(OUND + ATCH, hard=True)
    monkeypatch.setattr(policy, "GUARD_CANDIDATES", limits)
    guarded = _solver(OUND + ATCH, hard=True)
    check = search.FinishCheck(guarded.universe)
    index = guarded.universe.guess_index
    kept = 0
    for answer in OUND + ATCH:
        history = [("alert", score("alert", answer))]
        state = guarded.state_after(history)
        own = unguarded.advise(history, 1).suggestions[0].word
        played = guarded.advise(history, 1).suggestions[0].word
        if check.safe(state.candidates, state.allowed, index[own], 5):
            assert played == own
            kept += 1
        else:
            assert check.safe(state.candidates, state.allowed, index[played], 5)
    assert kept > 0
