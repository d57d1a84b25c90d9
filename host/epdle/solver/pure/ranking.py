"""The Solver's ranking off the tree without numpy: the estimate (rank_expected_guesses),
the look one guess ahead (two_ply_costs) and the search's guess first."""

from __future__ import annotations

import math
from bisect import insort
from collections.abc import Callable, Iterator
from functools import partial
from typing import NamedTuple

from epdle.solver.pure.bounds import (
    column_floor_order,
    entropy_bounds,
    estimated_cost,
    feedback_floor,
    feedback_floor_order,
    floor_order,
)
from epdle.solver.pure.hard import Allowed, follower, trapped
from epdle.solver.pure.matrix import (
    BATCH,
    Matrix,
    Rows,
    Undecided,
    bucket_sizes,
    count_log_count,
    lane_bucket_counts,
    shipped_lists_indexed,
)
from epdle.solver.pure.search import Search
from epdle.solver.scoring import GAME_GUESSES
from epdle.solver.settings import (
    COST_DECIMALS,
    LOOKAHEAD_MAX_CANDIDATES,
    LOOKAHEAD_POOL,
    LOOKAHEAD_TURNS,
    LOOKAHEAD_WIDTH,
    SEARCH_MAX_CANDIDATES,
    TRAP_PENALTY,
    TRAP_PENALTY_NEXT,
)

# A guess whose floor is this far above the last kept cost cannot round into the list.
_TIE = 2e-9
# Costs scaled so that rounding to a whole number rounds them as numpy does (np.round).
_SCALE = 10.0**COST_DECIMALS


# A cost this close (in units of 1e-9) to half a unit may round either way in numpy: its
# costs and these differ in the last digits (its log2 is its own), by up to 1e-11 where
# max(0, rounding error) ** 0.7 enters: a guess splitting the candidates apart, and in
# the look-ahead.
_EDGE = 0.05


_NEAR_EDGE = 1e-4


class Ranked(NamedTuple):
    key: tuple[int, int, int]  # (cost rounded to 1e-9, not a candidate, guess index)
    cost: float
    apart: bool  # splits the candidates into singletons


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
            if len(batch) == BATCH:
                break
        else:
            done = True
        for guess, (bits, apart) in zip(batch, rows.bits(batch), strict=True):
            probability = chance if guess in is_candidate else 0.0
            cost = estimated_cost(bits, probability, uncertainty)
            scaled = cost * _SCALE
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


class Trap(NamedTuple):
    """Hard mode's charge in the look: `penalty` guesses per unit of a bucket's weight that
    a finishing guess leaves in pinned families larger than `larger_than`."""

    penalty: float
    larger_than: int
    length: int


def finish_cost(
    rows: list[bytes],
    values: list[int],
    members: list[int],
    trap: Trap | None = None,
    follows: Callable[[int], bool] | None = None,
) -> float:
    """The cheapest estimated cost of finishing one bucket with a pool guess: two_ply_costs'
    `finish` for one bucket (every candidate equally likely).

    `rows` holds each of the bucket's words' codes for the pool guesses (`values`: as
    little-endian integers); `members` the pool positions of the bucket's own words.
    Hard mode: `trap` charges each guess, and only the pool guesses that `follows` (by
    position) may finish it, any if none may."""
    size = len(rows)
    if size == 1:
        return 1.0 + 1e-12 if members else 2.0
    width = len(rows[0])
    block = b"".join(rows)
    clc = count_log_count(size)
    whole = math.log2(size)

    def cost(column: bytes, probability: float) -> float:
        sizes = bucket_sizes(column)
        bits = whole - sum(map(clc.__getitem__, sizes.values())) / size
        estimate = estimated_cost(bits, probability, whole)
        if trap is None:
            return estimate
        return estimate + trap.penalty * trapped(sizes, trap.larger_than, trap.length) / size

    chance = 1.0 / size
    # One of its own words splitting it apart costs the least any guess can: the rest
    # cost 2 or more, and its others as much or more. (Hard mode: it may follow, and
    # leaves no family of more than one word: no charge.)
    for i in members:
        column = block[i::width]
        if len(set(column)) == size:
            return cost(column, chance)
    if size <= PAIRED_BUCKET:
        feedbacks = lane_bucket_counts(values, width)
    else:
        feedbacks = bytes(len(set(block[i::width])) - 1 for i in range(width))
    best = math.inf
    inside = set(members)
    floor = partial(feedback_floor, size)
    for lowest, i in feedback_floor_order(feedbacks, inside, floor):
        if lowest >= best:
            break  # no guess left can beat the best
        if follows is None or follows(i):
            best = min(best, cost(block[i::width], chance if i in inside else 0.0))
    if best == math.inf and follows is not None:
        return finish_cost(rows, values, members, trap)  # none may follow: any may
    return best


# Up to this many words in a bucket, counting the pool guesses' feedbacks by pairs of
# words beats a set per guess.
PAIRED_BUCKET = 64


