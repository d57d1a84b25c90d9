"""`best`'s estimate with numpy: a guess's estimated guesses to finish (the entropy it
leaves, costed by the fitted curve) and the look one guess further on (two_ply_costs).
The numpy-free twin is epdle.solver.ranking.pure.estimate (a test holds them equal)."""

from __future__ import annotations

import numpy as np

from epdle.solver.patterns import candidate_rows
from epdle.solver.ranking.stats import GuessStats
from epdle.solver.scoring import pattern_string
from epdle.solver.settings import COST_DECIMALS, bits_to_guesses, pinned_feedbacks
from epdle.solver.universe import Universe


def candidate_bits(universe: Universe, candidates: np.ndarray) -> float:
    """Entropy of the hidden word's distribution over the candidates."""
    weights = universe.weights[candidates]
    weights = weights / weights.sum()
    return float(-(weights * np.log2(weights)).sum())


def expected_guess_costs(stats: GuessStats, uncertainty_bits: float) -> np.ndarray:
    """Estimated guesses to finish after each guess: it, plus a cost model of what stays.

    The feedback removes `bits` of the `uncertainty_bits`; the rest costs guesses by a
    fitted curve, and a guess that may be the answer saves it with that probability.
    """
    missed = np.maximum(1.0 - stats.answer_probability, 1e-12)
    # Entropy left given that the guess was not the answer (a hit leaves none).
    remaining_bits = np.maximum(0.0, uncertainty_bits - stats.bits) / missed
    return 1.0 + missed * bits_to_guesses(remaining_bits)


def rank_expected_guesses(stats: GuessStats, uncertainty_bits: float) -> np.ndarray:
    """Order by expected_guess_costs, cheapest first; equal costs: a possible answer
    first, then the more common word (GuessStats.common)."""
    cost = expected_guess_costs(stats, uncertainty_bits)
    rounded = np.round(cost, COST_DECIMALS)
    return np.lexsort((stats.common, -stats.answer_probability, rounded))


def two_ply_costs(
    universe: Universe,
    candidates: np.ndarray,
    first_guesses: np.ndarray,
    pool: np.ndarray,
    hard: bool = False,
    trap: tuple[float, int] | None = None,
) -> np.ndarray:
    """Estimated guesses to finish after each first guess, looking one guess further on.

    Every feedback bucket of a first guess is finished by its cheapest next guess from
    `pool` (by expected_guess_costs); in hard mode only by the pool guesses that reuse
    that feedback's hints (a family such as _OUND that the hints pin down cannot be split
    by a free word). All buckets and pool guesses are scored at once: the candidates are
    sorted by (bucket, next feedback) per pool guess, so each group's mass is one
    difference of running sums, with no loop over buckets.

    `trap` (hard mode: penalty, guesses left before the first guess) charges each next
    guess `penalty` guesses per unit of its bucket's weight that it leaves in a family
    pinned by its greens (all letters but one in place) larger than the guesses then
    left: such a family can only be guessed one word at a time.
    """
    weights = universe.weights[candidates] / universe.weights[candidates].sum()
    pinned = pinned_codes(universe.length)
    # (pool, candidates)
    codes = candidate_rows(universe.patterns, candidates, pool).T.astype(np.int32)
    n = len(candidates)
    position = np.full(len(universe.answers), -1)
    position[candidates] = np.arange(n)
    pool_answer = universe.answer_of_guess[pool]
    # Which candidate each pool guess is (-1: none), for its chance of being the answer.
    pool_candidate = np.where(pool_answer >= 0, position[np.maximum(pool_answer, 0)], -1)
    costs = np.empty(len(first_guesses))
    for index, guess in enumerate(first_guesses):
        pool_feedback = (pool, codes, pool_candidate)
        costs[index] = _two_ply_cost(
            universe, candidates, guess, pool_feedback, weights, pinned, hard, trap
        )
    return costs


