"""`best` advice off the shipped tree in pure Python (no numpy), for a one-shot `suggest`.

After a first guess that is not the tree's, the Solver ranks every guess by
`rank_expected_guesses`, looks one guess further ahead over its leaders
(`two_ply_costs`) and, with at most settings.SEARCH_MAX_CANDIDATES left, plays the bounded
search's guess. Importing numpy alone costs a cold process more than its whole budget,
so this module answers the same from the cached pattern matrix read without numpy:

- The entropy of a guess's feedback is at most the sum of the entropies of its marks
  letter by letter (subadditivity; a repeated letter's copies together), and those come
  from where the candidates have each letter. That bound gives every guess a floor on
  its estimated cost, so only the guesses whose floor beats the ranking kept so far are
  bucketed exactly.
- For few words (a search's, a look-ahead bucket's, up to _PAIRED_RANKING candidates)
  every guess's number of feedbacks is counted exactly instead, comparing the words'
  pattern rows pair by pair as big integers. No more entropy than that many equal
  buckets have: a tighter bound, and it finds the guesses that split them apart.
- In the look, a bucket's finishing guess is sought in the pool the same way, by its
  feedbacks over the bucket.
- The search (at most settings.SEARCH_MAX_CANDIDATES words) is TreeSearch again: its costs are
  whole numbers, its beam found by the same feedback counts.

Whenever the result could differ from the Solver's (costs or estimates too close to
order the way numpy's rounding would, hard mode, other lists, no cached matrix) it
returns None and the caller asks the Solver. A test holds the two equal over many
states.
"""

from __future__ import annotations

import json
import math
import mmap
import os
import re
from bisect import bisect_left, insort
from collections import _count_elements  # type: ignore[attr-defined]
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import suppress
from functools import cache, partial
from itertools import compress, islice
from operator import eq, itemgetter
from typing import NamedTuple

from epdle.solver.advice import Advice, worth_showing
from epdle.solver.cache import cache_dir_name
from epdle.solver.quick import (
    path_key,
    shipped_key,
    shipped_lists,
    suggestion_of,
    tree_and_book,
)
from epdle.solver.scoring import GAME_GUESSES, pattern_code
from epdle.solver.settings import (
    EXACT_CURVE,
    FALLBACK_WIDTHS,
    LOOKAHEAD_MAX_CANDIDATES,
    LOOKAHEAD_POOL,
    LOOKAHEAD_TURNS,
    LOOKAHEAD_WIDTH,
    RANKED_KEPT,
    SEARCH_MAX_CANDIDATES,
    cost_curve,
)

# A guess whose floor is this far above the last kept cost cannot round into the list.
_TIE = 2e-9
# A cost this close (in units of 1e-9) to half a unit may round either way in numpy: its
# costs and these differ in the last digits (its log2 is its own), by up to 1e-11 where
# max(0, rounding error) ** 0.7 enters: a guess splitting the candidates apart, and in
# the look-ahead.
_EDGE = 0.05
_NEAR_EDGE = 1e-4
# Up to this many candidates, their rows are copied out of the matrix (faster to read;
# the look-ahead reads them, so at least settings.LOOKAHEAD_MAX_CANDIDATES).
_COPIED_ROWS = 600
# Rows copied into an anonymous map from this many bytes (a few hundred rows) on.
_MAPPED_ROWS = 1 << 20
# Guesses bucketed at a time (their codes read in one pass over the candidates' rows).
_BATCH = 32
_LISTED_CANDIDATES = 100


class Undecided(Exception):
    """The pure-Python answer might differ from the Solver's: ask the Solver."""


class Ranked(NamedTuple):
    key: tuple[int, int, int]  # (cost rounded to 1e-9, not a candidate, guess index)
    cost: float
    apart: bool  # splits the candidates into singletons


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
def _lists() -> tuple[list[str], list[str], list[int]]:
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


def _guess_index(guesses: list[str], word: str) -> int | None:
    """`word`'s index in the guesses, None if it is not one (without an index of all)."""
    at = bisect_left(guesses, word)  # the shipped list is sorted
    if at < len(guesses) and guesses[at] == word:
        return at
    with suppress(ValueError):
        return guesses.index(word)  # any other order
    return None


