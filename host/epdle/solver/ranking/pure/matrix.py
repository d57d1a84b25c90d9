"""The cached pattern matrix read without numpy, and the candidates' rows in it: the
feedback buckets of any guess over them (their sizes and their number, counted by the
native kernel)."""

from __future__ import annotations

import ctypes
import json
import math
import mmap
import os
import re
from array import array
from bisect import bisect_left
from collections import _count_elements  # type: ignore[attr-defined]
from collections.abc import Iterable, Sequence
from contextlib import suppress
from functools import cache, cached_property
from operator import eq

from epdle.solver.cache import cache_dir_name
from epdle.solver.ranking.book import shipped_key, shipped_lists
from epdle.solver.ranking.pure.kernel import count_buckets, gather
from epdle.words.named import DEFAULT_LISTS


class Undecided(Exception):
    """The numpy-free answer might differ from the Solver's: ask the Solver."""


# Guesses bucketed at a time (their codes read in one pass over the candidates' rows).
BATCH = 32


class Matrix:
    """The cached (answers, guesses) uint8 pattern matrix, memory-mapped (a .npy file)."""

    def __init__(self, path: str, answers: int, guesses: int) -> None:
        with open(path, "rb") as handle:
            # A private mapping (copy on write, never written): ctypes hands the kernel its
            # address only from a writable buffer.
            self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY)
        head = self._map[:10]
        if head[:6] != b"\x93NUMPY" or head[6] != 1:
            raise ValueError("not a version 1 .npy file")
        size = int.from_bytes(head[8:10], "little")
        header = self._map[10 : 10 + size].decode("latin-1")
        shape = re.search(r"'shape': \((\d+), (\d+)\)", header)
        if (
            "'descr': '|u1'" not in header
            or "'fortran_order': False" not in header
            or shape is None
            or (int(shape[1]), int(shape[2])) != (answers, guesses)
        ):
            raise ValueError("not the matrix of these lists")
        self.offset = 10 + size
        self.width = guesses
        if len(self._map) != self.offset + answers * guesses:
            raise ValueError("truncated matrix")
        self._data = (ctypes.c_char * len(self._map)).from_buffer(self._map)
        self.address = ctypes.addressof(self._data) + self.offset  # of the first row

    @cached_property
    def every_guess(self) -> array:
        return array("H", range(self.width))

    def every_answer(self, guess: int) -> bytes:
        """A guess's codes against every answer (one strided read)."""
        return self._map[self.offset + guess : len(self._map) : self.width]

    def column(self, guess: int, answers: Iterable[int]) -> list[int]:
        start, width, data = self.offset + guess, self.width, self._map
        return [data[start + a * width] for a in answers]


# The named shipped lists (epdle.words.named) this package answers for: cold_advice sets
# them for each answer (use_lists), and everything here reads them.
_in_use = [DEFAULT_LISTS]


def use_lists(name: str) -> None:
    """Answer for the named shipped lists from now on."""
    if _in_use[0] != name:
        _in_use[0] = name
        shipped_lists_indexed.cache_clear()
        shapes.cache_clear()


def lists_in_use() -> str:
    return _in_use[0]


def _key() -> str:
    return shipped_key(_in_use[0])


@cache
def shipped_lists_indexed() -> tuple[list[str], list[str], list[int]]:
    """(guesses, answers, each answer's guess index) of the shipped lists in use."""
    guesses, answers = shipped_lists(_in_use[0])
    return guesses, answers, _answer_guesses(guesses, answers)


def _answer_guesses(guesses: list[str], answers: list[str]) -> list[int]:
    """Each answer's index in the guesses.

    Cached on disk beside the matrix: hashing every guess for an index costs a cold
    process a millisecond. Named as the shapes are, so that `epdle cache` counts it
    (cache.ENTRY_PATTERNS)."""
    path = os.path.join(cache_dir_name(), f"cold-shapes-{_key()}-answers.json")
    with suppress(OSError, ValueError, KeyError, TypeError, IndexError):
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        found = document["answers"]
        fresh = document.get("lists") == _key() and len(found) == len(answers)
        if fresh and all(map(eq, map(guesses.__getitem__, found), answers)):
            return list(found)
    index = dict(zip(guesses, range(len(guesses)), strict=True))
    if any(word not in index for word in answers):
        raise Undecided("an answer missing from the guesses")  # the Universe would add it
    found = [index[word] for word in answers]
    document = {"lists": _key(), "answers": found}
    write_cache(path, json.dumps(document, separators=(",", ":")))
    return found


def guess_index(guesses: list[str], word: str) -> int | None:
    """`word`'s index in the guesses, None if it is not one (without an index of all)."""
    at = bisect_left(guesses, word)  # the shipped list is sorted
    if at < len(guesses) and guesses[at] == word:
        return at
    with suppress(ValueError):
        return guesses.index(word)  # any other order
    return None


def shipped_matrix() -> Matrix:
    guesses, answers, _ = shipped_lists_indexed()
    path = os.path.join(cache_dir_name(), f"patterns-{_key()}.npy")
    try:
        return Matrix(path, len(answers), len(guesses))
    except (OSError, ValueError) as error:  # not built yet, or stale: the Solver builds it
        raise Undecided(str(error)) from None


Shape = tuple[int, ...]  # per position, where its letter first occurs in the word


