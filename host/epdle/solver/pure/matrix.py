"""The cached pattern matrix read without numpy, and the candidates' rows in it: the
feedback buckets of any guess over them (their sizes and their number)."""

from __future__ import annotations

import json
import math
import mmap
import os
import re
from bisect import bisect_left
from collections import _count_elements  # type: ignore[attr-defined]
from collections.abc import Iterable, Sequence
from contextlib import suppress
from functools import cache
from operator import eq, itemgetter

from epdle.solver.cache import cache_dir_name
from epdle.solver.quick import shipped_key, shipped_lists


class Undecided(Exception):
    """The pure-Python answer might differ from the Solver's: ask the Solver."""


# Up to this many candidates, their rows are copied out of the matrix (faster to read;
# the look-ahead reads them, so at least settings.LOOKAHEAD_MAX_CANDIDATES).
COPIED_ROWS = 600


# Rows copied into an anonymous map from this many bytes (a few hundred rows) on.
_MAPPED_ROWS = 1 << 20


# Guesses bucketed at a time (their codes read in one pass over the candidates' rows).
BATCH = 32


class Matrix:
    """The cached (answers, guesses) uint8 pattern matrix, memory-mapped (a .npy file)."""

    def __init__(self, path: str, answers: int, guesses: int) -> None:
        with open(path, "rb") as handle:
            self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
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

    def rows(self, answers: Sequence[int]) -> list[bytes]:
        start, width, data = self.offset, self.width, self._map
        return [data[start + a * width : start + (a + 1) * width] for a in answers]

    def joined_rows(self, answers: Sequence[int]) -> bytes | mmap.mmap:
        """The answers' rows one after the other.

        Many rows are copied into an anonymous map faulted in at once (MAP_POPULATE):
        megabytes of fresh memory faulted in page by page cost more than the copy."""
        size = len(answers) * self.width
        populate = getattr(mmap, "MAP_POPULATE", 0)
        if size < _MAPPED_ROWS or not populate:
            return b"".join(self.rows(answers))
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | populate
        joined = mmap.mmap(-1, size, flags=flags)
        width = self.width
        with memoryview(self._map) as data:
            for i, a in enumerate(answers):
                row = self.offset + a * width
                joined[i * width : (i + 1) * width] = data[row : row + width]
        return joined

    def every_answer(self, guess: int) -> bytes:
        """A guess's codes against every answer (one strided read)."""
        return self._map[self.offset + guess : len(self._map) : self.width]

    def column(self, guess: int, answers: Iterable[int]) -> list[int]:
        start, width, data = self.offset + guess, self.width, self._map
        return [data[start + a * width] for a in answers]


@cache
def shipped_lists_indexed() -> tuple[list[str], list[str], list[int]]:
    """(guesses, answers, each answer's guess index) of the shipped lists."""
    guesses, answers = shipped_lists()
    return guesses, answers, _answer_guesses(guesses, answers)


def _answer_guesses(guesses: list[str], answers: list[str]) -> list[int]:
    """Each answer's index in the guesses.

    Cached on disk beside the matrix: hashing every guess for an index costs a cold
    process a millisecond. Named as the shapes are, so that `epdle cache` counts it
    (cache.ENTRY_PATTERNS)."""
    path = os.path.join(cache_dir_name(), f"cold-shapes-{shipped_key()}-answers.json")
    with suppress(OSError, ValueError, KeyError, TypeError, IndexError):
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        found = document["answers"]
        fresh = document.get("lists") == shipped_key() and len(found) == len(answers)
        if fresh and all(map(eq, map(guesses.__getitem__, found), answers)):
            return list(found)
    index = dict(zip(guesses, range(len(guesses)), strict=True))
    if any(word not in index for word in answers):
        raise Undecided("an answer missing from the guesses")  # the Universe would add it
    found = [index[word] for word in answers]
    document = {"lists": shipped_key(), "answers": found}
    _write_cache(path, json.dumps(document, separators=(",", ":")))
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
    path = os.path.join(cache_dir_name(), f"patterns-{shipped_key()}.npy")
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
    path = os.path.join(cache_dir_name(), f"cold-shapes-{shipped_key()}.json")
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        groups = [
            (tuple(shape), indexes, letters) for shape, indexes, letters in document["shapes"]
        ]
        fresh = document.get("lists") == shipped_key() and document.get("format") == _SHAPES_FORMAT
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
        "lists": shipped_key(),
        "shapes": [[list(shape), indexes, letters] for shape, indexes, letters in groups],
    }
    _write_cache(path, json.dumps(document, separators=(",", ":")))
    return groups