def _two_ply_cost(
    universe: Universe,
    candidates: np.ndarray,
    guess: int,
    pool_feedback: tuple[np.ndarray, np.ndarray, np.ndarray],
    weights: np.ndarray,
    pinned: np.ndarray,
    hard: bool,
    trap: tuple[float, int] | None,
) -> float:
    """two_ply_costs for one first guess. `pool_feedback`: the pool, each pool guess's
    feedback on the candidates (pool, candidates), and which candidate each pool guess is
    (-1: none); `weights` the candidates' (summing to 1); `pinned` pinned_codes."""
    pool, codes, pool_candidate = pool_feedback
    pool_size = len(pool)
    columns = np.arange(pool_size)
    first = universe.patterns[candidates, guess]
    bucket_codes, bucket_of = np.unique(first, return_inverse=True)
    bucket_count = len(bucket_codes)
    bucket_mass = np.bincount(bucket_of, weights=weights, minlength=bucket_count)
    keys = (bucket_of * universe.pattern_count).astype(np.int32)[None, :] + codes
    order = np.argsort(keys, axis=1)
    sorted_keys = np.take_along_axis(keys, order, axis=1)
    running = np.cumsum(weights[order], axis=1)
    ends = np.ones(keys.shape, dtype=bool)
    ends[:, :-1] = sorted_keys[:, :-1] != sorted_keys[:, 1:]
    column, row = np.nonzero(ends)
    group_end = running[column, row]
    group_mass = np.diff(group_end, prepend=0.0)
    first_of_column = np.ones(len(column), dtype=bool)
    first_of_column[1:] = column[1:] != column[:-1]
    group_mass[first_of_column] = group_end[first_of_column]
    group_bucket = sorted_keys[column, row] // universe.pattern_count
    share = group_mass / bucket_mass[group_bucket]
    cell = group_bucket * pool_size + column
    charge: np.ndarray | float = 0.0
    if trap is not None:
        penalty, guesses_left = trap
        # Group sizes: ends are in row order within each column.
        size = np.diff(row, prepend=-1)
        size[first_of_column] = row[first_of_column] + 1
        code = sorted_keys[column, row] % universe.pattern_count
        caught = pinned[code] & (size > guesses_left - 2)
        trapped = np.bincount(
            cell[caught], weights=share[caught], minlength=bucket_count * pool_size
        )
        charge = penalty * trapped.reshape(bucket_count, pool_size)
    entropy_terms = -share * np.log2(share)
    bits = np.bincount(cell, weights=entropy_terms, minlength=bucket_count * pool_size)
    bits = bits.reshape(bucket_count, pool_size)
    answer_probability = np.zeros((bucket_count, pool_size))
    is_candidate = pool_candidate >= 0
    hit = pool_candidate[is_candidate]
    answer_probability[bucket_of[hit], columns[is_candidate]] = (
        weights[hit] / bucket_mass[bucket_of[hit]]
    )
    within = weights / bucket_mass[bucket_of]
    bucket_bits = np.bincount(bucket_of, weights=-within * np.log2(within), minlength=bucket_count)
    missed = np.maximum(1.0 - answer_probability, 1e-12)
    remaining = np.maximum(0.0, bucket_bits[:, None] - bits) / missed
    each = 1.0 + missed * bits_to_guesses(remaining) + charge
    finish = each.min(axis=1)
    if hard:
        valid = _hard_mode_valid(universe, guess, bucket_codes, pool)
        restricted = np.where(valid, each, np.inf).min(axis=1)
        finish = np.where(np.isfinite(restricted), restricted, finish)
    finish[bucket_codes == universe.pattern_count - 1] = 0.0  # solved: nothing left
    return 1.0 + float(bucket_mass @ finish)


def pinned_codes(length: int) -> np.ndarray:
    """Per feedback code: whether it has all letters but one green (settings.pinned_feedbacks)."""
    return np.array(pinned_feedbacks(length))


def _hard_mode_valid(
    universe: Universe, guess: int, codes: np.ndarray, pool: np.ndarray
) -> np.ndarray:
    """(feedback, pool guess): whether hard mode allows the pool guess after `guess` got
    that feedback (Universe.hard_mode_mask)."""
    word = universe.guesses[guess]
    return np.array(
        [
            universe.hard_mode_mask(word, pattern_string(int(code), universe.length), pool)
            for code in codes
        ]
    ).reshape(len(codes), len(pool))