@cache
def shapes() -> list[tuple[Shape, list[int], list[str]]]:
    """The guesses grouped by shape: (shape, guess indexes, the group's letters position by
    position, one string per position).

    Finding the shapes costs a cold process more than the rest of the answer, so they are
    cached on disk beside the pattern matrix.
    """
    words = shipped_lists_indexed()[0]
    path = os.path.join(cache_dir_name(), f"cold-shapes-{_key()}.json")
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        groups = [
            (tuple(shape), indexes, letters) for shape, indexes, letters in document["shapes"]
        ]
        fresh = document.get("lists") == _key() and document.get("format") == _SHAPES_FORMAT
        if not fresh or sum(len(indexes) for _, indexes, _ in groups) != len(words):
            raise ValueError("stale")
        return groups
    except (OSError, ValueError, KeyError, TypeError):
        pass
    by_shape: dict[Shape, list[int]] = {}
    for index, word in enumerate(words):
        first: dict[str, int] = {}
        shape = tuple(first.setdefault(letter, i) for i, letter in enumerate(word))
        by_shape.setdefault(shape, []).append(index)
    groups = []
    for shape, indexes in by_shape.items():
        columns = zip(*(words[i] for i in indexes), strict=True)
        groups.append((shape, indexes, ["".join(column) for column in columns]))
    document = {
        "format": _SHAPES_FORMAT,
        "lists": _key(),
        "shapes": [[list(shape), indexes, letters] for shape, indexes, letters in groups],
    }
    write_cache(path, json.dumps(document, separators=(",", ":")))
    return groups


_SHAPES_FORMAT = 2


def write_cache(path: str, text: str) -> None:
    from pathlib import Path

    from epdle.solver.cache import write_atomically

    with suppress(OSError):  # only slower next time
        write_atomically(Path(path), lambda temporary: temporary.write_text(text))


def entropy(counts: Iterable[int], n: int) -> float:
    return math.log2(n) - sum(c * math.log2(c) for c in counts if c) / n


@cache
def count_log_count(size: int) -> list[float]:
    """c * log2(c) for c = 0 .. size, as guess_stats tabulates it."""
    return [c * math.log2(max(c, 1)) for c in range(size + 1)]


class Rows:
    """Candidates' pattern rows: the feedback buckets of any guess over them."""

    def __init__(self, matrix: Matrix, members: Sequence[int]) -> None:
        self.members = members  # answer indexes
        self.n = len(members)
        self.matrix = matrix
        self.clc = count_log_count(self.n)
        self.whole = math.log2(self.n)
        self._bucket_counts: dict[tuple[int, ...] | None, bytes] = {}

    def stats(self, guesses: Sequence[int] | None = None) -> tuple[array, array]:
        """bucket_stats over the candidates, for `guesses` (None: every guess)."""
        columns = self.matrix.every_guess if guesses is None else array("H", guesses)
        return bucket_stats(self.matrix, [self.members], columns)

    def columns(self, guesses: Sequence[int]) -> list[list[int]]:
        """Each guess's codes over the candidates (for the few guesses whose buckets are
        wanted whole)."""
        return [self.matrix.column(g, self.members) for g in guesses]

    def bucket_counts(self, columns: tuple[int, ...] | None = None) -> bytes:
        """Per guess (of `columns`, by position; None: of every guess), one less than the
        number of feedbacks it gets over the candidates."""
        counted = self._bucket_counts.get(columns)
        if counted is None:
            counted = self.stats(columns)[1].tobytes()
            self._bucket_counts[columns] = counted
        return counted

    def bits(self, guesses: Sequence[int]) -> list[tuple[float, bool]]:
        """Per guess, the entropy of its feedback (as guess_stats computes it) and whether
        it splits the candidates apart."""
        sums, parts = self.stats(guesses)
        whole, n, apart = self.whole, self.n, self.n - 1
        return [(whole - s / n, p == apart) for s, p in zip(sums, parts, strict=True)]


def bucket_sizes(codes: Iterable[int]) -> dict[int, int]:
    """How often each code occurs (Counter's own C loop, without Counter's overhead)."""
    found: dict[int, int] = {}
    _count_elements(found, codes)
    return found


class Gathered:
    """Some guesses' columns over some answers, copied out of the matrix row by row: a
    matrix of its own (rows: the answers' positions; columns: the guesses' positions)
    whose rows are read whole."""

    def __init__(self, matrix: Matrix, answers: Sequence[int], guesses: Sequence[int]) -> None:
        self.width = len(guesses)
        self.every_guess = array("H", range(self.width))
        self._codes = gather(matrix.address, matrix.width, array("H", answers), array("H", guesses))
        self.address = self._codes.buffer_info()[0]

    def column(self, guess: int, answers: Iterable[int]) -> list[int]:
        codes, width = self._codes, self.width
        return [codes[a * width + guess] for a in answers]


def bucket_stats(
    matrix: Matrix | Gathered, groups: Sequence[Sequence[int]], guesses: array
) -> tuple[array, array]:
    """Per group of answers (rows of `matrix`) and per guess of `guesses` (array 'H'): the
    sum of c * log2(c) over its bucket sizes c (in the order its codes first occur over
    the group's answers, as bucket_sizes finds them), and its number of buckets less one
    (arrays 'd' and 'B', a group's guesses after another's; the native kernel, in one
    call)."""
    answers = array("H")
    ends = array("I")
    for group in groups:
        answers.extend(group)
        ends.append(len(answers))
    largest = max(map(len, groups))
    return count_buckets(
        matrix.address, matrix.width, answers, ends, guesses, _count_log_count_array(largest)
    )


@cache
def _count_log_count_array(size: int) -> array:
    return array("d", count_log_count(size))
