"""`best`'s estimate under a prior of unequal chances (the history prior) without numpy:
the day's weights read from the cache where the Solver stored them, the pattern matrix of
every accepted word against every other, the plausible candidates and the guesses ranked
by their estimated cost (BestPolicy.plausible and estimate_ranked's first order, with
rank_expected_guesses' ties), each guess's buckets weighed by the native kernel.

The look one guess ahead and the bounded search are not here yet: this answers the
ranking they start from, and the Solver still answers the turn.
"""

from __future__ import annotations

import math
import os
import re
import zipfile
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from functools import cache
from heapq import nsmallest
from itertools import accumulate

from epdle.solver.cache import cache_dir_name, remembered_key
from epdle.solver.ranking.book import common_key
from epdle.solver.ranking.pure.kernel import Node, Weighted, search_node, weighted_buckets
from epdle.solver.ranking.pure.matrix import Matrix, Undecided
from epdle.solver.settings import COST_DECIMALS, RESCUE_WIDTH, cost_curve, estimated_cost

# BestPolicy.plausible: the likeliest candidates holding all but this share of their mass.
PLAUSIBLE_MASS_LEFT = 0.015
# Costs this close (relative) are ordered by the last digits of numpy's sums: undecided.
_CLOSE = 1e-12
_SCALE = 10.0**COST_DECIMALS
# A cost this close to half a rounding unit (in units) may round either way in numpy:
# its sums run in another order (as pure.estimate's _NEAR_EDGE).
_EDGE = 1e-4


def read_npy(data: bytes) -> tuple[str, tuple[int, ...], bytes]:
    """(descr, shape, the data's bytes) of a version 1 .npy file, C order."""
    if data[:6] != b"\x93NUMPY" or data[6] != 1:
        raise ValueError("not a version 1 .npy file")
    size = int.from_bytes(data[8:10], "little")
    header = data[10 : 10 + size].decode("latin-1")
    descr = re.search(r"'descr': '([^']+)'", header)
    shape = re.search(r"'shape': \(([\d, ]*)\)", header)
    if descr is None or shape is None or "'fortran_order': False" not in header:
        raise ValueError("not a plain .npy array")
    dims = tuple(int(d) for d in shape[1].replace(",", " ").split())
    return descr[1], dims, data[10 + size :]


def stored_weights(path: str, guesses: int) -> array:
    """The weights of a day's history prior as history_prior stored them (an .npz of
    `weights` and `kinds`), array 'd' over the guesses; ValueError or OSError when the
    file is not that."""
    with zipfile.ZipFile(path) as stored:
        descr, shape, data = read_npy(stored.read("weights.npy"))
    if descr != "<f8" or shape != (guesses,) or len(data) != 8 * guesses:
        raise ValueError("not this list's weights")
    weights = array("d")
    weights.frombytes(data)
    return weights


def every_guess_key(guesses: str) -> str:
    """The key of the pattern matrix of every shipped guess against every one (as
    patterns.matrix_path names it), remembered with the guesses' text."""

    def key() -> str:
        from epdle.solver.cache import lists_key

        spelled = guesses.split()
        return lists_key(spelled, spelled)

    return remembered_key(f"every:{guesses}", key, "every-guess")


def every_guess_matrix(key: str, guesses: int) -> Matrix:
    """The cached matrix of every guess against every guess (as the Solver built it)."""
    path = os.path.join(cache_dir_name(), f"patterns-{key}.npy")
    try:
        return Matrix(path, guesses, guesses)
    except (OSError, ValueError) as error:
        raise Undecided(str(error)) from None


class WeightedRows:
    """Candidates (rows of a square matrix: answers are guesses) with their weights,
    normalised to sum to 1 as guess_stats normalises them."""

    def __init__(self, matrix: Matrix, members: Sequence[int], weights: Sequence[float]) -> None:
        self.matrix = matrix
        self.members = list(members)
        self.n = len(self.members)
        total = math.fsum(weights)
        self.weights = array("d", (w / total for w in weights))
        self.uncertainty = -math.fsum(w * math.log2(w) for w in self.weights if w > 0)
        self._position = {m: i for i, m in enumerate(self.members)}

    def buckets(self, guesses: Sequence[int] | None = None) -> Weighted:
        columns = self.matrix.every_guess if guesses is None else array("H", guesses)
        return weighted_buckets(
            self.matrix.address,
            self.matrix.width,
            array("H", self.members),
            self.weights,
            columns,
            _curve(self.n),
        )

    def probability(self, guess: int) -> float:
        """The chance that `guess` is the answer (0 if it is not a candidate)."""
        at = self._position.get(guess)
        return 0.0 if at is None else self.weights[at]


