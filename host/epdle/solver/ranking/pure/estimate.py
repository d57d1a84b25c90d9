"""The Solver's ranking off the tree without numpy: the estimate (rank_expected_guesses),
the look one guess ahead (two_ply_costs) and the search's guess first."""

from __future__ import annotations

import math
from array import array
from bisect import insort
from collections.abc import Callable, Iterator
from functools import partial
from heapq import nsmallest

from epdle.named_tuple import NamedTuple
from epdle.solver.ranking.book import common_key
from epdle.solver.ranking.pure.bounds import (
    column_floor_order,
    entropy_bounds,
    feedback_floor,
    feedback_floor_order,
    floor_order,
)
from epdle.solver.ranking.pure.hard import Allowed, PoolHints, trapped
from epdle.solver.ranking.pure.matrix import (
    BATCH,
    Gathered,
    Matrix,
    Rows,
    Undecided,
    bucket_sizes,
    bucket_stats,
    shipped_lists_indexed,
)
from epdle.solver.ranking.pure.search import Search
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
    estimated_cost,
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


class Common:
    """A guess as equal guesses are listed (book.common_key: the more common word first),
    its frequency looked up only when a tie compares it."""

    __slots__ = ("guess", "word")

    def __init__(self, guess: int, word: str) -> None:
        self.guess = guess
        self.word = word

    def __lt__(self, other: Common) -> bool:
        return common_key(self.word) < common_key(other.word)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Common) and other.guess == self.guess

    def __hash__(self) -> int:
        return self.guess


class Ranked(NamedTuple):
    key: tuple[int, int, Common]  # (cost rounded to 1e-9, not a candidate, the guess)
    cost: float
    apart: bool  # splits the candidates into singletons

    @property
    def guess(self) -> int:
        return self.key[2].guess


# Per guess of a batch: the entropy of its feedback over the candidates, and whether it
# splits them apart (Rows.bits, or what is known already).
Measure = Callable[[list[int]], list[tuple[float, bool]]]


def top_guesses(
    rows: Rows,
    order: Iterator[tuple[float, int]],
    measure: Measure,
    is_candidate: set[int],
    count: int,
) -> list[Ranked]:
    """The `count` guesses with the lowest estimated cost, in the Solver's order
    (rank_expected_guesses: cost rounded to 1e-9, a possible answer first, the more
    common word).
    A guess is measured only while its floor (the cost at its entropy bound; `order`:
    (floor, guess), lowest first) can make the list: whatever order equal floors come in,
    that measures every guess the list needs, and every guess near a cost kept."""
    chance = 1.0 / rows.n
    uncertainty = rows.whole
    words = shipped_lists_indexed()[0]
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
        for guess, (bits, apart) in zip(batch, measure(batch), strict=True):
            probability = chance if guess in is_candidate else 0.0
            cost = estimated_cost(bits, probability, uncertainty)
            scaled = cost * _SCALE
            key = (round(scaled), int(not probability), Common(guess, words[guess]))
            entry = Ranked(key, cost, apart)
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
    pooled: Gathered,
    bucket: list[int],
    members: list[int],
    stats: tuple[array, array],
    trap: Trap | None = None,
    followers: list[int] | None = None,
) -> float:
    """The cheapest estimated cost of finishing one bucket with a pool guess: two_ply_costs'
    `finish` for one bucket (every candidate equally likely).

    `pooled` holds the candidates' codes for the pool guesses, `bucket` the positions of
    the bucket's words among the candidates (two or more), `members` the pool positions
    of its own words, `stats` each pool guess's bucket_stats over it. Hard mode: `trap`
    charges each guess, and only the pool guesses at `followers` (sorted positions) may
    finish it, any if none may."""
    size = len(bucket)
    sums, parts = stats
    whole = math.log2(size)

    def cost(i: int, probability: float) -> float:
        estimate = estimated_cost(whole - sums[i] / size, probability, whole)
        if trap is None:
            return estimate
        sizes = bucket_sizes(pooled.column(i, bucket))
        return estimate + trap.penalty * trapped(sizes, trap.larger_than, trap.length) / size

    chance = 1.0 / size
    # One of its own words splitting it apart costs the least any guess can: the rest
    # cost 2 or more, and its others as much or more. (Hard mode: it may follow, and
    # leaves no family of more than one word: no charge.)
    for i in members:
        if parts[i] == size - 1:
            return cost(i, chance)
    best = math.inf
    inside = set(members)
    floor = partial(feedback_floor, size)
    if followers:
        feedbacks = bytes(map(parts.__getitem__, followers))
        order = column_floor_order(feedbacks, followers, inside, floor)
    else:  # any may finish it
        order = feedback_floor_order(parts.tobytes(), inside, floor)
    for lowest, i in order:
        if lowest >= best:
            break  # no guess left can beat the best
        best = min(best, cost(i, chance if i in inside else 0.0))
    return best


