"""`best`'s estimate under a prior of unequal chances (the history prior) without numpy:
the day's weights read from the cache where the Solver stored them, the pattern matrix of
every accepted word against every other, the plausible candidates and the guesses ranked
by their estimated cost (BestPolicy.plausible and estimate_ranked's first order, with
rank_expected_guesses' ties), each guess's buckets weighed by the native kernel.

With the look one guess ahead (look_ahead) and the bounded search (WeightedSearch, which
the Solver plays too in normal mode) it answers `suggest --prior history` after the
first guess in normal mode (history_advice), the Solver's advice without numpy.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import re
import zipfile
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from contextlib import suppress
from functools import cache, cached_property
from heapq import nsmallest
from itertools import accumulate, pairwise

from epdle.solver.advice import Advice, Suggestion, worth_showing
from epdle.solver.cache import cache_dir_name, remembered_key
from epdle.solver.history_prior import KINDS, days_behind, known_before, prior_path
from epdle.solver.ranking.book import common_key, guesses_text, shipped_lists
from epdle.solver.ranking.figure import ESTIMATE, SEARCH, in_figure_order
from epdle.solver.ranking.pure.kernel import (
    KernelMissing,
    Node,
    Weighted,
    finish_costs,
    search_node,
    weighted_buckets,
)
from epdle.solver.ranking.pure.matrix import Matrix, Undecided, guess_index, write_cache
from epdle.solver.ranking.searched import searched_values
from epdle.solver.scoring import GAME_GUESSES, feedback, pattern_code
from epdle.solver.settings import (
    BLIND_WIDTHS,
    COST_DECIMALS,
    LOOKAHEAD_MAX_CANDIDATES,
    LOOKAHEAD_POOL,
    LOOKAHEAD_TURNS,
    LOOKAHEAD_WIDTH,
    PLAUSIBLE_MASS_LEFT,
    RANKED_KEPT,
    RARE_GUARD_LEFT,
    RARE_GUARD_MAX,
    RESCUE_WIDTH,
    SEARCH_MAX_CANDIDATES,
    cost_curve,
    estimated_cost,
)
from epdle.words.history import Played, puzzle_number
from epdle.words.named import DEFAULT_LISTS

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
    at = None if guesses is None else {g: i for i, g in enumerate(guesses)}
    for member, weight in zip(rows.members, rows.weights, strict=True):
        i = member if at is None else at.get(member)
        if i is not None:
            costs[i] = estimated_cost(-counted.mass_log_mass[i], weight, uncertainty)
    return costs


def estimate_order(rows: WeightedRows, common: Sequence[int], count: int) -> list[int]:
    """The first `count` guesses of rank_expected_guesses over the rows: the cost rounded
    to COST_DECIMALS, then a possible answer (the likelier first), then the more common
    word (`common`: common_ranks)."""
    costs = estimate_costs(rows)
    last = round(nsmallest(count + 1, costs)[-1] * _SCALE)  # rounding keeps the order
    below = (last + 1) / _SCALE  # every cost rounding to `last` or less is below it
    kept = sorted(
        (key, -rows.probability(g), g)
        for g, cost in enumerate(costs)
        if cost < below and (key := round(cost * _SCALE)) <= last
    )
    ranked: list[int] = []
    at = 0
    while at < len(kept) and len(ranked) < count + 1:
        end = at + 1
        while end < len(kept) and kept[end][:2] == kept[at][:2]:
            end += 1
        tied = [entry[2] for entry in kept[at:end]]
        if len(tied) > 1:
            tied.sort(key=common.__getitem__)
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

    def cost_of(self, members: tuple[int, ...], guess: int, guesses_left: int) -> float:
        """The weighted guesses to find every one of `members` with `guess` first, as the
        search values it at its first level (inf: not within the guesses left)."""
        return self._cost_of(members, guess, guesses_left, 1, math.inf)

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


class DayPrior:
    """The history prior of one day as read back from the cache: its puzzle, the newest
    answer it knew, the weights, each kind's share (as history_prior.HistoryPrior)."""

    def __init__(self, puzzle: int, last: Played | None, weights: array, kinds: array) -> None:
        self.puzzle = puzzle
        self.last = last
        self.weights = weights
        self._kinds = kinds

    @property
    def days_behind(self) -> int:
        """The days before this one whose answers the history misses."""
        return days_behind(self.puzzle, self.last)

    @cached_property
    def shares(self) -> dict[str, float]:
        """Each kind's weight (HistoryPrior's, to the last digit or so: the report
        rounds them)."""
        by_kind: list[list[float]] = [[] for _ in KINDS]
        for weight, kind in zip(self.weights, self._kinds, strict=True):
            by_kind[kind].append(weight)
        return {name: math.fsum(by_kind[k]) for k, name in enumerate(KINDS)}


