"""`best`'s search: a decision tree by depth-limited search over the most promising guesses.

At each node the guesses are ranked by a cheap estimate of the total guesses they
lead to; the top few (more near the root) are solved exactly below, and the
cheapest wins. Small sets use exact shortcuts (a guess that splits everything into
singletons is optimal). The tree maps a history path to the guess to play.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from functools import cache

import numpy as np

from epdle.solver.patterns import candidate_rows
from epdle.solver.ranking.book import path_key
from epdle.solver.ranking.stats import candidate_blocks
from epdle.solver.scoring import GAME_GUESSES, pattern_string
from epdle.solver.settings import RESCUE_WIDTH, cost_curve
from epdle.solver.universe import Universe

log = logging.getLogger(__name__)

INFINITE = math.inf
# The tree builder's search: guesses solved exactly at each depth below the opener (more
# near the root, where choices matter most); deeper levels reuse the last width. Wide
# near the root because there the estimate ranks the best guess late: in hard mode on
# the original lists (2,315 / 12,972), after SALET all grey the best guess, CRUMP, is its
# 126th, and after SALET BBBGB the third guess needs 40. Widths 20 / 6 / 3 gave 8,125
# there, these 8,122, the published optimum (docs/bench.md, "How `best` works").
BUILD_WIDTHS = (1, 150, 40, 10)
# The opener is searched: the OPENER_POOL first guesses the estimate ranks first are
# screened by a narrow search with few rescue guesses, and the best of those (at most
# OPENER_FINALISTS, within FINALIST_GAP of the best screened total) searched in full.
# A finalist costs about a full search: where the screen tells them far apart (hard
# mode, original lists: SALET 8,145, REAST 8,153, IRATE 8,238) the last is not tried.
OPENER_POOL = 12
SCREEN_WIDTHS = (1, 5, 2, 1)
SCREEN_RESCUE_WIDTH = 10
OPENER_FINALISTS = 3
FINALIST_GAP = 0.005
# Hard mode's full search tries this many rescue guesses (RESCUE_WIDTH elsewhere): there
# the hints leave many deep sets that cannot be finished in time, and proving that with
# 200 more guesses each took most of the build (2023 list, hard, after TARSE BBBBY: the
# same 782 guesses, in 200-365 s with 200, 40 s with 20, profiled on loaded cores).
HARD_RESCUE_WIDTH = 20
# The tree builder first asks for every game within the game's guesses; only lists where
# no tree is found so get more (each game's count is the total's part, so a six-guess
# game is played wherever it lowers the total).
EXTRA_GUESSES_TRIED = 3
# Up to this many candidates, a node first looks for a candidate that tells all of them
# apart (n by n feedbacks) before bucketing every guess.
_OWN_SPLIT_MAX = 64
# Codes sorted at a time when looking for a guess that tells every candidate apart.
_APART_CELLS = 1 << 16

Progress = Callable[[int, int], None]


def _estimated_cost(size: np.ndarray) -> np.ndarray:
    """Rough total guesses to finish a bucket of each size, used only to rank guesses."""
    # A table lookup: the curve's logarithm over every bucket would dominate small nodes.
    return _curve_table(max(64, 1 << int(size.max(initial=0)).bit_length()))[size]


@cache
def _curve_table(size: int) -> np.ndarray:
    """settings.cost_curve up to `size` as an array (a few sizes, made once each)."""
    return np.array(cost_curve(size))


class TreeSearch:
    """Depth-limited search minimising the (weighted) total guesses to find every candidate.

    With weights (the blind prior) the cost is the expected number of guesses; without,
    every candidate counts once and costs are whole numbers of guesses.
    """

    def __init__(
        self,
        universe: Universe,
        hard: bool,
        widths: tuple[int, ...],
        weights: np.ndarray | None = None,
        rescue_width: int | None = None,
        bounded: bool = False,
    ) -> None:
        self.universe = universe
        # Bounded (the tree builder): each feedback's part is searched with what is left
        # of the bound, and gives up once it cannot come in under it (the memo then holds
        # a lower bound, not the cost); an unbounded search solves every part in full.
        self.bounded = bounded
        self.rescue_width = RESCUE_WIDTH if rescue_width is None else rescue_width
        self.uniform = weights is None
        self.weights = np.ones(len(universe.answers)) if weights is None else weights
        self.hard = hard
        self.widths = widths
        self.patterns = np.asarray(universe.patterns)  # a plain array: no memmap per lookup
        # Per node: (cost, guess), or (a lower bound, -1) where a bounded search gave up.
        self.memo: dict[tuple[bytes, bytes, int], tuple[float, int]] = {}
        self.guess_of_answer = np.array(
            [universe.guess_index[word] for word in universe.answers], dtype=np.int64
        )
        self.solved = universe.pattern_count - 1

    def width(self, level: int) -> int:
        return self.widths[min(level, len(self.widths) - 1)]

    def allowed_after(self, allowed: np.ndarray | None, guess: int, code: int) -> np.ndarray | None:
        if allowed is None:
            return None
        universe = self.universe
        among = np.flatnonzero(allowed)  # only these can stay allowed: check them alone
        kept = universe.hard_mode_mask(
            universe.guesses[guess], pattern_string(code, universe.length), among
        )
        after = np.zeros_like(allowed)
        after[among[kept]] = True
        return after

    def buckets(self, candidates: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
        """The candidates split by the feedback `guess` gives: (code, bucket), by code."""
        codes = self.patterns[candidates, guess]
        order = np.argsort(codes, kind="stable")
        sorted_codes = codes[order]
        members = candidates[order]
        edges = (np.flatnonzero(np.diff(sorted_codes)) + 1).tolist()
        return [
            (int(sorted_codes[start]), members[start:end])
            for start, end in zip([0, *edges], [*edges, len(codes)], strict=True)
        ]

    def solve(
        self,
        candidates: np.ndarray,
        allowed: np.ndarray | None,
        guesses_left: int,
        level: int,
        bound: float = INFINITE,
    ) -> tuple[float, int]:
        """(total guesses to find every candidate, the guess to play) under the depth limit.

        A cost of `bound` or more may come back as (a lower bound >= `bound`, -1): the
        search gave up on this node once nothing in it could come in under `bound`.
        """
        n = len(candidates)
        if guesses_left <= 0:
            return INFINITE, -1
        first = int(self.guess_of_answer[candidates[0]])
        if n == 1:
            return float(self.weights[candidates[0]]), first
        if guesses_left == 1:
            return INFINITE, -1
        if n == 2:
            likely, other = candidates
            if self.weights[other] > self.weights[likely]:
                likely, other = other, likely
            cost = float(self.weights[likely] + 2 * self.weights[other])
            return cost, int(self.guess_of_answer[likely])
        key = (
            candidates.tobytes(),
            b"" if allowed is None else np.packbits(allowed).tobytes(),
            guesses_left,
        )
        hit = self.memo.get(key)
        if hit is not None and (hit[1] >= 0 or hit[0] >= bound):
            return hit
        result = self._solve_uncached(candidates, allowed, guesses_left, level, bound)
        self.memo[key] = result
        return result

    def _solve_uncached(
        self,
        candidates: np.ndarray,
        allowed: np.ndarray | None,
        guesses_left: int,
        level: int,
        bound: float,
    ) -> tuple[float, int]:
        n = len(candidates)
        if self.uniform and n <= _OWN_SPLIT_MAX:
            own = self._own_perfect_split(candidates, allowed)
            if own >= 0:
                return 2.0 * n - 1, own  # as below, without bucketing every guess
        if guesses_left == 2:
            return self._told_apart(candidates, allowed)
        weights = self.weights[candidates]
        mass = float(weights.sum())
        columns, bucket_count, largest, estimate, is_candidate, answer_weight = (
            self._guess_estimates(candidates, allowed, weights)
        )
        # A guess splitting everything into singletons is optimal: each word costs two
        # guesses, except the guess itself when it may be the answer (the likeliest such).
        # (With unequal weights that is only a bound: a likely candidate may do better.)
        perfect = bucket_count == n
        best_cost, best_guess = INFINITE, -1
        if (perfect & is_candidate).any():
            chosen = int(np.argmax(np.where(perfect & is_candidate, answer_weight, -1.0)))
            best_cost, best_guess = 2 * mass - float(answer_weight[chosen]), int(columns[chosen])
        elif perfect.any():
            best_cost, best_guess = 2 * mass, int(columns[np.flatnonzero(perfect)[0]])
        if guesses_left == 2 or (self.uniform and best_guess >= 0):
            return best_cost, best_guess
        estimate -= answer_weight  # a hit ends that word's game at once
        useful = bucket_count > 1
        estimate = np.where(useful, estimate, np.inf)
        order = np.lexsort((~is_candidate, estimate))
        width = self.width(level)
        # Every word costs this guess, and each part at least 2 s - 1 below it (one word
        # found per guess at best): no guess can do better than its floor.
        floor = 3 * n - bucket_count - is_candidate if self.uniform and self.bounded else None
        # With three guesses left each part must be told apart by the next guess, one
        # allowed here too, so a part can hold no more words than the most buckets a guess
        # makes here (two words need no such guess): a guess leaving a larger part cannot
        # finish in time. Skipped as if tried (the same beam), without its parts' searches.
        hopeless = largest > max(2, int(bucket_count.max())) if guesses_left == 3 else None
        # Bounded, a guess must come in under the bound to count. `settled`: some guess
        # is known to fit the guess limit (one given up on for the bound may not: then
        # the rescue guesses are tried as the full search would).
        target = min(best_cost, bound) if self.bounded else best_cost
        settled = best_cost < INFINITE
        for rank, index in enumerate(order):
            # Past the beam, keep looking only while nothing fits the guess limit.
            if not np.isfinite(estimate[index]) or (rank >= width and settled):
                break
            if rank >= width + self.rescue_width:
                break
            if floor is not None and floor[index] >= target:
                continue
            if hopeless is not None and hopeless[index]:
                continue
            guess = int(columns[index])
            cost = self._cost_of(candidates, allowed, guess, guesses_left, level, target)
            found = cost < target
            if found:
                best_cost, best_guess = cost, guess
                target = cost
            settled = settled or (found if self.bounded else cost < INFINITE)
        if best_guess < 0 and target < INFINITE:
            return target, -1  # nothing under the bound: the bound is a lower bound
        return best_cost, best_guess

    def _guess_estimates(
        self, candidates: np.ndarray, allowed: np.ndarray | None, weights: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every guess the search may play (`columns`, guess indexes), with its buckets'
        count over the candidates, its largest bucket, its estimated cost (the candidates'
        `weights`), whether it is a candidate, and its weight as the answer."""
        columns = (
            np.arange(len(self.universe.guesses)) if allowed is None else np.flatnonzero(allowed)
        )
        bucket_count = np.empty(len(columns), dtype=np.int64)
        largest = np.empty(len(columns), dtype=np.int64)
        estimate = np.empty(len(columns))
        blocks = candidate_blocks(
            self.patterns,
            candidates,
            columns,
            self.universe.pattern_count,
            None if self.uniform else weights,
        )
        for part, counts, bucket_mass in blocks:
            bucket_count[part] = (counts > 0).sum(axis=1)
            largest[part] = counts.max(axis=1)
            if bucket_mass is None:
                estimate[part] = _estimated_cost(counts).sum(axis=1)
            else:
                per_word = _estimated_cost(counts) / np.maximum(counts, 1)
                estimate[part] = (bucket_mass * per_word).sum(axis=1)
        is_candidate, answer_weight = self._as_answers(candidates, columns, weights)
        return columns, bucket_count, largest, estimate, is_candidate, answer_weight

    def _as_answers(
        self, candidates: np.ndarray, columns: np.ndarray, weights: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Per column (sorted guess indexes): whether it is a candidate, and its weight."""
        is_candidate = np.zeros(len(columns), dtype=bool)
        position = np.searchsorted(columns, self.guess_of_answer[candidates])
        inside = position < len(columns)
        hit = inside & (
            columns[np.minimum(position, len(columns) - 1)] == self.guess_of_answer[candidates]
        )
        is_candidate[position[hit]] = True
        answer_weight = np.zeros(len(columns))
        answer_weight[position[hit]] = weights[hit]
        return is_candidate, answer_weight

    def _told_apart(self, candidates: np.ndarray, allowed: np.ndarray | None) -> tuple[float, int]:
        """Two guesses left: the next guess must tell every candidate apart. As the full
        node would choose (the likeliest candidate that does, else the first guess), but
        found by sorting each guess's codes instead of counting its buckets."""
        columns = (
            np.arange(len(self.universe.guesses)) if allowed is None else np.flatnonzero(allowed)
        )
        apart = np.empty(len(columns), dtype=bool)
        block = max(1, _APART_CELLS // len(candidates))
        for start in range(0, len(columns), block):
            rows = candidate_rows(self.patterns, candidates, columns[start : start + block])
            codes = np.sort(rows, axis=0)
            apart[start : start + block] = (codes[1:] != codes[:-1]).all(axis=0)
        weights = self.weights[candidates]
        mass = float(weights.sum())
        is_candidate, answer_weight = self._as_answers(candidates, columns, weights)
        if (apart & is_candidate).any():
            chosen = int(np.argmax(np.where(apart & is_candidate, answer_weight, -1.0)))
            return 2 * mass - float(answer_weight[chosen]), int(columns[chosen])
        if apart.any():
            return 2 * mass, int(columns[np.flatnonzero(apart)[0]])
        return INFINITE, -1

    def _own_perfect_split(self, candidates: np.ndarray, allowed: np.ndarray | None) -> int:
        """The first candidate (in guess order) whose feedbacks tell every candidate
        apart, -1 if none: with equal weights no guess does better (2 n - 1)."""
        own = self.guess_of_answer[candidates]
        if allowed is not None:
            own = own[allowed[own]]
        own = np.sort(own)
        codes = np.sort(candidate_rows(self.patterns, candidates, own), axis=0)
        apart = np.flatnonzero((np.diff(codes.astype(np.int16), axis=0) != 0).all(axis=0))
        return int(own[apart[0]]) if len(apart) else -1

    def cost_of(
        self, candidates: np.ndarray, allowed: np.ndarray | None, guess: int, guesses_left: int
    ) -> float:
        """The total guesses to find every candidate (weighted) with `guess` first, as the
        search values it at its first level (inf: some word cannot be found in time)."""
        return self._cost_of(candidates, allowed, guess, guesses_left, 1, INFINITE)

    def _cost_of(
        self,
        candidates: np.ndarray,
        allowed: np.ndarray | None,
        guess: int,
        guesses_left: int,
        level: int,
        bound: float,
        progress: Progress | None = None,
    ) -> float:
        """Exact cost of playing `guess` here, or a lower bound >= `bound` once it cannot
        beat `bound` (inf: some word cannot be found in time; `progress`: told after each
        feedback's part is solved, the words of the parts solved so far of all, the
        largest part first: a count of parts would stand still while the largest ones,
        most of the work, are searched)."""
        parts = [
            (code, part) for code, part in self.buckets(candidates, guess) if code != self.solved
        ]
        parts.sort(key=lambda item: -len(item[1]))
        # Every word costs this guess; below, each costs one more except the first found.
        if self.uniform:
            floors = [2.0 * len(part) - 1.0 for _, part in parts]
        else:
            floors = [2 * self.weights[part].sum() - self.weights[part].max() for _, part in parts]
        lower = float(self.weights[candidates].sum() + sum(floors))
        words, total = 0, sum(len(part) for _, part in parts)
        for (code, part), floor in zip(parts, floors, strict=True):
            if lower >= bound:
                return lower
            # Two words or one need no guesses but their own: no allowed set worked out.
            child_allowed = self.allowed_after(allowed, guess, code) if len(part) > 2 else None
            # What this part may cost for the guess to still come in under the bound.
            budget = bound - lower + floor if self.bounded else INFINITE
            cost, _ = self.solve(part, child_allowed, guesses_left - 1, level + 1, budget)
            if cost >= INFINITE:
                return INFINITE
            lower += cost - floor
            words += len(part)
            if progress is not None:
                progress(words, total)
        return lower

    def root_allowed(self) -> np.ndarray | None:
        return np.ones(len(self.universe.guesses), dtype=bool) if self.hard else None

    def opener_cost(
        self, opener: int, limit: int, bound: float = INFINITE, progress: Progress | None = None
    ) -> float:
        """The total over all answers when `opener` starts (inf: not within `limit`
        guesses, or not under `bound`)."""
        everything = np.arange(len(self.universe.answers))
        return self._cost_of(everything, self.root_allowed(), opener, limit, 0, bound, progress)

    def extract(self, opener: int, allowed: np.ndarray | None, limit: int) -> dict[str, str]:
        """The chosen guess at every node reachable with the memoised choices."""
        tree: dict[str, str] = {}
        length = self.universe.length
        Node = tuple[tuple[tuple[str, str], ...], np.ndarray, np.ndarray | None, int, int]
        stack: list[Node] = [((), np.arange(len(self.universe.answers)), allowed, limit, opener)]
        while stack:
            history, candidates, node_allowed, left, guess = stack.pop()
            word = self.universe.guesses[guess]
            tree[path_key(history)] = word
            for code, part in self.buckets(candidates, guess):
                if code == self.solved:
                    continue
                child_allowed = self.allowed_after(node_allowed, guess, code)
                _, child_guess = self.solve(part, child_allowed, left - 1, len(history) + 1)
                child_history = (*history, (word, pattern_string(code, length)))
                stack.append((child_history, part, child_allowed, left - 1, child_guess))
        return tree


class FinishCheck:
    """Can every candidate still be found within so many guesses? A depth-first search that
    stops at the first guess that can, trying the guesses with the most feedbacks first.

    "Yes" is always right (it found the guesses); "no" means none of the `width` most
    splitting guesses at some node could, which for the sets it is asked about (a few dozen
    words, a hard-mode family) is as good as exact.
    """

    def __init__(self, universe: Universe, width: int = 12) -> None:
        self.universe = universe
        self.width = width
        self.patterns = universe.patterns
        self.search = TreeSearch(universe, False, (1,))  # for buckets and allowed_after
        self.memo: dict[tuple[bytes, bytes, int], bool] = {}
        self.found: dict[tuple[bytes, bytes, int], int] = {}  # the guess that can, per node

    def finishing_guess(
        self, candidates: np.ndarray, allowed: np.ndarray | None, guesses_left: int
    ) -> int | None:
        """A guess after which every candidate can be found in time (None: none found)."""
        if len(candidates) <= 2:
            return None
        if not self.can_finish(candidates, allowed, guesses_left):
            return None
        return self.found.get(self._key(candidates, allowed, guesses_left))

    def _key(
        self, candidates: np.ndarray, allowed: np.ndarray | None, guesses_left: int
    ) -> tuple[bytes, bytes, int]:
        packed = b"" if allowed is None else np.packbits(allowed).tobytes()
        return candidates.tobytes(), packed, guesses_left

    def unsafe_mass(
        self,
        candidates: np.ndarray,
        allowed: np.ndarray | None,
        guess: int,
        guesses_left: int,
        weights: np.ndarray,
    ) -> float:
        """The weight of the candidates that `guess` leaves in parts that cannot all be
        found within the guesses left after it (0: every candidate can)."""
        lost = 0.0
        for code, part in sorted(self.search.buckets(candidates, guess), key=lambda p: len(p[1])):
            if code == self.search.solved:
                continue
            child_allowed = self.search.allowed_after(allowed, guess, code)
            if not self.can_finish(part, child_allowed, guesses_left - 1):
                lost += float(weights[part].sum())
        return lost

    def safe(
        self, candidates: np.ndarray, allowed: np.ndarray | None, guess: int, guesses_left: int
    ) -> bool:
        """Whether after `guess` every candidate can still be found within `guesses_left`."""
        if guesses_left <= 0:
            return False
        # Small parts first: they are cheap to check, and the traps (a family the hints pin
        # down) are small.
        parts = sorted(self.search.buckets(candidates, guess), key=lambda item: len(item[1]))
        for code, part in parts:
            if code == self.search.solved:
                continue
            child_allowed = self.search.allowed_after(allowed, guess, code)
            if not self.can_finish(part, child_allowed, guesses_left - 1):
                return False
        return True

    def can_finish(
        self, candidates: np.ndarray, allowed: np.ndarray | None, guesses_left: int
    ) -> bool:
        n = len(candidates)
        if n <= 1:
            return n == 0 or guesses_left >= 1
        if guesses_left <= 1:
            return False
        if n == 2:
            return True  # either candidate, then the other (both obey every hint)
        key = self._key(candidates, allowed, guesses_left)
        known = self.memo.get(key)
        if known is None:
            guess = self._finishing(candidates, allowed, guesses_left)
            known = guess is not None
            self.memo[key] = known
            if guess is not None:
                self.found[key] = guess
        return known

    def _finishing(
        self, candidates: np.ndarray, allowed: np.ndarray | None, guesses_left: int
    ) -> int | None:
        columns = (
            np.arange(len(self.universe.guesses)) if allowed is None else np.flatnonzero(allowed)
        )
        largest = np.empty(len(columns), dtype=np.int64)
        buckets = np.empty(len(columns), dtype=np.int64)
        blocks = candidate_blocks(
            self.patterns, candidates, columns, self.universe.pattern_count, None
        )
        for part, counts, _ in blocks:
            largest[part] = counts.max(axis=1)
            buckets[part] = (counts > 0).sum(axis=1)
        apart = np.flatnonzero(largest == 1)
        if len(apart):
            # It splits every candidate apart: each is found by the next guess.
            own = np.isin(columns[apart], self.search.guess_of_answer[candidates])
            return int(columns[apart[np.argmax(own)]])
        if guesses_left == 2:
            return None
        for index in np.argsort(-buckets, kind="stable")[: self.width]:
            guess = int(columns[index])
            if buckets[index] > 1 and self.safe(candidates, allowed, guess, guesses_left):
                return guess
        return None


def _estimated_openers(universe: Universe, count: int) -> list[int]:
    """The first guesses with the lowest estimated cost (for lists without a known opener)."""
    columns = np.arange(len(universe.guesses))
    estimate = np.empty(len(columns))
    every = np.arange(len(universe.answers))
    blocks = candidate_blocks(universe.patterns, every, columns, universe.pattern_count, None)
    for part, counts, _ in blocks:
        estimate[part] = _estimated_cost(counts).sum(axis=1)
    return [int(i) for i in np.argsort(estimate, kind="stable")[:count]]


def build_tree(
    universe: Universe, hard: bool, progress: Progress | None = None
) -> tuple[float, dict[str, str]]:
    """Search the decision tree for a universe; returns (total guesses, tree).

    `progress` counts the screened openers, then the finalists' words searched (one total
    throughout, the last step when the tree is found).
    """
    pool = _estimated_openers(universe, OPENER_POOL)
    for limit in range(GAME_GUESSES, GAME_GUESSES + EXTRA_GUESSES_TRIED + 1):
        found = _build_within(universe, hard, pool, limit, progress)
        if found is not None:
            return found
        log.warning("no tree within %d guesses; allowing one more", limit)
    raise RuntimeError("no decision tree found")


def _build_within(
    universe: Universe, hard: bool, pool: list[int], limit: int, progress: Progress | None
) -> tuple[float, dict[str, str]] | None:
    steps = len(pool) + 100 * OPENER_FINALISTS
    screen = TreeSearch(
        universe, hard, SCREEN_WIDTHS, rescue_width=SCREEN_RESCUE_WIDTH, bounded=True
    )
    screened: list[tuple[float, int, int]] = []
    for rank, opener in enumerate(pool):
        # An opener can only be a finalist within FINALIST_GAP of the best so far.
        leader = min(screened)[0] if screened else INFINITE
        cost = screen.opener_cost(opener, limit, leader * (1 + FINALIST_GAP) + 1)
        screened.append((cost, rank, opener))
        if progress is not None:
            progress(rank + 1, steps)
    ranked = sorted(screened)[:OPENER_FINALISTS]
    cutoff = ranked[0][0] * (1 + FINALIST_GAP)
    finalists = [opener for cost, _, opener in ranked if cost <= cutoff]
    # The finalists share the steps set aside for OPENER_FINALISTS (the total stays put).
    span = 100 * OPENER_FINALISTS // len(finalists)
    rescue = HARD_RESCUE_WIDTH if hard else None
    search = TreeSearch(universe, hard, BUILD_WIDTHS, rescue_width=rescue, bounded=True)
    best_cost, best_opener = INFINITE, -1
    for number, opener in enumerate(finalists):

        def tick(done: int, total: int, start: int = len(pool) + span * number) -> None:
            if progress is not None:
                progress(start + span * done // total, steps)

        cost = search.opener_cost(opener, limit, best_cost, tick)
        log.info("opener %s: %s", universe.guesses[opener], cost)
        if cost < best_cost:
            best_cost, best_opener = cost, opener
    if progress is not None:
        progress(steps, steps)
    if best_cost >= INFINITE:
        return None
    return best_cost, search.extract(best_opener, search.root_allowed(), limit)