def _matrix() -> Matrix:
    guesses, answers, _ = _lists()
    path = os.path.join(cache_dir_name(), f"patterns-{shipped_key()}.npy")
    try:
        return Matrix(path, len(answers), len(guesses))
    except (OSError, ValueError) as error:  # not built yet, or stale: the Solver builds it
        raise Undecided(str(error)) from None


def _bits_to_guesses(bits: float) -> float:
    return 1.0 + 0.45 * bits**0.7


def _cost(bits: float, probability: float, uncertainty: float) -> float:
    """strategies.expected_guess_costs for one guess."""
    missed = max(1.0 - probability, 1e-12)
    return 1.0 + missed * _bits_to_guesses(max(0.0, uncertainty - bits) / missed)


def _entropy(counts: Iterable[int], n: int) -> float:
    return math.log2(n) - sum(c * math.log2(c) for c in counts if c) / n


@cache
def _count_log_count(size: int) -> list[float]:
    """c * log2(c) for c = 0 .. size, as guess_stats tabulates it."""
    return [c * math.log2(max(c, 1)) for c in range(size + 1)]


Shape = tuple[int, ...]  # per position, where its letter first occurs in the word


@cache
def _shapes() -> list[tuple[Shape, list[int], list[str]]]:
    """The guesses grouped by shape: (shape, guess indexes, the group's letters position by
    position, one string per position).

    Finding the shapes costs a cold process more than the rest of the answer, so they are
    cached on disk beside the pattern matrix.
    """
    words = _lists()[0]
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


class Rows:
    """Candidates' pattern rows: the feedback buckets of any guess over them."""

    def __init__(self, matrix: Matrix, members: Sequence[int]) -> None:
        self.members = members  # answer indexes
        self.n = len(members)
        self.matrix = matrix
        # Few candidates: their rows, copied out one after the other, so that a guess's
        # codes over them are one strided slice; many: each guess's codes read from its
        # column, the candidates' picked out (copying thousands of rows costs more).
        copied = self.n <= _COPIED_ROWS
        self.joined = matrix.joined_rows(members) if copied else b""
        self._pick = None if copied else itemgetter(*members)
        self.clc = _count_log_count(self.n)
        self.whole = math.log2(self.n)
        self._feedbacks: bytes | None = None

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

    def feedbacks(self) -> bytes:
        """Per guess, one less than the number of feedbacks it gets over the candidates
        (copied rows, at most _MOST_PAIRED of them)."""
        if self._feedbacks is None:
            width = self.matrix.width
            rows = [self.joined[i * width : (i + 1) * width] for i in range(self.n)]
            self._feedbacks = distinct_codes(rows)
        return self._feedbacks

    def bits(self, guesses: Sequence[int]) -> list[tuple[float, bool]]:
        """Per guess, the entropy of its feedback (as guess_stats computes it) and whether
        it splits the candidates apart."""
        out = []
        for column in self.columns(guesses):
            counts = _counts(column).values()
            entropy = self.whole - sum(map(self.clc.__getitem__, counts)) / self.n
            out.append((entropy, len(counts) == self.n))
        return out


def _counts(codes: Iterable[int]) -> dict[int, int]:
    """How often each code occurs (Counter's own C loop, without Counter's overhead)."""
    found: dict[int, int] = {}
    _count_elements(found, codes)
    return found


def distinct_codes(rows: Sequence[bytes]) -> bytes:
    """Per position (guess), one less than the number of distinct codes the rows (equally
    long, at most _MOST_PAIRED) have there.

    Each row is read as one integer, a byte a lane, and compared with every earlier row in
    one go: two rows' codes differ in a lane when the byte of their xor is not zero, which
    ((x & 0x7f..) + 0x7f..) | x marks in that byte's top bit, with no carry into the next
    lane. A row whose code differs from every earlier row's is the first with that code;
    counting those lane by lane (at most 255: one byte) counts the codes, less the first
    row's. Pairs of rows, not rows times positions: fast for few rows."""
    values = [int.from_bytes(row, "little") for row in rows]
    return _distinct_lanes(values, len(rows[0]))


