"""Floors on a guess's estimated cost, from bounds on the entropy of its feedback: by its
letters (many candidates) or by its number of buckets (few), and the guesses in the
order of their floors, lowest first."""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from functools import cache, partial
from itertools import compress

from epdle.solver.ranking.pure.matrix import count_log_count, entropy, shapes
from epdle.solver.settings import estimated_cost


def balanced_entropy(n: int, parts: int, clc: Sequence[float]) -> float:
    """The entropy of n candidates in `parts` buckets as equal in size as can be (`clc` as
    count_log_count(n) or longer)."""
    size, larger = divmod(n, parts)
    spread = (parts - larger) * clc[size] + (larger * clc[size + 1] if larger else 0.0)
    return math.log2(n) - spread / n


def entropy_bounds(spelled: Sequence[str], guesses: int) -> list[float]:
    """Per guess, at most the entropy of its feedback over the candidates `spelled`.

    The feedback is a function of the marks of each of the guess's letters, so its
    entropy is at most the sum of theirs (each letter with all its copies): the marks of
    a letter's copies follow from which of their positions a word has it at, and from how
    many copies of it (up to as many) the word has. Capped at what the whole set allows.
    """
    n = len(spelled)
    whole = math.log2(n)
    spots = _letter_spots(spelled)
    tables: dict[int, dict[str, float]] = {}  # per set of positions, per letter

    def marks(letter: str, positions: int) -> float:
        """The entropy of the marks of `letter` at `positions` (a bit each) in a guess."""
        copies = positions.bit_count()
        found = spots.get(letter, {})
        keyed: dict[int, int] = {0: n - sum(found.values())}  # words without it
        for where, count in found.items():
            key = (where & positions) << 3 | min(where.bit_count(), copies)
            keyed[key] = keyed.get(key, 0) + count
        return entropy(keyed.values(), n)

    bounds = [whole] * guesses
    for shape, indexes, letters in shapes():
        summed = []
        for first in sorted(set(shape)):  # each letter of the shape, at its first position
            positions = sum(1 << at for at, same in enumerate(shape) if same == first)
            column = letters[first]
            table = tables.setdefault(positions, {})
            for letter in set(column).difference(table):
                table[letter] = marks(letter, positions)
            summed.append(map(table.__getitem__, column))
        for index, value in zip(indexes, map(sum, zip(*summed, strict=True)), strict=True):
            if value < whole:
                bounds[index] = value
    return bounds


def _letter_spots(spelled: Sequence[str]) -> dict[str, dict[int, int]]:
    """Per letter, how many of the words have it at which positions (a bit per position,
    words without it left out)."""
    spots: dict[str, dict[int, int]] = {}
    for word in spelled:
        where: dict[str, int] = {}
        for position, letter in enumerate(word):
            where[letter] = where.get(letter, 0) | 1 << position
        for letter, bits in where.items():
            found = spots.setdefault(letter, {})
            found[bits] = found.get(bits, 0) + 1
    return spots


def floor_order(
    bounds: Sequence[float],
    is_candidate: set[int],
    chance: float,
    uncertainty: float,
    sorted_first: int,
) -> Iterator[tuple[float, int]]:
    """(floor, guess) for every guess, lowest floor first: the floor is the cost at the
    guess's entropy bound, and the cost falls as the entropy rises. (`sorted_first`: as
    highest_first.)"""
    inside = sorted((estimated_cost(bounds[g], chance, uncertainty), g) for g in is_candidate)
    at = 0
    for guess in highest_first(bounds, sorted_first):
        if guess in is_candidate:
            continue
        entry = (estimated_cost(bounds[guess], 0.0, uncertainty), guess)
        while at < len(inside) and inside[at] < entry:
            yield inside[at]
            at += 1
        yield entry
    yield from inside[at:]


def highest_first(bounds: Sequence[float], first: int) -> Iterator[int]:
    """The guesses by bound, highest first (equal ones in list order), as sorted would give
    them; sorted a part at a time: the highest `first` or so, then the rest (a ranking
    reads a few hundred or thousand of them)."""
    # The threshold from every 16th bound.
    sample = sorted(bounds[::16], reverse=True)
    if len(sample) <= first // 16:
        yield from sorted(range(len(bounds)), key=bounds.__getitem__, reverse=True)
        return
    threshold = sample[first // 16]
    high = compress(range(len(bounds)), map(threshold.__le__, bounds))
    yield from sorted(high, key=bounds.__getitem__, reverse=True)
    low = compress(range(len(bounds)), map(threshold.__gt__, bounds))
    yield from sorted(low, key=bounds.__getitem__, reverse=True)


def feedback_floor_order(
    feedbacks: bytes,
    is_candidate: set[int],
    floor: Callable[[int, bool], float],
    fewest: int = 1,
) -> Iterator[tuple[float, int]]:
    """(floor, guess), lowest floor first, for every guess with at least `fewest`
    feedbacks (`feedbacks` as Rows.bucket_counts), where the floor is a function of its number
    of feedbacks and whether it is a candidate: guesses with equal floors in any order.

    Found a layer at a time (guesses with as many feedbacks, found by bytes.find): the
    first few layers are all a ranking reads of thousands of guesses."""
    inside: dict[int, list[int]] = {}  # the candidates by feedbacks - 1
    for guess in is_candidate:
        inside.setdefault(feedbacks[guess], []).append(guess)
    layers = [(floor(more + 1, True), more, True) for more in inside]
    layers += [(floor(more + 1, False), more, False) for more in set(feedbacks)]
    layers.sort()
    for value, more, candidates in layers:
        if more + 1 < fewest:
            continue
        if candidates:
            for guess in inside[more]:
                yield value, guess
            continue
        guess = feedbacks.find(more)
        while guess >= 0:
            if guess not in is_candidate:
                yield value, guess
            guess = feedbacks.find(more, guess + 1)


def column_floor_order(
    feedbacks: bytes,
    columns: Sequence[int] | None,
    is_candidate: set[int],
    floor: Callable[[int, bool], float],
    fewest: int = 1,
) -> Iterator[tuple[float, int]]:
    """feedback_floor_order for `feedbacks` over the guesses `columns` (sorted guess
    indexes, by position: the guesses hard mode allows; None: every guess), yielding
    (floor, guess)."""
    if columns is None:
        return feedback_floor_order(feedbacks, is_candidate, floor, fewest)
    found = set(map(partial(bisect_left, columns), is_candidate))
    inside = {i for i in found if i < len(columns) and columns[i] in is_candidate}
    order = feedback_floor_order(feedbacks, inside, floor, fewest)
    return ((value, columns[i]) for value, i in order)


@cache
def feedback_floor(size: int, parts: int, own: bool) -> float:
    """The least a guess with `parts` feedbacks can cost (estimated_cost) over `size` equally likely
    words (no more entropy than as many equal buckets), one of them or not: the ranking's
    floor for few candidates, and finish_cost's for a bucket."""
    bits = balanced_entropy(size, parts, count_log_count(size))
    return estimated_cost(bits, 1.0 / size if own else 0.0, math.log2(size))