@cache
def _curve(size: int) -> array:
    return array("d", cost_curve(size))


def plausible(members: Sequence[int], weights: Sequence[float]) -> list[int]:
    """BestPolicy.plausible: the likeliest candidates (equal weights: in list order) holding
    all but PLAUSIBLE_MASS_LEFT of their weight, in list order. The running sum is
    numpy's cumsum (left to right); a share on a running sum's edge is undecided."""
    order = sorted(range(len(members)), key=lambda i: -weights[i])
    running = list(accumulate(weights[i] for i in order))
    goal = (1.0 - PLAUSIBLE_MASS_LEFT) * running[-1]
    kept = bisect_left(running, goal) + 1
    if any(abs(r - goal) <= _CLOSE * goal for r in running[max(0, kept - 2) : kept + 1]):
        raise Undecided("the plausible set's edge is numpy's rounding")
    return sorted(members[i] for i in order[:kept])


def estimate_costs(rows: WeightedRows, guesses: Sequence[int] | None = None) -> list[float]:
    """expected_guess_costs of each guess (None: every guess) over the rows."""
    counted = rows.buckets(guesses)
    uncertainty = rows.uncertainty
    # A guess that cannot be the answer: estimated_cost(bits, 0, uncertainty), as written.
    costs = [
        1.0 + 1.0 * (1.0 + 0.45 * (max(0.0, uncertainty + mlm) / 1.0) ** 0.7)
        for mlm in counted.mass_log_mass
    ]
    columns = list(range(rows.matrix.width) if guesses is None else guesses)
    at = {g: i for i, g in enumerate(columns)}
    for member, weight in zip(rows.members, rows.weights, strict=True):
        i = at.get(member)
        if i is not None:
            costs[i] = estimated_cost(-counted.mass_log_mass[i], weight, uncertainty)
    return costs


def estimate_order(rows: WeightedRows, words: Sequence[str], count: int) -> list[int]:
    """The first `count` guesses of rank_expected_guesses over the rows: the cost rounded
    to COST_DECIMALS, then a possible answer (the likelier first), then the more common
    word (book.common_key)."""
    costs = estimate_costs(rows)
    keys = [round(cost * _SCALE) for cost in costs]
    last = nsmallest(count + 1, keys)[-1]
    kept = sorted((key, -rows.probability(g), g) for g, key in enumerate(keys) if key <= last)
    ranked: list[int] = []
    at = 0
    while at < len(kept) and len(ranked) < count + 1:
        end = at + 1
        while end < len(kept) and kept[end][:2] == kept[at][:2]:
            end += 1
        tied = [entry[2] for entry in kept[at:end]]
        if len(tied) > 1:  # the frequencies are read only for a tie
            tied.sort(key=lambda g: common_key(words[g]))
        ranked.extend(tied)
        at = end
    _check_edges(costs, ranked[: count + 1])
    return ranked[:count]


def _check_edges(costs: Sequence[float], ranked: Sequence[int]) -> None:
    """A kept cost near half a rounding unit, with another near it: numpy may round it
    the other way."""
    scaled = [costs[g] * _SCALE for g in ranked]
    for i, value in enumerate(scaled):
        edge = abs(value - math.floor(value) - 0.5) < _EDGE
        if edge and any(j != i and abs(other - value) < 2 for j, other in enumerate(scaled)):
            raise Undecided("costs at a rounding edge")


def pairwise_sum(values: Sequence[float]) -> float:
    """numpy's sum of a float64 array (pairwise, eight lanes a block of at most 128): the
    same additions in the same order, so the same double."""
    return _pairwise(values, 0, len(values))


def _pairwise(values: Sequence[float], lo: int, n: int) -> float:
    if n < 8:
        total = 0.0
        for i in range(lo, lo + n):
            total += values[i]
        return total
    if n <= 128:
        lanes = list(values[lo : lo + 8])
        whole = lo + n - n % 8
        for start in range(lo + 8, whole, 8):
            for lane in range(8):
                lanes[lane] += values[start + lane]
        total = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + (
            (lanes[4] + lanes[5]) + (lanes[6] + lanes[7])
        )
        for i in range(whole, lo + n):
            total += values[i]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise(values, lo, half) + _pairwise(values, lo + half, n - half)


