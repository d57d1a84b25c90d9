"""The settings and the cost curve that the Solver and its numpy-free answer share.

epdle.solver.ranking.best and epdle.solver.search rank and search with these, and
epdle.solver.ranking.pure answers the same without numpy: one home, imported by both (this
module imports neither numpy nor the Solver).
"""

from __future__ import annotations

import math
from functools import cache

from epdle.solver.names import MAX_SUGGESTIONS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# How many ranked guesses a turn keeps (what --top may ask for at most).
RANKED_KEPT = MAX_SUGGESTIONS
# The order equal guesses are listed in: what can win first, then the more common word
# (Universe.common_rank), then alphabetically. Part of the names of the rankings cached
# on disk, which an older order would otherwise answer from.
TIE_ORDER = "common"
# Off the tree, `best` searches (bounded) once at most this many candidates are left:
# fewer in normal mode, where an interactive answer must stay under 200 ms.
SEARCH_MAX_CANDIDATES = {False: 24, True: 60}  # by blind
# The widths of that per-turn search off the tree (it must answer within a second).
FALLBACK_WIDTHS = (1, 8, 4, 2)
# Off the tree, `best` looks one guess further ahead after this many guesses (large sets
# only: small ones are searched exactly), over its leading guesses, each feedback bucket
# finished by its best next guess among a pool of the leading guesses and the likeliest
# candidates' own words.
LOOKAHEAD_TURNS = (1, 2)
LOOKAHEAD_WIDTH = {False: 6, True: 16}  # by blind
LOOKAHEAD_POOL = 300
# The look is skipped for huge sets (after a poor first guess) to answer in time; blind,
# this counts the plausible candidates.
LOOKAHEAD_MAX_CANDIDATES = {False: 500, True: 1000}  # by blind
# Estimated costs are ordered rounded to this many decimals: their last digits are float
# noise (numpy's log2 differs by CPU), and the numpy-free path must order them the same.
COST_DECIMALS = 9
# Off the tree, where the whole beam breaks the guess limit the search tries this many
# more guesses (in the estimate's order) before it gives up on the limit.
RESCUE_WIDTH = 200
# Hard mode, the look-ahead adds this many guesses per unit of candidate weight that a
# leader leaves in a family its greens pin down, larger than the guesses left.
TRAP_PENALTY = 3.0
# The same charge one guess further on, inside the look-ahead.
TRAP_PENALTY_NEXT = 3.0
# `best` under a prior of unequal chances (blind, or the history prior):
# Blind, the search sees only the plausible candidates (a few dozen): it can afford more.
BLIND_WIDTHS = (1, 40, 10, 4)
# Blind, the search plays for the likeliest candidates holding all but this share of the
# prior mass: the long tail of rare words would only slow it.
PLAUSIBLE_MASS_LEFT = 0.015
# Blind, with at most RARE_GUARD_LEFT guesses to go and at most RARE_GUARD_MAX candidates
# left (rare ones included), the search first looks for a way to find every one of them
# in time, and plays for the plausible ones only if there is none (0: off).
RARE_GUARD_LEFT = {False: 4, True: 0}  # by hard
RARE_GUARD_MAX = 30
# Up to this bucket size the cost curve is exact (2 n - 1: each word but the first found
# costs two guesses), and whole.
EXACT_CURVE = 4


@cache
def cost_curve(size: int) -> list[float]:
    """Rough total guesses to finish a bucket of each size 0 .. size (the search's
    estimate, used only to rank guesses; shared: not to be changed)."""
    return [
        max(2.0 * s - 1.0, 0.0) if s <= EXACT_CURVE else s * (1.75 + 0.2 * math.log2(s / 4.0))
        for s in range(size + 1)
    ]


@cache
def pinned_feedbacks(length: int) -> tuple[bool, ...]:
    """Per feedback code: whether it has all letters but one green (a family the greens pin
    down, such as _OUND, which hard mode can only guess one word at a time)."""
    return tuple(
        sum(code // 3**at % 3 == 2 for at in range(length)) == length - 1
        for code in range(3**length)
    )


def estimated_cost(bits: float, probability: float, uncertainty: float) -> float:
    """The estimate's guesses to finish after one guess (ranking.estimate's
    expected_guess_costs, without numpy): it, plus the curve's cost of the `uncertainty`
    bits its feedback (`bits`) leaves, saved with `probability`, its chance to win."""
    missed = max(1.0 - probability, 1e-12)
    return 1.0 + missed * bits_to_guesses(max(0.0, uncertainty - bits) / missed)


def bits_to_guesses(bits: Any) -> Any:
    """Expected further guesses when `bits` of uncertainty remain (fitted on optimal play):
    the estimate's curve, for a float or a numpy array."""
    return 1.0 + 0.45 * bits**0.7
