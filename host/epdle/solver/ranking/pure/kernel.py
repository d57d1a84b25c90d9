"""The native bucket counter (host/native/buckets.c, built and installed with the package)
through ctypes: for many guesses at once, the sum of c * log2(c) over each one's feedback
buckets and its number of buckets, read straight from a matrix of feedback codes.

Without the library (a checkout run without building it) the calls raise KernelMissing
and the caller leaves the answer to the Solver.
"""

from __future__ import annotations

import ctypes
import os
import sys
from array import array
from functools import cache

from epdle.named_tuple import NamedTuple

LIBRARY_NAME = "libepdle_buckets.so"
# Candidates one call counts (a bucket's size is 16 bits in the kernel).
MOST_ANSWERS = 65535


class KernelMissing(Exception):
    """The library is not built, or does not load."""


def library_path() -> str | None:
    """The installed library, from this package's folders (an editable install keeps it
    in site-packages, apart from the sources), or None."""
    package = sys.modules[__package__]  # loaded before this module: no import of it here
    for folder in package.__path__:
        path = os.path.join(folder, LIBRARY_NAME)
        if os.path.isfile(path):
            return path
    return None


@cache
def _library() -> ctypes.CDLL:
    """The library, its functions typed."""
    path = library_path()
    if path is None:
        raise KernelMissing(f"{LIBRARY_NAME} is not installed")
    try:
        library = ctypes.CDLL(path)
        stats, gather = library.buckets_stats, library.buckets_gather
        library.buckets_search_node  # noqa: B018 (looked up here: missing, it raises)
        library.buckets_finish  # noqa: B018
        weighted = library.buckets_weighted
    except (OSError, AttributeError) as error:
        raise KernelMissing(f"{path}: {error}") from None
    count, pointer = ctypes.c_uint32, ctypes.c_void_p
    # The matrix, its rows (stats: grouped), its columns; then the table and the results,
    # or the copy.
    stats.argtypes = (pointer, count, pointer, pointer, count, pointer, count)
    stats.argtypes += (pointer, pointer, pointer)
    stats.restype = ctypes.c_int
    gather.argtypes = (pointer, count, pointer, count, pointer, count, pointer)
    gather.restype = None
    # The matrix, the rows and their weights, the columns; then the results.
    weighted.argtypes = (pointer, count, pointer, pointer, count, pointer, count, pointer, pointer)
    weighted.restype = ctypes.c_int
    node = library.buckets_search_node
    node.argtypes = (pointer, count, pointer, pointer, pointer, count, pointer, count, pointer)
    node.argtypes += (count, count) + (pointer,) * 7
    node.restype = ctypes.c_int
    finish = library.buckets_finish
    finish.argtypes = (pointer, count, pointer, pointer, pointer, pointer, count, pointer, count)
    finish.argtypes += (pointer,)
    finish.restype = ctypes.c_int
    return library


def count_buckets(
    matrix: int, width: int, answers: array, ends: array, guesses: array, count_log_count: array
) -> tuple[array, array]:
    """Per group of the rows `answers` (array 'H'; the groups end at `ends`, array 'I')
    of the matrix whose data starts at address `matrix` (`width` bytes a row), and per
    guess of `guesses` (array 'H' of column indexes): the sum of count_log_count (array
    'd', one more value than the largest group) over its bucket sizes, and its number of
    buckets less one (arrays 'd' and 'B', group by group)."""
    starts = [0, *ends[:-1]]
    if any(not 0 < end - start <= MOST_ANSWERS for start, end in zip(starts, ends, strict=True)):
        raise ValueError("cannot count buckets over an empty group, or one that large")
    if len(count_log_count) <= max(end - start for start, end in zip(starts, ends, strict=True)):
        raise ValueError("count_log_count is too short for the groups")
    size = len(ends) * len(guesses)
    sums = array("d", bytes(8 * size))
    parts = array("B", bytes(size))
    status = _library().buckets_stats(
        matrix,
        width,
        answers.buffer_info()[0],
        ends.buffer_info()[0],
        len(ends),
        guesses.buffer_info()[0],
        len(guesses),
        count_log_count.buffer_info()[0],
        sums.buffer_info()[0],
        parts.buffer_info()[0],
    )
    if status != 0:
        raise MemoryError("no memory left to count buckets")
    return sums, parts


def gather(matrix: int, width: int, answers: array, guesses: array) -> array:
    """The codes of `guesses` over the rows `answers`, row by row (array 'B' of
    len(answers) * len(guesses))."""
    out = array("B", bytes(len(answers) * len(guesses)))
    _library().buckets_gather(
        matrix,
        width,
        answers.buffer_info()[0],
        len(answers),
        guesses.buffer_info()[0],
        len(guesses),
        out.buffer_info()[0],
    )
    return out


