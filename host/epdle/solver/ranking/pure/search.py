"""The bounded search the Solver runs off the tree (search.TreeSearch), without numpy."""

from __future__ import annotations

import math
from itertools import islice

from epdle.solver.ranking.pure.bounds import balanced_entropy, column_floor_order
from epdle.solver.ranking.pure.hard import Allowed, after_feedback
from epdle.solver.ranking.pure.matrix import (
    BATCH,
    Matrix,
    Rows,
    Undecided,
    bucket_sizes,
    shipped_lists_indexed,
)
from epdle.solver.settings import EXACT_CURVE, FALLBACK_WIDTHS, RESCUE_WIDTH, cost_curve


class Search:
    """search.TreeSearch as the Solver's per-turn search runs it off the tree (not blind,
    every candidate counting once, FALLBACK_WIDTHS; hard mode over the guesses the hints
    allow), from the same memo-less start a one-shot process has. Costs are whole numbers
    of guesses, so they compare exactly; the beam's order by estimate is exact too unless
    two guesses' estimates are sums of the same fractional terms in another order (numpy
    may order those by its rounding), and then, if that order could decide the guess,
    Undecided."""

    def __init__(self, matrix: Matrix, root: Rows, allowed: Allowed = None) -> None:
        self.matrix = matrix
        self.words, _, self.guess_of = shipped_lists_indexed()
        self.solved = 3 ** len(self.words[0]) - 1
        self.memo: dict[tuple[tuple[int, ...], Allowed, int], tuple[float, int]] = {}
        self.root = root  # the candidates' rows, as the ranking read them
        self.allowed = allowed

    def guess(self, guesses_left: int) -> int | None:
        """BestPolicy._searched_guess: the search's guess for the root's candidates within the
        guesses left, relaxed by one and then three more if need be (None: none found)."""
        members = tuple(self.root.members)
        for limit in (guesses_left, guesses_left + 1, guesses_left + 3):
            cost, guess = self.solve(members, self.allowed, limit, 1)
            if cost < math.inf:
                return guess
        return None

    def solve(
        self, members: tuple[int, ...], allowed: Allowed, guesses_left: int, level: int
    ) -> tuple[float, int]:
        n = len(members)
        if guesses_left <= 0:
            return math.inf, -1
        if n == 1:
            return 1.0, self.guess_of[members[0]]
        if guesses_left == 1:
            return math.inf, -1
        if n == 2:  # the first, then the other
            return 3.0, self.guess_of[members[0]]
        key = (members, allowed, guesses_left)
        if key not in self.memo:  # as TreeSearch's memo: the first level to get there
            self.memo[key] = self._solve(members, allowed, guesses_left, level)
        return self.memo[key]

    def _solve(
        self, members: tuple[int, ...], allowed: Allowed, guesses_left: int, level: int
    ) -> tuple[float, int]:
        n = len(members)
        same = members == tuple(self.root.members)
        rows = self.root if same else Rows(self.matrix, members)
        # Every candidate keeps every hint so far: hard mode allows each.
        own = sorted(self.guess_of[a] for a in members)
        # A guess splitting them all apart is optimal: a candidate's (the first), else any.
        apart = [g for g, (_, whole) in zip(own, rows.bits(own), strict=True) if whole]
        if apart:
            return 2.0 * n - 1.0, apart[0]
        splitting = rows.bucket_counts(allowed).find(n - 1)  # the first with n feedbacks
        if splitting >= 0:
            return 2.0 * n, splitting if allowed is None else allowed[splitting]
        if guesses_left == 2:
            return math.inf, -1
        width = FALLBACK_WIDTHS[min(level, len(FALLBACK_WIDTHS) - 1)]
        beam, unsure = self._beam(rows, set(own), width, allowed)
        best_cost, best_guess = math.inf, -1
        costs = []
        for guess in beam:
            costs.append(self._cost_of(rows, guess, allowed, guesses_left, level, best_cost))
            if costs[-1] < best_cost:
                best_cost, best_guess = costs[-1], guess
        if best_guess < 0:
            return self._rescue(rows, set(own), width, allowed, guesses_left, level)
        # Two guesses numpy may order either way, both at the least cost: the first wins.
        if any(costs[i] == costs[j] == best_cost for i, j in unsure):
            raise Undecided("equal costs in an order numpy's rounding decides")
        return best_cost, best_guess

    def _rescue(
        self,
        rows: Rows,
        own: set[int],
        width: int,
        allowed: Allowed,
        guesses_left: int,
        level: int,
    ) -> tuple[float, int]:
        """Nothing in the beam fits the guesses left: the next RESCUE_WIDTH guesses in the
        beam's order, the first that fits (TreeSearch's rescue)."""
        order, unsure = self._beam(rows, own, width + RESCUE_WIDTH, allowed)
        for rank in range(width, len(order)):
            cost = self._cost_of(rows, order[rank], allowed, guesses_left, level, math.inf)
            if cost < math.inf:
                # A pair numpy may order either way across the one that fits decides it.
                if any(i <= rank < j for i, j in unsure):
                    raise Undecided("the rescue's order is numpy's rounding")
                return cost, order[rank]
        return math.inf, -1

    def _beam(
        self, rows: Rows, own: set[int], width: int, allowed: Allowed
    ) -> tuple[list[int], list[tuple[int, int]]]:
        """The first `width` guesses of TreeSearch's order (estimated cost: the cost curve
        summed over a guess's buckets, less one for a candidate; a candidate first; list
        order; only the guesses `allowed` that split the candidates at all), and the pairs
        of them whose order numpy's rounding may decide."""
        n = rows.n
        curve = cost_curve(n)
        # A bucket of s words costs at least 2s - 1, and at least s (1 + slope * log2 s):
        # so a guess at least 2n less its feedbacks, and n (1 + slope * (log2 n less its
        # entropy)).
        slope = min((curve[s] / s - 1.0) / math.log2(s) for s in range(2, n + 1))

        def floor(parts: int, inside: bool) -> float:
            bits = balanced_entropy(n, parts, rows.clc)
            return max(2.0 * n - parts, n + slope * n * (rows.whole - bits)) - inside

        order = column_floor_order(rows.bucket_counts(allowed), allowed, own, floor, 2)
        found: list[tuple[float, int, int, tuple[int, ...]]] = []
        # Any order of equal floors, and any batches, find the same: every guess whose
        # floor is below the last one found.
        while batch := list(islice(order, BATCH)):
            if len(found) > width and batch[0][0] > found[width][0] + 1e-9:
                break
            guesses = [g for _, g in batch]
            for guess, column in zip(guesses, rows.columns(guesses), strict=True):
                sizes = tuple(sorted(bucket_sizes(column).values()))
                if len(sizes) > 1:
                    inside = guess in own
                    estimate = sum(curve[c] for c in sizes) - inside
                    found.append((estimate, int(not inside), guess, sizes))
            found.sort()
            del found[width + 1 :]
        # numpy sums the estimate over the buckets in code order: with a fractional term
        # (a bucket of five or more) among three or more, two equal estimates may differ
        # in the last digit, in either direction (two terms add up the same in any order,
        # as whole numbers do). Such a pair across the beam's edge is undecidable here; in
        # it, only if both reach the least cost (the first of equal costs wins).
        exact = [max(entry[3]) <= EXACT_CURVE or len(entry[3]) <= 2 for entry in found]
        unsure = []
        for i, estimate in enumerate(entry[0] for entry in found):
            for j in range(i + 1, len(found)):
                if abs(found[j][0] - estimate) < 1e-9 and not exact[i] & exact[j]:
                    if j >= width:
                        raise Undecided("estimates equal but for numpy's rounding")
                    unsure.append((i, j))
        return [entry[2] for entry in found[:width]], unsure

    def _cost_of(
        self,
        rows: Rows,
        guess: int,
        allowed: Allowed,
        guesses_left: int,
        level: int,
        bound: float,
    ) -> float:
        """TreeSearch._cost_of: the exact cost of `guess` here, or inf once it cannot beat
        `bound`."""
        parts: dict[int, list[int]] = {}
        for answer, code in zip(rows.members, rows.columns([guess])[0], strict=True):
            parts.setdefault(code, []).append(answer)
        groups = sorted(
            ((code, part) for code, part in sorted(parts.items()) if code != self.solved),
            key=lambda group: len(group[1]),
            reverse=True,
        )
        floors = [2.0 * len(part) - 1.0 for _, part in groups]
        lower = rows.n + sum(floors)
        for (code, part), floor in zip(groups, floors, strict=True):
            if lower >= bound:
                return math.inf
            after = allowed
            if allowed is not None:
                after = tuple(after_feedback(self.words[guess], code, self.words, allowed))
            cost, _ = self.solve(tuple(part), after, guesses_left - 1, level + 1)
            if cost >= math.inf:
                return math.inf
            lower += cost - floor
        return lower