def day_prior(known: Sequence[Played], day: datetime.date, guesses: str) -> DayPrior:
    """The prior of `day` from the answers `known` over the shipped `guesses` (their
    text), as the Solver stored it; Undecided when it has not (the Solver fits it)."""
    puzzle = puzzle_number(day)
    before = known_before(known, puzzle)
    path = prior_path(_keys(guesses)[1], before, puzzle)
    count = guesses.count("\n") + (not guesses.endswith("\n"))
    try:
        with zipfile.ZipFile(path) as stored:
            weights = _float_array(stored.read("weights.npy"), "<f8", "d", count)
            kinds = _float_array(stored.read("kinds.npy"), "<i8", "q", count)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        raise Undecided(str(error)) from None
    return DayPrior(puzzle, before[-1] if before else None, weights, kinds)


def _float_array(data: bytes, descr: str, code: str, count: int) -> array:
    found, shape, body = read_npy(data)
    if found != descr or shape != (count,) or len(body) != 8 * count:
        raise ValueError("not this list's prior")
    values = array(code)
    values.frombytes(body)
    return values


@cache
def _keys(guesses: str) -> tuple[str, str]:
    """The keys of the shipped guesses' square pattern matrix (patterns.matrix_path) and of
    their history universe (cache.lists_key(guesses, [])), remembered with their text."""

    def keys() -> str:
        from epdle.solver.cache import lists_key

        spelled = guesses.split()
        return f"{lists_key(spelled, spelled)} {lists_key(spelled, [])}"

    matrix_key, universe_key = remembered_key(f"keys:{guesses}", keys, "every-guess").split()
    return matrix_key, universe_key


def look_ahead(
    matrix: Matrix,
    rows: WeightedRows,
    order: list[int],
    solved: int,
) -> tuple[list[int], dict[int, float]]:
    """BestPolicy.look_ahead in normal mode under unequal chances: the first LOOKAHEAD_WIDTH
    guesses of `order` (rank_expected_guesses' first LOOKAHEAD_POOL) re-ranked by their
    cost one guess further on (two_ply_costs: each feedback's bucket finished by its
    best next guess of a pool, the leading guesses and the likeliest candidates' own
    words), and each leader's cost. Leaders whose costs numpy's sums could order either
    way are undecided."""
    members, weights = rows.members, rows.weights
    likeliest = sorted(range(rows.n), key=lambda i: -weights[i])[:LOOKAHEAD_POOL]
    pool = sorted(set(order[:LOOKAHEAD_POOL]).union(members[i] for i in likeliest))
    at = {guess: position for position, guess in enumerate(pool)}
    pool_columns = array("H", pool)
    leaders = order[: LOOKAHEAD_WIDTH[True]]
    costs = []
    for leader in leaders:
        parts: dict[int, list[int]] = {}
        for i, code in enumerate(matrix.column(leader, members)):
            parts.setdefault(code, []).append(i)
        groups = [parts[code] for code in sorted(parts) if code != solved]
        if not groups:
            costs.append(1.0)
            continue
        answers, group_weights, own, ends = array("H"), array("d"), array("H"), array("I")
        for group in groups:
            for i in group:
                answers.append(members[i])
                group_weights.append(weights[i])
                own.append(at.get(members[i], len(pool)))
            ends.append(len(answers))
        finish = finish_costs(
            matrix.address, matrix.width, answers, group_weights, own, ends, pool_columns
        )
        masses = [pairwise_sum([weights[i] for i in group]) for group in groups]
        costs.append(1.0 + math.fsum(m * f for m, f in zip(masses, finish, strict=True)))
    ranked = sorted(range(len(leaders)), key=costs.__getitem__)
    for before, after in pairwise(ranked):
        if costs[after] - costs[before] <= 1e-9 * costs[after]:
            raise Undecided("leaders' costs too close to order")
    looked = {leaders[i]: costs[i] for i in ranked}
    return [leaders[i] for i in ranked] + order[len(leaders) :], looked