def _plain_sum(values: Sequence[float]) -> float:
    """Left to right (the builtin sum may compensate)."""
    total = 0.0
    for value in values:
        total += value
    return total


class WeightedSearch:
    """search.TreeSearch with weights, not bounded, in normal mode, over a square matrix
    (each candidate its own guess, by index), from a fresh memo: the same additions in
    the same order as numpy's, so the same costs and the same guesses."""

    def __init__(
        self,
        matrix: Matrix,
        weights: Sequence[float],
        length: int,
        widths: tuple[int, ...],
        rescue_width: int = RESCUE_WIDTH,
    ) -> None:
        self.matrix = matrix
        self.weights = weights
        self.codes_total = 3**length
        self.solved = self.codes_total - 1
        self.widths = widths
        self.rescue_width = rescue_width
        self.memo: dict[tuple[tuple[int, ...], int], tuple[float, int]] = {}

    def solve(self, members: tuple[int, ...], guesses_left: int, level: int) -> tuple[float, int]:
        """(the weighted guesses to find every candidate, the guess to play); inf, -1 when
        not within the guesses left."""
        n = len(members)
        if guesses_left <= 0:
            return math.inf, -1
        if n == 1:
            return self.weights[members[0]], members[0]
        if guesses_left == 1:
            return math.inf, -1
        if n == 2:
            likely, other = members
            if self.weights[other] > self.weights[likely]:
                likely, other = other, likely
            return self.weights[likely] + 2 * self.weights[other], likely
        key = (members, guesses_left)
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = self._solve(members, guesses_left, level)
        return hit

    def _node(self, members: tuple[int, ...], wanted: int) -> Node:
        return search_node(
            self.matrix.address,
            self.matrix.width,
            array("H", members),
            array("d", (self.weights[m] for m in members)),
            array("H", members),
            self.matrix.every_guess,
            _curve(len(members)),
            self.codes_total,
            wanted,
        )

    def _solve(self, members: tuple[int, ...], guesses_left: int, level: int) -> tuple[float, int]:
        mass = pairwise_sum([self.weights[m] for m in members])
        width = self.widths[min(level, len(self.widths) - 1)]
        node = self._node(members, 0 if guesses_left == 2 else width)
        best_cost, best_guess = math.inf, -1
        if node.apart_own >= 0:
            best_cost, best_guess = 2 * mass - self.weights[node.apart_own], node.apart_own
        elif node.apart_any >= 0:
            best_cost, best_guess = 2 * mass, node.apart_any
        if guesses_left == 2:
            return best_cost, best_guess
        # Three guesses left: a part larger than the most feedbacks any guess gets cannot
        # be told apart in time.
        most = max(2, node.most_parts) if guesses_left == 3 else None
        target = best_cost
        settled = best_cost < math.inf
        rank = 0
        while True:
            if rank == len(node.beam):
                if settled or rank < width or len(node.beam) > width:
                    break
                node = self._node(members, width + self.rescue_width)  # the rescue
                continue
            if (rank >= width and settled) or rank >= width + self.rescue_width:
                break
            guess = node.beam[rank]
            rank += 1
            if most is not None and node.largest[rank - 1] > most:
                continue
            cost = self._cost_of(members, guess, guesses_left, level, target)
            if cost < target:
                best_cost, best_guess = cost, guess
                target = cost
            settled = settled or cost < math.inf
        return best_cost, best_guess

    def _cost_of(
        self, members: tuple[int, ...], guess: int, guesses_left: int, level: int, bound: float
    ) -> float:
        parts: dict[int, list[int]] = {}
        for member, code in zip(members, self.matrix.column(guess, members), strict=True):
            parts.setdefault(code, []).append(member)
        groups = sorted(
            (part for code, part in sorted(parts.items()) if code != self.solved),
            key=len,
            reverse=True,
        )
        weights = self.weights
        floors = []
        for part in groups:
            each = [weights[m] for m in part]
            floors.append(2 * pairwise_sum(each) - max(each))
        lower = pairwise_sum([weights[m] for m in members]) + _plain_sum(floors)
        for part, floor in zip(groups, floors, strict=True):
            if lower >= bound:
                return lower
            cost, _ = self.solve(tuple(part), guesses_left - 1, level + 1)
            if cost >= math.inf:
                return math.inf
            lower += cost - floor
        return lower