def _distinct_lanes(values: Sequence[int], width: int) -> bytes:
    """distinct_codes for rows read as little-endian integers (`width` bytes each)."""
    if len(values) > _MOST_PAIRED:
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


_MOST_PAIRED = 256


@cache
def _lane_masks(width: int) -> tuple[int, int]:
    """(0x7f, 0x01) in every byte of a `width`-byte integer."""
    return int.from_bytes(b"\x7f" * width, "little"), int.from_bytes(b"\x01" * width, "little")


def balanced_entropy(n: int, parts: int, clc: Sequence[float]) -> float:
    """The entropy of n candidates in `parts` buckets as equal in size as can be (`clc` as
    _count_log_count(n) or longer)."""
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
        return _entropy(keyed.values(), n)

    bounds = [whole] * guesses
    for shape, indexes, letters in _shapes():
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


def _floor_order(
    bounds: Sequence[float], is_candidate: set[int], chance: float, uncertainty: float
) -> Iterator[tuple[float, int]]:
    """(floor, guess) for every guess, lowest floor first: the floor is the cost at the
    guess's entropy bound, and the cost falls as the entropy rises."""
    inside = sorted((_cost(bounds[g], chance, uncertainty), g) for g in is_candidate)
    at = 0
    for guess in _highest_first(bounds):
        if guess in is_candidate:
            continue
        entry = (_cost(bounds[guess], 0.0, uncertainty), guess)
        while at < len(inside) and inside[at] < entry:
            yield inside[at]
            at += 1
        yield entry
    yield from inside[at:]