def consistent(text: str, words: Sequence[str], guess: str, marks: str) -> list[int]:
    """The indexes of the words (`text`: one a line, as the guesses file holds them) that
    give `guess` the feedback `marks`: its greens, the letters it finds and those it
    rules out narrow them down (one scan of the text), then each is scored."""
    found = {letter for letter, mark in zip(guess, marks, strict=True) if mark != "B"}
    absent = "".join(sorted({letter for letter in guess if letter not in found}))
    places = [
        letter if mark == "G" else f"[^{letter}{absent}\\n]"
        for letter, mark in zip(guess, marks, strict=True)
    ]
    ahead = "".join(f"(?=[^\\n]*{letter})" for letter in sorted(found))
    line = len(guess) + 1
    kept = []
    for match in re.finditer(f"^{ahead}{''.join(places)}$", text, re.MULTILINE):
        index, word = match.start() // line, match[0]
        if index >= len(words) or words[index] != word:
            raise Undecided("the guesses file is not one word a line")
        if feedback(guess, word) == marks:
            kept.append(index)
    return kept


def common_ranks(words: Sequence[str]) -> list[int]:
    """Each word's place in book.common_key's order (the more common word first)."""
    ranks = [0] * len(words)
    for rank, index in enumerate(sorted(range(len(words)), key=lambda g: common_key(words[g]))):
        ranks[index] = rank
    return ranks


def _shipped_common_ranks(words: Sequence[str], key: str) -> list[int]:
    """common_ranks of the shipped guesses, cached beside their matrix: the frequencies
    cost a cold process more than the rest of its answer."""
    path = os.path.join(cache_dir_name(), f"cold-shapes-{key}-common.json")
    with suppress(OSError, ValueError, KeyError, TypeError):
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        if document["lists"] == key and len(document["ranks"]) == len(words):
            return list(document["ranks"])
    ranks = common_ranks(words)
    write_cache(path, json.dumps({"lists": key, "ranks": ranks}, separators=(",", ":")))
    return ranks


def history_advice(
    history: Sequence[tuple[str, str]],
    hard: bool,
    top: int,
    known: Sequence[Played],
    day: datetime.date,
) -> tuple[Advice, DayPrior] | None:
    """`best` advice under the history prior of `day` (the answers `known`), as the
    Solver gives it, and the prior; None where the Solver must answer (hard mode, the
    last guess, the look one guess ahead, a history it would refuse, nothing cached yet,
    or an order numpy's rounding decides). `history` is normalised."""
    if hard or not history or len(history) >= GAME_GUESSES - 1 or top > RANKED_KEPT:
        return None
    try:
        return _history_advice(history, top, known, day)
    except (Undecided, KernelMissing):
        return None