def look_ahead(rows: Rows, order: list[Ranked], guesses_left: int | None = None) -> list[Ranked]:
    """BestPolicy.look_ahead (not blind): the leaders re-ranked by two_ply_costs; hard mode
    (`guesses_left`: before the leader), with its finishing guesses those that follow the
    leader's hints and the trap charges (TRAP_PENALTY_NEXT there, TRAP_PENALTY here)."""
    words, _, guess_of = shipped_lists_indexed()
    length = len(words[0])
    pool = [r.guess for r in order[:LOOKAHEAD_POOL]]
    pool += [guess_of[a] for a in rows.members[:LOOKAHEAD_POOL]]
    pool = list(dict.fromkeys(pool))
    at = {guess: i for i, guess in enumerate(pool)}
    pooled = Gathered(rows.matrix, rows.members, pool)
    own = [at.get(guess_of[a]) for a in rows.members]  # its own guess's pool position
    solved = 3**length - 1
    trap = None if guesses_left is None else Trap(TRAP_PENALTY_NEXT, guesses_left - 2, length)
    hints = None if trap is None else PoolHints(words, pool)
    leaders = order[: LOOKAHEAD_WIDTH[False]]
    costs = []
    width = len(pool)
    for leader, codes in zip(leaders, rows.columns([r.guess for r in leaders]), strict=True):
        parts: dict[int, list[int]] = {}
        for position, code in enumerate(codes):
            parts.setdefault(code, []).append(position)
        # Every bucket of two or more words counted in one call; one word is guessed next
        # (its own guess is in the pool: it is a candidate), or the one after.
        larger = [part for code, part in parts.items() if code != solved and len(part) > 1]
        if larger:
            sums, counts = bucket_stats(pooled, larger, pooled.every_guess)
        total = 0.0
        at_group = 0
        for code, part in parts.items():
            if code == solved:
                continue
            members = [i for i in map(own.__getitem__, part) if i is not None]
            if len(part) == 1:
                finish = 1.0 + 1e-12 if members else 2.0
            else:
                followers = None if hints is None else hints.followers(words[leader.guess], code)
                span = slice(at_group * width, (at_group + 1) * width)
                at_group += 1
                stats = (sums[span], counts[span])
                finish = finish_cost(pooled, part, members, stats, trap, followers)
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
    # Each leader now ranked by its cost one guess further on.
    return [leaders[i]._replace(cost=costs[i]) for i in ranked] + order[len(leaders) :]


def ranked_guesses(
    matrix: Matrix, rows: Rows, turns: int, top: int, allowed: Allowed = None
) -> list[tuple[int, float | None]]:
    """BestPolicy._fallback_ranked (not blind) for more than two candidates, each guess
    with the estimated guesses it is ranked by (BestPolicy.figures; None: the search's
    guess); hard mode over the guesses `allowed` (sorted indexes)."""
    guess_of = shipped_lists_indexed()[2]
    left, n = rows.members, rows.n
    own = {guess_of[a] for a in left}
    searched = n <= SEARCH_MAX_CANDIDATES[False]
    look = not searched and n <= LOOKAHEAD_MAX_CANDIDATES[False] and turns in LOOKAHEAD_TURNS
    # One more than shown: the search's guess may move up from anywhere below.
    count = max(top + 1, LOOKAHEAD_POOL if look else 0)
    floors, measure = ranking_floors(rows, own, count, allowed)
    order = top_guesses(rows, floors, measure, own, count)
    guesses_left = max(1, GAME_GUESSES - turns)
    if look:
        order = look_ahead(rows, order, None if allowed is None else guesses_left)
    ranked: list[tuple[int, float | None]] = [(r.guess, r.cost) for r in order]
    if searched:
        first = Search(matrix, rows, allowed).guess(guesses_left)
        if first is not None and first != ranked[0][0]:  # placed first: by no figure
            ranked = [(first, None), *(entry for entry in ranked if entry[0] != first)]
    return ranked


