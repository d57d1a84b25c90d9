"""The partition statistics every numpy ranking reads: how a guess's feedback splits the
candidates (its entropy, the words expected and at worst left), counted in cache-sized
blocks; the rule for two candidates or fewer; the per-state memo of ranked guesses."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from epdle.solver.patterns import candidate_rows
from epdle.solver.state import GameState
from epdle.solver.universe import Universe

# Cells (candidates x guesses) per bincount block: small enough to stay in the CPU cache.
_BLOCK_CELLS = 1 << 16
# Bytes of the candidates' codes gathered from the pattern matrix at once (a slab of
# guess columns): never a copy of the candidates' whole rows, which is the size of the
# matrix itself on the first turn of a large list.
_SLAB_BYTES = 16 << 20
# Below this many candidates, relabelling buckets by rank beats bincounting every pattern.
_RELABEL_BELOW = 8

# A long-running daemon plays game after game: the per-state memos keep the states used

RANKED_MEMO_LIMIT = 2048


_Value = TypeVar("_Value")


class BoundedMemo(dict[bytes, _Value]):
    """A dict that forgets its oldest entries beyond `limit`."""

    def __init__(self, limit: int = RANKED_MEMO_LIMIT) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: bytes, value: _Value) -> None:
        super().__setitem__(key, value)
        while len(self) > self.limit:
            del self[next(iter(self))]


def likelier_first(universe: Universe, candidates: np.ndarray) -> list[int]:
    """Two candidates or fewer: guess one, the likelier first (equally likely: the more
    common word, Universe.common_rank)."""
    guesses = universe.guess_index_of_answers[candidates]
    order = np.lexsort((universe.common_rank[guesses], -universe.weights[candidates]))
    return [int(guesses[i]) for i in order]


def allowed_guesses(state: GameState) -> np.ndarray | None:
    """Hard mode: the indexes of the guesses the hints allow; None: every guess."""
    return None if state.allowed is None else np.flatnonzero(state.allowed)


@dataclass
class GuessStats:
    """Partition statistics of the candidates for each considered guess (parallel arrays)."""

    guesses: np.ndarray  # guess indexes into universe.guesses
    bits: np.ndarray  # entropy of the feedback distribution
    expected_left: np.ndarray  # expected candidates left afterwards (0 when solved)
    worst_left: np.ndarray  # largest bucket, the solved one excluded
    answer_probability: np.ndarray  # chance that the guess itself is the answer
    buckets: np.ndarray  # number of distinct feedbacks
    common: np.ndarray  # Universe.common_rank: how equal guesses are listed


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


def candidate_blocks(
    patterns: np.ndarray,
    candidates: np.ndarray,
    guesses: np.ndarray,
    pattern_count: int,
    weights: np.ndarray | None,
) -> Iterator[tuple[slice, np.ndarray, np.ndarray | None]]:
    """bucket_blocks over the candidates' rows of the pattern matrix, gathered from it a
    slab of guesses at a time (_SLAB_BYTES)."""
    slab = max(1, _SLAB_BYTES // max(1, len(candidates) * patterns.itemsize))
    for start in range(0, len(guesses), slab):
        columns = guesses[start : start + slab]
        rows = candidate_rows(patterns, candidates, columns)
        for part, count, mass in bucket_blocks(
            rows, np.arange(len(columns)), pattern_count, weights
        ):
            yield slice(start + part.start, start + part.stop), count, mass


def guess_stats(
    universe: Universe, candidates: np.ndarray, guesses: np.ndarray | None = None
) -> GuessStats:
    """Bucket the candidates by feedback for every guess (all guesses when None)."""
    if guesses is None:
        guesses = np.arange(len(universe.guesses))
    weights = universe.weights[candidates]
    weights = weights / weights.sum()
    size = len(guesses)
    bits = np.empty(size)
    expected = np.empty(size)
    worst = np.empty(size, dtype=np.int64)
    buckets = np.empty(size, dtype=np.int64)
    blocks = candidate_blocks(
        universe.patterns,
        candidates,
        guesses,
        universe.pattern_count,
        weights if universe.blind else None,
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
    common = universe.common_rank[guesses]
    return GuessStats(guesses, bits, expected, worst, probability, buckets, common)


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