def _history_advice(
    history: Sequence[tuple[str, str]], top: int, known: Sequence[Played], day: datetime.date
) -> tuple[Advice, DayPrior] | None:
    text = guesses_text()
    words = shipped_lists(DEFAULT_LISTS)[0]
    prior = day_prior(known, day, text)
    matrix_key = _keys(text)[0]
    matrix = every_guess_matrix(matrix_key, len(words))

    def common() -> list[int]:
        return _shipped_common_ranks(words, matrix_key)

    weights = prior.weights
    length = len(words[0])
    solved = "G" * length
    left: list[int] | None = None
    for turn, (word, marks) in enumerate(history, start=1):
        at = guess_index(words, word)
        if at is None or len(marks) != length or (marks == solved and turn < len(history)):
            return None
        code = pattern_code(marks)
        if left is None:  # a column of the square matrix touches every page: by letters
            left = consistent(text, words, word, marks)
        else:
            left = [a for a, c in zip(left, matrix.column(at, left), strict=True) if c == code]
    if not left:
        return None  # the Solver says which guess no word fits
    likely = sorted(left, key=lambda a: -weights[a])[:_LISTED]
    listed = [words[a] for a in likely]
    if history[-1][1] == solved:
        return Advice(1, True, [], listed[:1]), prior
    n = len(left)
    turns = len(history)
    search: WeightedSearch | None = None
    looked: dict[int, float] = {}
    if n <= 2:  # likelier_first: the likelier, then the more common word
        ranked = sorted(left, key=lambda a: (-weights[a], common()[a]))
        kept = left
    else:
        kept = plausible(left, [weights[a] for a in left])
        searched_here = len(kept) <= SEARCH_MAX_CANDIDATES[True]
        looks = turns in LOOKAHEAD_TURNS and len(kept) <= LOOKAHEAD_MAX_CANDIDATES[True]
        looks = looks and not searched_here
        rows = WeightedRows(matrix, kept, [weights[a] for a in kept])
        estimated = estimate_order(rows, common(), LOOKAHEAD_POOL if looks else top + 1)
        if looks:
            estimated, looked = look_ahead(matrix, rows, estimated, 3**length - 1)
        searched = None
        if searched_here:
            search = WeightedSearch(matrix, weights, length, BLIND_WIDTHS)
            searched = searched_guess(search, left, kept, turns)
        ranked = estimated
        if searched is not None and searched != estimated[0]:
            ranked = [searched, *(g for g in estimated if g != searched)]
    shown = ranked[: max(1, top)]
    estimates = estimate_costs(WeightedRows(matrix, kept, [weights[a] for a in kept]), shown)
    figures, sources = row_figures(search, kept, shown, turns, estimates, looked)
    every = WeightedRows(matrix, left, [weights[a] for a in left])
    counted = every.buckets(shown)
    suggestions = []
    for i, guess in enumerate(shown):
        probability = every.probability(guess)
        suggestions.append(
            Suggestion(
                words[guess],
                -counted.mass_log_mass[i],
                counted.expected[i] - probability,
                probability > 0,
                figures[i],
                sources[i],
                probability,
            )
        )
    ordered = in_figure_order(suggestions, turns)
    return Advice(n, False, worth_showing(ordered, n), listed), prior


def row_figures(
    search: WeightedSearch | None,
    kept: list[int],
    shown: list[int],
    turns: int,
    estimates: Sequence[float],
    looked: dict[int, float],
) -> tuple[list[float], list[str]]:
    """Each shown guess's figure and what gave it (BestPolicy.figures off the tree): its
    searched value where the search ran, else its cost one guess further on where the
    look re-ranked it, else the estimate's."""
    figures = [looked.get(g, estimate) for g, estimate in zip(shown, estimates, strict=True)]
    sources = [ESTIMATE] * len(shown)
    if search is not None:
        for i, value in enumerate(searched_figures(search, kept, shown, turns)):
            if value is not None:
                figures[i], sources[i] = value, SEARCH
    return figures, sources


def searched_figures(
    search: WeightedSearch, kept: list[int], shown: list[int], turns: int
) -> list[float | None]:
    """BestPolicy.searched_figures under unequal chances: each of `shown` with the
    guesses the search takes to find each of the plausible candidates `kept` with that
    guess first, averaged by their chances (None: not within the guesses left, relaxed as
    the search relaxes them)."""
    members = tuple(kept)
    mass = pairwise_sum([search.weights[m] for m in kept])

    def cost(guess: int, limit: int) -> float:
        return search.cost_of(members, guess, limit)

    totals = searched_values(shown, max(1, GAME_GUESSES - turns), cost)
    return [None if total >= math.inf else total / mass for total in totals]


def searched_guess(
    search: WeightedSearch, every: list[int], kept: list[int], turns: int
) -> int | None:
    """BestPolicy._searched_guess under unequal chances in normal mode, for the plausible
    candidates `kept` of `every` candidate after `turns` guesses: the rare-word guard,
    the search, then the guess limit relaxed by two and by three (None: no guess found)."""
    guesses_left = max(1, GAME_GUESSES - turns)
    if guesses_left <= RARE_GUARD_LEFT[False] and len(kept) < len(every) <= RARE_GUARD_MAX:
        cost, guess = search.solve(tuple(every), guesses_left, 1)
        if cost < math.inf:
            return guess
    for limit in (guesses_left, guesses_left + 2, guesses_left + 3):
        cost, guess = search.solve(tuple(kept), limit, 1)
        if cost < math.inf:
            return guess
    return None


# The candidates an Advice lists.
_LISTED = 100
