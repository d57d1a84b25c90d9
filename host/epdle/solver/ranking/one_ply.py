"""The one-ply rankings: letter frequency (freq) and one guess ahead (entropy, expected,
minimax), for one game state. `best` ranks in epdle.solver.ranking.best."""

from __future__ import annotations

import numpy as np

from epdle.solver.ranking.stats import GuessStats, allowed_guesses, guess_stats, likelier_first
from epdle.solver.settings import RANKED_KEPT
from epdle.solver.state import GameState
from epdle.solver.universe import ALPHABET_SIZE, Universe

# freq splits the candidates with any word (rows 2-3) from this many on; fewer, it
# guesses one of them (3 / 4 / 5: normal 3.6130 / 3.6078 / 3.6130 with 2 over six;
# hard 3.6683 / 3.6665 / 3.6721).
SPLIT_MIN_CANDIDATES = 4
# Below this split score (bonus included: a bare candidate has 1.5) no word separates the
# candidates, and the most letter-frequent candidate is guessed instead.
SPLIT_MIN_SCORE = 2.0
# What a possible answer's chance to win at once is worth in split points (1.0 / 1.25 /
# 1.5 / 2.0: normal 3.6130 / 3.6108 / 3.6078 / 3.6173 with 6 over six; hard 1.5 / 2.0:
# 3.6665 / 3.6678). Blind, a candidate less likely than average earns it in proportion
# (uncapped: blind 3.75 mean but 19 games over six, against 3.84 and 9).
CANDIDATE_BONUS = 1.5
# Trying a yellow letter at a new position, against the same letter's split (0.35 / 0.5
# / 0.7 / 1.0: normal 3.6030 with 1 over six / 3.6078 / 3.6099 / 3.6419; hard 3.6674 /
# 3.6665 / 3.6605 / 3.6834).
YELLOW_MOVE_WEIGHT = 0.5


def one_ply_ranked(universe: Universe, strategy: str, state: GameState) -> list[int]:
    """entropy / expected / minimax: the guesses by their one-ply statistic, best first."""
    candidates = state.candidates
    if len(candidates) <= 2:
        return likelier_first(universe, candidates)
    stats = guess_stats(universe, candidates, allowed_guesses(state))
    order = rank_one_ply(strategy, stats)
    return [int(stats.guesses[i]) for i in order[:RANKED_KEPT]]


def freq_ranked(universe: Universe, state: GameState) -> list[int]:
    """freq: the letter-frequency rule's guesses, best first."""
    opening = not state.history
    return freq_choice(universe, state.candidates, state.allowed, opening, state.yellow_letters())


def rank_one_ply(strategy: str, stats: GuessStats) -> np.ndarray:
    """Order (indexes into stats) from best to worst for entropy / expected / minimax."""
    # Rounding keeps float noise from beating the tie-break: what can win first, then the
    # more common word (GuessStats.common).
    bits = np.round(stats.bits, 9)
    expected = np.round(stats.expected_left, 9)
    ties = (stats.common, -stats.answer_probability)
    if strategy == "entropy":
        return np.lexsort((*ties, -bits))
    if strategy == "expected":
        return np.lexsort((*ties, expected))
    if strategy == "minimax":
        return np.lexsort((*ties, expected, stats.worst_left))
    raise ValueError(f"not a one-ply strategy: {strategy!r}")