def _highest_first(bounds: Sequence[float]) -> Iterator[int]:
    """The guesses by bound, highest first (equal ones in list order), as sorted would give
    them; sorted a part at a time: a ranking reads a few hundred or thousand of them."""
    # The highest _SORTED_FIRST or so, by a threshold from every 16th bound.
    sample = sorted(bounds[::16], reverse=True)
    if len(sample) <= _SORTED_FIRST // 16:
        yield from sorted(range(len(bounds)), key=bounds.__getitem__, reverse=True)
        return
    threshold = sample[_SORTED_FIRST // 16]
    high = compress(range(len(bounds)), map(threshold.__le__, bounds))
    yield from sorted(high, key=bounds.__getitem__, reverse=True)
    low = compress(range(len(bounds)), map(threshold.__gt__, bounds))
    yield from sorted(low, key=bounds.__getitem__, reverse=True)


_SORTED_FIRST = 4096


def _feedback_floor_order(
    feedbacks: bytes,
    is_candidate: set[int],
    floor: Callable[[int, bool], float],
    fewest: int = 1,
) -> Iterator[tuple[float, int]]:
    """(floor, guess), lowest floor first, for every guess with at least `fewest`
    feedbacks (`feedbacks` as Rows.feedbacks), where the floor is a function of its number
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


def top_guesses(
    rows: Rows,
    order: Iterator[tuple[float, int]],
    is_candidate: set[int],
    count: int,
) -> list[Ranked]:
    """The `count` guesses with the lowest estimated cost, in the Solver's order
    (rank_expected_guesses: cost rounded to 1e-9, a possible answer first, list order).
    A guess is bucketed only while its floor (the cost at its entropy bound; `order`:
    (floor, guess), lowest first) can make the list: whatever order equal floors come in,
    that buckets every guess the list needs, and every guess near a cost kept."""
    chance = 1.0 / rows.n
    uncertainty = rows.whole
    kept: list[Ranked] = []  # the best count + 1 so far: the last one is the boundary
    edges: list[Ranked] = []
    done = False
    while not done:
        batch = []
        for floor, guess in order:
            if len(kept) > count and floor > kept[-1].cost + _TIE:
                done = True  # every guess left has a higher floor
                break
            batch.append(guess)
            if len(batch) == _BATCH:
                break
        else:
            done = True
        for guess, (bits, apart) in zip(batch, rows.bits(batch), strict=True):
            probability = chance if guess in is_candidate else 0.0
            cost = _cost(bits, probability, uncertainty)
            scaled = cost * 1e9
            entry = Ranked((round(scaled), int(not probability), guess), cost, apart)
            if abs(scaled - math.floor(scaled) - 0.5) < (_EDGE if apart else _NEAR_EDGE):
                edges.append(entry)
            if len(kept) <= count or entry < kept[-1]:
                insort(kept, entry)
                del kept[count + 1 :]
    # A cost that numpy may round either way decides nothing unless another is near it.
    # Guesses that split the candidates apart cost numpy exactly the same (all the
    # entropy, log2 n, and the same chance to be the answer): one rounding for all.
    for edge in edges:
        for other in kept:
            same = edge.apart and other.apart and edge.key[1] == other.key[1]
            if other is not edge and not same and abs(other.cost - edge.cost) < 2e-9:
                raise Undecided("costs at a rounding edge")
    return kept[:count]


def _finish_cost(rows: list[bytes], values: list[int], members: list[int]) -> float:
    """The cheapest estimated cost of finishing one bucket with a pool guess: two_ply_costs'
    `finish` for one bucket in normal mode (every candidate equally likely).

    `rows` holds each of the bucket's words' codes for the pool guesses (`values`: as
    little-endian integers); `members` the pool positions of the bucket's own words."""
    size = len(rows)
    if size == 1:
        return 1.0 + 1e-12 if members else 2.0
    width = len(rows[0])
    block = b"".join(rows)
    clc = _count_log_count(size)
    whole = math.log2(size)

    def cost(column: bytes, probability: float) -> float:
        counts = _counts(column).values()
        return _cost(whole - sum(map(clc.__getitem__, counts)) / size, probability, whole)

    chance = 1.0 / size
    # One of its own words splitting it apart costs the least any guess can: the rest
    # cost 2 or more, and its others as much or more.
    for i in members:
        column = block[i::width]
        if len(set(column)) == size:
            return cost(column, chance)
    if size <= _PAIRED_BUCKET:
        feedbacks = _distinct_lanes(values, width)
    else:
        feedbacks = bytes(len(set(block[i::width])) - 1 for i in range(width))
    best = math.inf
    inside = set(members)
    floor = partial(_feedback_floor, size)
    for lowest, i in _feedback_floor_order(feedbacks, inside, floor):
        if lowest >= best:
            break  # no guess left can beat the best
        best = min(best, cost(block[i::width], chance if i in inside else 0.0))
    return best


# Up to this many words in a bucket, counting the pool guesses' feedbacks by pairs of
# words beats a set per guess.
_PAIRED_BUCKET = 64


@cache
def _feedback_floor(size: int, parts: int, own: bool) -> float:
    """The least a guess with `parts` feedbacks can cost (_cost) over `size` equally likely
    words (no more entropy than as many equal buckets), one of them or not: the ranking's
    floor for few candidates, and _finish_cost's for a bucket."""
    bits = balanced_entropy(size, parts, _count_log_count(size))
    return _cost(bits, 1.0 / size if own else 0.0, math.log2(size))


def _look_ahead(rows: Rows, order: list[Ranked]) -> list[Ranked]:
    """Solver._look_ahead in normal mode: the leaders re-ranked by two_ply_costs."""
    guess_of = _lists()[2]
    pool = [r.key[2] for r in order[:LOOKAHEAD_POOL]]
    pool += [guess_of[a] for a in rows.members[:LOOKAHEAD_POOL]]
    pool = list(dict.fromkeys(pool))
    at = {guess: i for i, guess in enumerate(pool)}
    pooled = rows.picked(pool)  # per candidate (by position), its pool codes
    values = [int.from_bytes(codes, "little") for codes in pooled]
    own = [at.get(guess_of[a]) for a in rows.members]  # its own guess's pool position
    solved = 3 ** len(_lists()[0][0]) - 1
    leaders = order[: LOOKAHEAD_WIDTH[False]]
    costs = []
    for codes in rows.columns([r.key[2] for r in leaders]):
        parts: dict[int, list[int]] = {}
        for position, code in enumerate(codes):
            parts.setdefault(code, []).append(position)
        total = 0.0
        for code, part in parts.items():
            if code != solved:
                members = [i for i in map(own.__getitem__, part) if i is not None]
                bucket = list(map(pooled.__getitem__, part))
                lanes = list(map(values.__getitem__, part))
                total += len(part) / rows.n * _finish_cost(bucket, lanes, members)
        costs.append(1.0 + total)
    # Solver._look_ahead orders them by cost rounded to 1e-9, equal ones as they were.
    scaled = [cost * 1e9 for cost in costs]
    for i, value in enumerate(scaled):
        edge = abs(value - math.floor(value) - 0.5) < _EDGE
        if edge and any(j != i and abs(other - value) < 2 for j, other in enumerate(scaled)):
            raise Undecided("leaders' costs at a rounding edge")
    ranked = sorted(range(len(leaders)), key=lambda i: (round(scaled[i]), i))
    return [leaders[i] for i in ranked] + order[len(leaders) :]


# Bucket sizes up to this cost a whole number in the cost curve (2s - 1): exact sums.


class _Search:
    """search.TreeSearch as the Solver's per-turn search runs it off the tree (normal mode,
    every candidate counting once, FALLBACK_WIDTHS), from the same memo-less start a
    one-shot process has. Costs are whole numbers of guesses, so they compare exactly; the
    beam's order by estimate is exact too unless two guesses' estimates are sums of the
    same fractional terms in another order (numpy may order those by its rounding), and
    then, if that order could decide the guess, Undecided."""

    def __init__(self, matrix: Matrix, root: Rows) -> None:
        self.matrix = matrix
        self.words, _, self.guess_of = _lists()
        self.solved = 3 ** len(self.words[0]) - 1
        self.memo: dict[tuple[tuple[int, ...], int], tuple[float, int]] = {}
        self.root = root  # the candidates' rows, as the ranking read them

    def guess(self, guesses_left: int) -> int | None:
        """Solver._searched_guess: the search's guess for the root's candidates within the
        guesses left, relaxed by one and then three more if need be (None: none found)."""
        members = tuple(self.root.members)
        for limit in (guesses_left, guesses_left + 1, guesses_left + 3):
            cost, guess = self.solve(members, limit, 1)
            if cost < math.inf:
                return guess
        return None

    def solve(self, members: tuple[int, ...], guesses_left: int, level: int) -> tuple[float, int]:
        n = len(members)
        if guesses_left <= 0:
            return math.inf, -1
        if n == 1:
            return 1.0, self.guess_of[members[0]]
        if guesses_left == 1:
            return math.inf, -1
        if n == 2:  # the first, then the other
            return 3.0, self.guess_of[members[0]]
        key = (members, guesses_left)
        if key not in self.memo:  # as TreeSearch's memo: the first level to get there
            self.memo[key] = self._solve(members, guesses_left, level)
        return self.memo[key]

    def _solve(self, members: tuple[int, ...], guesses_left: int, level: int) -> tuple[float, int]:
        n = len(members)
        same = members == tuple(self.root.members)
        rows = self.root if same else Rows(self.matrix, members)
        own = sorted(self.guess_of[a] for a in members)
        # A guess splitting them all apart is optimal: a candidate's (the first), else any.
        apart = [g for g, (_, whole) in zip(own, rows.bits(own), strict=True) if whole]
        if apart:
            return 2.0 * n - 1.0, apart[0]
        feedbacks = rows.feedbacks()
        splitting = feedbacks.find(n - 1)  # the first guess with n feedbacks
        if splitting >= 0:
            return 2.0 * n, splitting
        if guesses_left == 2:
            return math.inf, -1
        width = FALLBACK_WIDTHS[min(level, len(FALLBACK_WIDTHS) - 1)]
        beam, unsure = self._beam(rows, set(own), width)
        best_cost, best_guess = math.inf, -1
        costs = []
        for guess in beam:
            costs.append(self._cost_of(rows, guess, guesses_left, level, best_cost))
            if costs[-1] < best_cost:
                best_cost, best_guess = costs[-1], guess
        if best_guess < 0:
            raise Undecided("nothing in the beam fits the guesses left")
        # Two guesses numpy may order either way, both at the least cost: the first wins.
        if any(costs[i] == costs[j] == best_cost for i, j in unsure):
            raise Undecided("equal costs in an order numpy's rounding decides")
        return best_cost, best_guess

    def _beam(
        self, rows: Rows, own: set[int], width: int
    ) -> tuple[list[int], list[tuple[int, int]]]:
        """The first `width` guesses of TreeSearch's order (estimated cost: the cost curve
        summed over a guess's buckets, less one for a candidate; a candidate first; list
        order; only guesses that split the candidates at all), and the pairs of them whose
        order numpy's rounding may decide."""
        n = rows.n
        curve = cost_curve(n)
        # A bucket of s words costs at least 2s - 1, and at least s (1 + slope * log2 s):
        # so a guess at least 2n less its feedbacks, and n (1 + slope * (log2 n less its
        # entropy)).
        slope = min((curve[s] / s - 1.0) / math.log2(s) for s in range(2, n + 1))

        def floor(parts: int, inside: bool) -> float:
            bits = balanced_entropy(n, parts, rows.clc)
            return max(2.0 * n - parts, n + slope * n * (rows.whole - bits)) - inside

        order = _feedback_floor_order(rows.feedbacks(), own, floor, 2)
        found: list[tuple[float, int, int, tuple[int, ...]]] = []
        # Any order of equal floors, and any batches, find the same: every guess whose
        # floor is below the last one found.
        while batch := list(islice(order, _BATCH)):
            if len(found) > width and batch[0][0] > found[width][0] + 1e-9:
                break
            guesses = [g for _, g in batch]
            for guess, column in zip(guesses, rows.columns(guesses), strict=True):
                sizes = tuple(sorted(_counts(column).values()))
                if len(sizes) > 1:
                    inside = guess in own
                    estimate = sum(curve[c] for c in sizes) - inside
                    found.append((estimate, int(not inside), guess, sizes))
            found.sort()
            del found[width + 1 :]
        # numpy sums the estimate over the buckets in code order: with a fractional term
        # (a bucket of five or more) two equal estimates may differ in the last digit, in
        # either direction. Such a pair across the beam's edge is undecidable here; in it,
        # only if both reach the least cost (the first of equal costs wins).
        unsure = []
        for i, (estimate, _, _, sizes) in enumerate(found):
            for j in range(i + 1, len(found)):
                whole = max(sizes) <= EXACT_CURVE and max(found[j][3]) <= EXACT_CURVE
                if abs(found[j][0] - estimate) < 1e-9 and not whole:
                    if j >= width:
                        raise Undecided("estimates equal but for numpy's rounding")
                    unsure.append((i, j))
        return [entry[2] for entry in found[:width]], unsure

    def _cost_of(
        self, rows: Rows, guess: int, guesses_left: int, level: int, bound: float
    ) -> float:
        """TreeSearch._cost_of: the exact cost of `guess` here, or inf once it cannot beat
        `bound`."""
        parts: dict[int, list[int]] = {}
        for answer, code in zip(rows.members, rows.columns([guess])[0], strict=True):
            parts.setdefault(code, []).append(answer)
        groups = sorted(
            (part for code, part in sorted(parts.items()) if code != self.solved),
            key=len,
            reverse=True,
        )
        floors = [2.0 * len(part) - 1.0 for part in groups]
        lower = rows.n + sum(floors)
        for part, floor in zip(groups, floors, strict=True):
            if lower >= bound:
                return math.inf
            cost, _ = self.solve(tuple(part), guesses_left - 1, level + 1)
            if cost >= math.inf:
                return math.inf
            lower += cost - floor
        return lower


def cold_advice(history: Sequence[tuple[str, str]], hard: bool, top: int = 5) -> Advice | None:
    """`best` advice on the shipped lists for a history off the shipped tree, else None.

    `history` is normalised, as parse_history gives. None whenever the Solver must answer
    (including every history it would refuse: it words the error).
    """
    if hard or not history or top > RANKED_KEPT:
        return None
    try:
        return _advice(history, top)
    except Undecided:
        return None


def _advice(history: Sequence[tuple[str, str]], top: int) -> Advice | None:
    shipped = tree_and_book(False)
    if shipped is None or path_key(history) in shipped[0]:
        return None
    words, answers, guess_of = _lists()
    length = len(words[0])
    played = []  # each guess's index
    for turn, (guess, feedback) in enumerate(history, start=1):
        solved = feedback == "G" * length
        at = _guess_index(words, guess)
        if at is None or len(feedback) != length or (solved and turn < len(history)):
            return None
        played.append(at)
    matrix = _matrix()
    left = list(range(len(answers)))
    for index, (_, feedback) in zip(played, history, strict=True):
        code = pattern_code(feedback)
        if len(left) == len(answers):  # one strided read
            left = [a for a, c in enumerate(matrix.every_answer(index)) if c == code]
        else:
            codes = matrix.column(index, left)
            left = [a for a, c in zip(left, codes, strict=True) if c == code]
    if not left:
        return None  # the Solver says which guess no word fits
    listed = [answers[a] for a in left[:_LISTED_CANDIDATES]]
    if history[-1][1] == "G" * length:
        return Advice(1, True, [], listed[:1])
    n = len(left)
    rows = Rows(matrix, left)
    # Two or fewer: the Solver guesses a candidate (equally likely: in list order).
    ranked = [guess_of[a] for a in left] if n <= 2 else _ranked(matrix, rows, len(history), top)
    shown = ranked[: max(1, top)]
    own = {guess_of[a] for a in left}
    columns = rows.columns(shown)
    suggestions = [
        suggestion_of(words[g], list(_counts(column).values()), g in own)
        for g, column in zip(shown, columns, strict=True)
    ]
    return Advice(n, False, worth_showing(suggestions, n), listed)


def _ranked(matrix: Matrix, rows: Rows, turns: int, top: int) -> list[int]:
    """Solver._fallback_ranked in normal mode for more than two candidates."""
    guess_of = _lists()[2]
    left, n = rows.members, rows.n
    own = {guess_of[a] for a in left}
    searched = n <= SEARCH_MAX_CANDIDATES[False]
    look = not searched and n <= LOOKAHEAD_MAX_CANDIDATES[False] and turns in LOOKAHEAD_TURNS
    # One more than shown: the search's guess may move up from anywhere below.
    count = max(top + 1, LOOKAHEAD_POOL if look else 0)
    order = top_guesses(rows, _ranking_floors(rows, own), own, count)
    if look:
        order = _look_ahead(rows, order)
    ranked = [r.key[2] for r in order]
    if searched:
        first = _Search(matrix, rows).guess(max(1, GAME_GUESSES - turns))
        if first is not None:
            ranked = [first, *(g for g in ranked if g != first)]
    return ranked


def _ranking_floors(rows: Rows, own: set[int]) -> Iterator[tuple[float, int]]:
    """(floor, guess) for top_guesses, lowest first: from each guess's exact number of
    feedbacks for few candidates (a tighter bound, and soon found), else from its letters."""
    if rows.n > _PAIRED_RANKING:
        answers = _lists()[1]
        bounds = entropy_bounds([answers[a] for a in rows.members], rows.matrix.width)
        return _floor_order(bounds, own, 1.0 / rows.n, rows.whole)
    return _feedback_floor_order(rows.feedbacks(), own, partial(_feedback_floor, rows.n))


# Up to this many candidates, counting every guess's feedbacks (pairs of rows, 7 us a
# pair) costs less than the letters' bounds (5 ms) and the guesses those would bucket
# besides: measured over random first guesses, the pairs win at 25 to 40 candidates, are
# even to 48, and lose from 50 on (1,200 pairs and more).
_PAIRED_RANKING = 40