def ranking_floors(
    rows: Rows, own: set[int], count: int, allowed: Allowed = None
) -> tuple[Iterator[tuple[float, int]], Measure]:
    """(floor, guess) for top_guesses, lowest first, over the guesses `allowed` (None:
    all), and how to measure the guesses read, the kernel counting every guess's buckets
    over few candidates: for up to PARTS_RANKING, floors from each guess's number of
    buckets (tied guesses soon found in list order); up to COUNTED_WORK codes counted,
    each guess's exact estimate (then known, not counted again); past that, a floor from
    its letters (counting every guess would cost more than the guesses it spares)."""
    measure: Measure = rows.bits
    if rows.n <= PARTS_RANKING:
        feedbacks = rows.bucket_counts(allowed)
        floor = partial(feedback_floor, rows.n)
        order = column_floor_order(feedbacks, allowed, own, floor)
        return _few_apart(order, own, floor(rows.n, False), count), measure
    if rows.n * (rows.matrix.width if allowed is None else len(allowed)) <= COUNTED_WORK:
        sums, parts = rows.stats(allowed)
        whole, n = rows.whole, rows.n
        exact = [whole - s / n for s in sums]
        if allowed is None:
            bounds, more = exact, parts
        else:
            bounds = [-1.0] * rows.matrix.width  # below any entropy: last
            more = array("B", bytes(rows.matrix.width))
            for guess, bits, buckets in zip(allowed, exact, parts, strict=True):
                bounds[guess], more[guess] = bits, buckets

        def measure(batch: list[int]) -> list[tuple[float, bool]]:
            return [(bounds[g], more[g] == n - 1) for g in batch]

        # Exact: the list reads little more than the pool.
        order = floor_order(bounds, own, 1.0 / n, whole, LOOKAHEAD_POOL * 4)
    else:
        answers = shipped_lists_indexed()[1]
        bounds = entropy_bounds([answers[a] for a in rows.members], rows.matrix.width)
        order = floor_order(bounds, own, 1.0 / rows.n, rows.whole, LETTERS_SORTED_FIRST)
    if allowed is None:
        return order, measure
    kept = set(allowed)
    return (entry for entry in order if entry[1] in kept), measure


def _few_apart(
    order: Iterator[tuple[float, int]], own: set[int], apart: float, count: int
) -> Iterator[tuple[float, int]]:
    """`order` (floors from the number of buckets) with only the `count` + 1 most common
    (book.common_key) of the guesses that split the candidates apart (at floor `apart`,
    not candidates): they all cost the same, their floor, so the list keeps none of the
    others, and those are edges of rounding only as the kept ones are. With few
    candidates they are thousands."""
    words = shipped_lists_indexed()[0]
    tied: list[int] = []
    for value, guess in order:
        if value == apart and guess not in own:
            tied.append(guess)
            continue
        if tied and value > apart:
            yield from _most_common(tied, words, apart, count + 1)
            tied = []
        yield value, guess
    yield from _most_common(tied, words, apart, count + 1)


def _most_common(
    guesses: list[int], words: list[str], floor: float, count: int
) -> Iterator[tuple[float, int]]:
    """The `count` most common of `guesses` (book.common_key), each at `floor`."""
    for guess in nsmallest(count, guesses, key=lambda g: common_key(words[g])):
        yield floor, guess


# Measured over second turns on the shipped lists (14,855 guesses): floors from the
# number of buckets win while the list is the few guesses shown (up to
# SEARCH_MAX_CANDIDATES, the search's guess goes first); for the look's 300, counting every
# guess wins from 25 to about 300 candidates, is even near 280 and loses from 1,300 on to
# the letters' floors.
PARTS_RANKING = SEARCH_MAX_CANDIDATES[False]
COUNTED_WORK = 400 * 14_855  # candidates times guesses counted
# Guesses the letters' floors order first (a ranking reads a few hundred or thousand).
LETTERS_SORTED_FIRST = 4096