class Weighted(NamedTuple):
    """Per guess, over candidates of unequal weight (m a bucket's weight, c its size): the
    sum of m * log2(m), and of m * c."""

    mass_log_mass: array
    expected: array


def weighted_buckets(
    matrix: int, width: int, answers: array, weights: array, guesses: array
) -> Weighted:
    """The buckets of `guesses` (array 'H' of columns) over the rows `answers` (array
    'H') weighing `weights` (array 'd'), as buckets_weighted gives them."""
    n, size = len(answers), len(guesses)
    if not 0 < n <= MOST_ANSWERS or len(weights) != n:
        raise ValueError("no rows, too many, or weights not fitting them")
    out = [array("d", bytes(8 * size)) for _ in range(2)]
    status = _library().buckets_weighted(
        matrix,
        width,
        answers.buffer_info()[0],
        weights.buffer_info()[0],
        n,
        guesses.buffer_info()[0],
        size,
        *(values.buffer_info()[0] for values in out),
    )
    if status != 0:
        raise MemoryError("no memory left to count buckets")
    return Weighted(*out)


class Node(NamedTuple):
    """One node of the weighted search (buckets_search_node): the beam (positions in the
    guesses, best first) with its estimates, largest buckets and whether each is a row's
    own guess; the own guess of most weight telling every row apart and the first guess
    that does (positions, -1: none); the most feedbacks any guess gets."""

    beam: list[int]
    estimates: list[float]
    largest: list[int]
    own: list[int]
    apart_own: int
    apart_any: int
    most_parts: int


def search_node(
    matrix: int,
    width: int,
    answers: array,
    weights: array,
    own: array,
    guesses: array,
    curve: array,
    codes_total: int,
    wanted: int,
) -> Node:
    """buckets_search_node over the rows `answers` (array 'H') weighing `weights` ('d'),
    each row's own guess `own` ('H'), for the sorted `guesses` ('H'), `curve` ('d', one
    more value than the rows)."""
    n = len(answers)
    if not 0 < n <= MOST_ANSWERS or len(weights) != n or len(own) != n or len(curve) <= n:
        raise ValueError("no rows, too many, or weights, own guesses or curve not fitting")
    beam = array("H", bytes(2 * wanted))
    estimates = array("d", bytes(8 * wanted))
    largest = array("H", bytes(2 * wanted))
    flags = array("B", bytes(wanted))
    found = ctypes.c_uint32()
    apart = (ctypes.c_int32 * 2)()
    most = ctypes.c_uint16()
    status = _library().buckets_search_node(
        matrix,
        width,
        answers.buffer_info()[0],
        weights.buffer_info()[0],
        own.buffer_info()[0],
        n,
        guesses.buffer_info()[0],
        len(guesses),
        curve.buffer_info()[0],
        codes_total,
        wanted,
        beam.buffer_info()[0] if wanted else None,
        estimates.buffer_info()[0] if wanted else None,
        largest.buffer_info()[0] if wanted else None,
        flags.buffer_info()[0] if wanted else None,
        ctypes.addressof(found),
        ctypes.addressof(apart),
        ctypes.addressof(most),
    )
    if status != 0:
        raise MemoryError("no memory left to count buckets")
    kept = found.value
    return Node(
        beam[:kept].tolist(),
        estimates[:kept].tolist(),
        largest[:kept].tolist(),
        flags[:kept].tolist(),
        apart[0],
        apart[1],
        most.value,
    )


def finish_costs(
    matrix: int, width: int, answers: array, weights: array, own: array, ends: array, guesses: array
) -> array:
    """buckets_finish: per group of the rows `answers` ('H', the groups ending at `ends`,
    'I') weighing `weights` ('d'), each row's own position in `guesses` ('H', len(guesses)
    or more: none), the least estimated cost to finish it after one of `guesses` ('H')."""
    if len(weights) != len(answers) or len(own) != len(answers) or not ends:
        raise ValueError("weights or own positions not fitting the rows, or no groups")
    out = array("d", bytes(8 * len(ends)))
    status = _library().buckets_finish(
        matrix,
        width,
        answers.buffer_info()[0],
        weights.buffer_info()[0],
        own.buffer_info()[0],
        ends.buffer_info()[0],
        len(ends),
        guesses.buffer_info()[0],
        len(guesses),
        out.buffer_info()[0],
    )
    if status != 0:
        raise ValueError("an empty or too large group, or no memory left")
    return out