_SHAPES_FORMAT = 2


def _write_cache(path: str, text: str) -> None:
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
        # Few candidates: their rows, copied out one after the other, so that a guess's
        # codes over them are one strided slice; many: each guess's codes read from its
        # column, the candidates' picked out (copying thousands of rows costs more).
        copied = self.n <= COPIED_ROWS
        self.joined = matrix.joined_rows(members) if copied else b""
        self._pick = None if copied else itemgetter(*members)
        self.clc = count_log_count(self.n)
        self.whole = math.log2(self.n)
        self._bucket_counts: dict[tuple[int, ...] | None, bytes] = {}

    def columns(self, guesses: Sequence[int]) -> list[bytes] | list[tuple[int, ...]]:
        """Each guess's codes over the candidates."""
        if self._pick is None:
            joined, width = self.joined, self.matrix.width
            return [joined[g::width] for g in guesses]
        return [self._pick(self.matrix.every_answer(g)) for g in guesses]

    def picked(self, guesses: Sequence[int]) -> list[bytes]:
        """Per candidate, its codes for `guesses` (copied rows only): their columns laid
        one after another, read back a candidate at a time (one strided slice each, not a
        pick per code)."""
        joined, width = self.joined, self.matrix.width
        laid = b"".join([joined[g::width] for g in guesses])
        return [laid[i :: self.n] for i in range(self.n)]

    def bucket_counts(self, columns: tuple[int, ...] | None = None) -> bytes:
        """Per guess (of `columns`, by position; None: of every guess), one less than the
        number of feedbacks it gets over the candidates (copied rows, at most MOST_PAIRED
        of them)."""
        counted = self._bucket_counts.get(columns)
        if counted is None:
            if columns is None:
                width = self.matrix.width
                rows = [self.joined[i * width : (i + 1) * width] for i in range(self.n)]
            else:
                rows = self.picked(columns)
            counted = bucket_counts(rows)
            self._bucket_counts[columns] = counted
        return counted

    def bits(self, guesses: Sequence[int]) -> list[tuple[float, bool]]:
        """Per guess, the entropy of its feedback (as guess_stats computes it) and whether
        it splits the candidates apart."""
        out = []
        for column in self.columns(guesses):
            counts = bucket_sizes(column).values()
            entropy = self.whole - sum(map(self.clc.__getitem__, counts)) / self.n
            out.append((entropy, len(counts) == self.n))
        return out


def bucket_sizes(codes: Iterable[int]) -> dict[int, int]:
    """How often each code occurs (Counter's own C loop, without Counter's overhead)."""
    found: dict[int, int] = {}
    _count_elements(found, codes)
    return found


def bucket_counts(rows: Sequence[bytes]) -> bytes:
    """Per position (guess), one less than the number of distinct codes the rows (equally
    long, at most MOST_PAIRED) have there.

    Each row is read as one integer, a byte a lane, and compared with every earlier row in
    one go: two rows' codes differ in a lane when the byte of their xor is not zero, which
    ((x & 0x7f..) + 0x7f..) | x marks in that byte's top bit, with no carry into the next
    lane. A row whose code differs from every earlier row's is the first with that code;
    counting those lane by lane (at most 255: one byte) counts the codes, less the first
    row's. Pairs of rows, not rows times positions: fast for few rows."""
    values = [int.from_bytes(row, "little") for row in rows]
    return lane_bucket_counts(values, len(rows[0]))


def lane_bucket_counts(values: Sequence[int], width: int) -> bytes:
    """bucket_counts for rows read as little-endian integers (`width` bytes each)."""
    if len(values) > MOST_PAIRED:
        raise ValueError("too many rows for a byte per count")
    low, ones = _lane_masks(width)
    firsts = 0
    for at in range(1, len(values)):
        row = values[at]
        differs = -1
        for earlier in values[:at]:
            codes = earlier ^ row
            differs &= ((codes & low) + low) | codes
        firsts += (differs >> 7) & ones
    return firsts.to_bytes(width, "little")


MOST_PAIRED = 256


@cache
def _lane_masks(width: int) -> tuple[int, int]:
    """(0x7f, 0x01) in every byte of a `width`-byte integer."""
    return int.from_bytes(b"\x7f" * width, "little"), int.from_bytes(b"\x01" * width, "little")