def _words_with_letter(letters: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """For each letter a-z, how many of the words (rows of letter indexes) contain it.

    With `weights`, the summed weight of those words instead.
    """
    contains = np.zeros((len(letters), ALPHABET_SIZE))
    contains[np.arange(len(letters))[:, None], letters] = 1.0
    if weights is not None:
        contains *= weights[:, None]
    return contains.sum(axis=0)


def freq_choice(
    universe: Universe,
    candidates: np.ndarray,
    allowed: np.ndarray | None,
    opening: bool,
    yellow_letters: set[int],
) -> list[int]:
    """Letter-frequency play, as the simple published solvers do: guess indexes, best first.

    The first guess is the candidate with the most frequent letters. Later, with
    SPLIT_MIN_CANDIDATES or more left, any word (hard mode: any allowed word) is scored
    by how evenly its letters split the candidates (a free probe and a common-letter
    split in one rule); otherwise a candidate by letter frequency.
    """
    tiers = universe.tiers[candidates]
    pool = candidates[tiers <= tiers.min()]
    guess_contains = universe.guess_letter_counts > 0
    allowed_mask = np.ones(len(universe.guesses), dtype=bool) if allowed is None else allowed
    candidate_guesses = universe.answer_of_guess >= 0
    in_pool = np.zeros(len(universe.answers), dtype=bool)
    in_pool[pool] = True
    pool_guess = candidate_guesses & in_pool[np.maximum(universe.answer_of_guess, 0)]

    if not opening and len(candidates) >= SPLIT_MIN_CANDIDATES:
        # Each candidate's prior weight in units of an average candidate (1 unless blind).
        mass = universe.weights[candidates] * (len(candidates) / universe.weights[candidates].sum())
        split = _letter_split_scores(universe, candidates, mass, yellow_letters)
        chance = np.zeros(len(universe.guesses))
        chance[universe.guess_index_of_answers[candidates]] = np.minimum(1.0, mass)
        split += CANDIDATE_BONUS * chance
        split[~allowed_mask] = -1.0
        if split.max() >= SPLIT_MIN_SCORE:
            ties = (universe.common_rank, -pool_guess.astype(int))
            return list(np.lexsort((*ties, -split))[:50])
    # Pool words first, then the other candidates; each by letter-frequency score.
    letter_weight = _words_with_letter(universe.answer_letters[pool])
    in_candidates = np.zeros(len(universe.answers), dtype=bool)
    in_candidates[candidates] = True
    candidate_guess = candidate_guesses & in_candidates[np.maximum(universe.answer_of_guess, 0)]
    playable = np.flatnonzero(candidate_guess & allowed_mask)
    if len(playable) == 0:
        playable = np.flatnonzero(candidate_guess)
    score = (guess_contains[playable] * letter_weight).sum(axis=1)
    order = np.lexsort((universe.common_rank[playable], -score, ~pool_guess[playable]))
    return [int(playable[i]) for i in order[:50]]


def _letter_split_scores(
    universe: Universe,
    candidates: np.ndarray,
    mass: np.ndarray,
    yellow_letters: set[int],
) -> np.ndarray:
    """Per guess: how evenly its letters split the candidates, and where it moves yellows.

    A distinct letter held by candidates of mass k out of n separates min(k, n - k) of
    them from the rest whichever way the feedback goes; a letter every candidate has (or
    none) tells nothing. A yellow letter tried at another position earns the same
    measure, over the candidates with that letter there, times YELLOW_MOVE_WEIGHT.
    Blind, `mass` weighs each candidate by its prior (measured: blind 4.02 / 9 / 9 with
    every candidate counted once, 3.84 / 7 / 9 weighted; hard 4.06 -> 3.86).
    """
    letters = universe.answer_letters[candidates]
    n = len(candidates)
    having = _words_with_letter(letters, mass)
    contains = universe.guess_letter_counts > 0
    scores = (contains * np.minimum(having, n - having)).sum(axis=1)
    yellow = np.zeros(ALPHABET_SIZE, dtype=bool)
    yellow[list(yellow_letters)] = True
    for position in range(universe.length):
        there = np.bincount(letters[:, position], weights=mass, minlength=ALPHABET_SIZE)
        placed = np.minimum(there, n - there) * yellow
        scores += YELLOW_MOVE_WEIGHT * placed[universe.guess_letters[:, position]]
    # Weighted sums carry float noise that would otherwise decide ties.
    return np.round(scores, 9)