def look_ahead(rows: Rows, order: list[Ranked], guesses_left: int | None = None) -> list[Ranked]:
    """BestPolicy.look_ahead (not blind): the leaders re-ranked by two_ply_costs; hard mode
    (`guesses_left`: before the leader), with its finishing guesses those that follow the
    leader's hints and the trap charges (TRAP_PENALTY_NEXT there, TRAP_PENALTY here)."""
    words, _, guess_of = shipped_lists_indexed()
    length = len(words[0])
    pool = [r.key[2] for r in order[:LOOKAHEAD_POOL]]
    pool += [guess_of[a] for a in rows.members[:LOOKAHEAD_POOL]]
    pool = list(dict.fromkeys(pool))
    at = {guess: i for i, guess in enumerate(pool)}
    pooled = rows.picked(pool)  # per candidate (by position), its pool codes
    values = [int.from_bytes(codes, "little") for codes in pooled]
    own = [at.get(guess_of[a]) for a in rows.members]  # its own guess's pool position
    solved = 3**length - 1
    trap = None if guesses_left is None else Trap(TRAP_PENALTY_NEXT, guesses_left - 2, length)
    leaders = order[: LOOKAHEAD_WIDTH[False]]
    costs = []
    for leader, codes in zip(leaders, rows.columns([r.key[2] for r in leaders]), strict=True):
        parts: dict[int, list[int]] = {}
        for position, code in enumerate(codes):
            parts.setdefault(code, []).append(position)
        total = 0.0
        for code, part in parts.items():
            if code != solved:
                members = [i for i in map(own.__getitem__, part) if i is not None]
                bucket = list(map(pooled.__getitem__, part))
                lanes = list(map(values.__getitem__, part))
                follows = None
                if trap is not None:
                    follows = follower(words[leader.key[2]], code, words, pool)
                finish = finish_cost(bucket, lanes, members, trap, follows)
                total += len(part) / rows.n * finish
        cost = 1.0 + total
        if guesses_left is not None:
            sizes = {code: len(part) for code, part in parts.items()}
            cost += TRAP_PENALTY * (trapped(sizes, guesses_left - 1, length) / rows.n)
        costs.append(cost)
    # BestPolicy.look_ahead orders them by cost rounded to 1e-9, equal ones as they were.
    scaled = [cost * _SCALE for cost in costs]
    for i, value in enumerate(scaled):
        edge = abs(value - math.floor(value) - 0.5) < _EDGE
        if edge and any(j != i and abs(other - value) < 2 for j, other in enumerate(scaled)):
            raise Undecided("leaders' costs at a rounding edge")
    ranked = sorted(range(len(leaders)), key=lambda i: (round(scaled[i]), i))
    return [leaders[i] for i in ranked] + order[len(leaders) :]


def ranked_guesses(
    matrix: Matrix, rows: Rows, turns: int, top: int, allowed: Allowed = None
) -> list[int]:
    """BestPolicy._fallback_ranked (not blind) for more than two candidates; hard mode
    over the guesses `allowed` (sorted indexes)."""
    guess_of = shipped_lists_indexed()[2]
    left, n = rows.members, rows.n
    own = {guess_of[a] for a in left}
    searched = n <= SEARCH_MAX_CANDIDATES[False]
    look = not searched and n <= LOOKAHEAD_MAX_CANDIDATES[False] and turns in LOOKAHEAD_TURNS
    # One more than shown: the search's guess may move up from anywhere below.
    count = max(top + 1, LOOKAHEAD_POOL if look else 0)
    order = top_guesses(rows, ranking_floors(rows, own, allowed), own, count)
    guesses_left = max(1, GAME_GUESSES - turns)
    if look:
        order = look_ahead(rows, order, None if allowed is None else guesses_left)
    ranked = [r.key[2] for r in order]
    if searched:
        first = Search(matrix, rows, allowed).guess(guesses_left)
        if first is not None:
            ranked = [first, *(g for g in ranked if g != first)]
    return ranked


def ranking_floors(
    rows: Rows, own: set[int], allowed: Allowed = None
) -> Iterator[tuple[float, int]]:
    """(floor, guess) for top_guesses, lowest first, over the guesses `allowed` (None:
    all): from each guess's exact number of feedbacks for few candidates (a tighter
    bound, and soon found), else from its letters."""
    if rows.n <= PAIRED_RANKING:
        feedbacks = rows.bucket_counts(allowed)
        return column_floor_order(feedbacks, allowed, own, partial(feedback_floor, rows.n))
    answers = shipped_lists_indexed()[1]
    bounds = entropy_bounds([answers[a] for a in rows.members], rows.matrix.width)
    order = floor_order(bounds, own, 1.0 / rows.n, rows.whole)
    if allowed is None:
        return order
    kept = set(allowed)
    return (entry for entry in order if entry[1] in kept)


# Up to this many candidates, counting every guess's feedbacks (pairs of rows, 7 us a
# pair) costs less than the letters' bounds (5 ms) and the guesses those would bucket
# besides: measured over random first guesses, the pairs win at 25 to 40 candidates, are
# even to 48, and lose from 50 on (1,200 pairs and more).
PAIRED_RANKING = 40
