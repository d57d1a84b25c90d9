"""One-ply strategies: how each ranks the possible next guesses for a set of candidates."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from epdle.solver.scoring import pattern_string
from epdle.solver.settings import COST_DECIMALS, bits_to_guesses, pinned_feedbacks
from epdle.solver.universe import ALPHABET_SIZE, Universe

# Cells (candidates x guesses) per bincount block: small enough to stay in the CPU cache.
_BLOCK_CELLS = 1 << 16
# Below this many candidates, relabelling buckets by rank beats bincounting every pattern.
_RELABEL_BELOW = 8
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


@dataclass
class GuessStats:
    """Partition statistics of the candidates for each considered guess (parallel arrays)."""

    guesses: np.ndarray  # guess indexes into universe.guesses
    bits: np.ndarray  # entropy of the feedback distribution
    expected_left: np.ndarray  # expected candidates left afterwards (0 when solved)
    worst_left: np.ndarray  # largest bucket, the solved one excluded
    answer_probability: np.ndarray  # chance that the guess itself is the answer
    buckets: np.ndarray  # number of distinct feedbacks


def bucket_blocks(
    rows: np.ndarray, guesses: np.ndarray, pattern_count: int, weights: np.ndarray | None
) -> Iterator[tuple[slice, np.ndarray, np.ndarray | None]]:
    """Per block of guesses: (slice into guesses, bucket sizes, bucket masses or None).

    `rows` are the candidates' pattern rows. Blocks stay small enough for the CPU cache,
    which matters more here than the number of numpy calls.
    """
    block = max(1, _BLOCK_CELLS // max(1, rows.shape[0]))
    for start in range(0, len(guesses), block):
        columns = guesses[start : start + block]
        labels, bins = _bucket_labels(rows[:, columns], pattern_count)
        flat = (labels + np.arange(len(columns)) * bins).ravel()
        count = np.bincount(flat, minlength=len(columns) * bins).reshape(len(columns), bins)
        mass = None
        if weights is not None:
            spread = np.broadcast_to(weights[:, None], labels.shape).ravel()
            mass = np.bincount(flat, weights=spread, minlength=count.size).reshape(count.shape)
        yield slice(start, start + len(columns)), count, mass


def guess_stats(
    universe: Universe, candidates: np.ndarray, guesses: np.ndarray | None = None
) -> GuessStats:
    """Bucket the candidates by feedback for every guess (all guesses when None)."""
    if guesses is None:
        guesses = np.arange(len(universe.guesses))
    weights = universe.weights[candidates]
    weights = weights / weights.sum()
    rows = universe.patterns[candidates]
    size = len(guesses)
    bits = np.empty(size)
    expected = np.empty(size)
    worst = np.empty(size, dtype=np.int64)
    buckets = np.empty(size, dtype=np.int64)
    blocks = bucket_blocks(
        rows, guesses, universe.pattern_count, weights if universe.blind else None
    )
    n = len(candidates)
    # Uniform weights: entropy from a table of c*log2(c) instead of a log per bucket.
    sizes = np.arange(n + 1, dtype=float)
    count_log_count = sizes * np.log2(np.maximum(sizes, 1.0))
    for part, count, weighted in blocks:
        if weighted is None:
            bits[part] = np.log2(n) - count_log_count[count].sum(axis=1) / n
            expected[part] = (count * count).sum(axis=1) / n
        else:
            safe = np.where(weighted > 0, weighted, 1.0)
            bits[part] = -(weighted * np.log2(safe)).sum(axis=1)
            expected[part] = (weighted * count).sum(axis=1)
        worst[part] = count.max(axis=1)
        buckets[part] = (count > 0).sum(axis=1)
    probability = np.zeros(size)
    answer_rows = universe.answer_of_guess[guesses]
    row_position = np.full(len(universe.answers), -1)
    row_position[candidates] = np.arange(len(candidates))
    hits = (answer_rows >= 0) & (row_position[np.maximum(answer_rows, 0)] >= 0)
    probability[hits] = weights[row_position[answer_rows[hits]]]
    # The solved bucket (the guess itself) holds one word and leaves nothing to find.
    expected -= probability
    only_singletons = worst <= 1
    worst[only_singletons] = (buckets[only_singletons] - (probability[only_singletons] > 0)) > 0
    return GuessStats(guesses, bits, expected, worst, probability, buckets)


def _bucket_labels(codes: np.ndarray, pattern_count: int) -> tuple[np.ndarray, int]:
    """Per column, labels that are equal exactly where the codes are, and how many there are.

    Few candidates: relabel codes by rank within the column (fewer bins than patterns).
    """
    n = codes.shape[0]
    if n >= _RELABEL_BELOW:
        return codes.astype(np.int64), pattern_count
    ordered = np.sort(codes, axis=0)
    starts = np.ones_like(ordered, dtype=bool)
    starts[1:] = ordered[1:] != ordered[:-1]
    rank_of_sorted = np.cumsum(starts, axis=0) - 1
    labels = np.empty((n, codes.shape[1]), dtype=np.int64)
    order = np.argsort(codes, axis=0, kind="stable")
    np.put_along_axis(labels, order, rank_of_sorted, axis=0)
    return labels, n


def rank_one_ply(strategy: str, stats: GuessStats) -> np.ndarray:
    """Order (indexes into stats) from best to worst for entropy / expected / minimax."""
    # Rounding keeps float noise from beating the "prefer a possible answer" tie-break.
    bits = np.round(stats.bits, 9)
    expected = np.round(stats.expected_left, 9)
    prefer_answer = -stats.answer_probability
    if strategy == "entropy":
        return np.lexsort((prefer_answer, -bits))
    if strategy == "expected":
        return np.lexsort((prefer_answer, expected))
    if strategy == "minimax":
        return np.lexsort((prefer_answer, expected, stats.worst_left))
    raise ValueError(f"not a one-ply strategy: {strategy!r}")


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
    """Order by expected_guess_costs, cheapest first (a possible answer wins ties)."""
    cost = expected_guess_costs(stats, uncertainty_bits)
    return np.lexsort((-stats.answer_probability, np.round(cost, COST_DECIMALS)))


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
    codes = universe.patterns[candidates][:, pool].T.astype(np.int32)  # (pool, candidates)
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
            return list(np.lexsort((-pool_guess.astype(int), -split))[:50])
    # Pool words first, then the other candidates; each by letter-frequency score.
    letter_weight = _words_with_letter(universe.answer_letters[pool])
    in_candidates = np.zeros(len(universe.answers), dtype=bool)
    in_candidates[candidates] = True
    candidate_guess = candidate_guesses & in_candidates[np.maximum(universe.answer_of_guess, 0)]
    playable = np.flatnonzero(candidate_guess & allowed_mask)
    if len(playable) == 0:
        playable = np.flatnonzero(candidate_guess)
    score = (guess_contains[playable] * letter_weight).sum(axis=1)
    order = np.lexsort((-score, ~pool_guess[playable]))
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
