"""`best` advice off the shipped tree without numpy, for a one-shot `suggest`.

After a first guess that is not the tree's, the Solver ranks every guess by
`rank_expected_guesses`, looks one guess further ahead over its leaders
(`two_ply_costs`) and, with at most settings.SEARCH_MAX_CANDIDATES left, plays the bounded
search's guess. Importing numpy alone costs a cold process more than its whole budget,
so this package answers the same from the cached pattern matrix, read without numpy,
its buckets counted by a small native kernel (host/native/buckets.c, through ctypes):

- Up to a few hundred candidates (ranking.COUNTED_WORK codes to count) the kernel counts
  every guess's buckets at once: each guess's estimated cost is exact.
- Past that, counting every guess costs more than it needs to. The entropy of a guess's
  feedback is at most the sum of the entropies of its marks letter by letter
  (subadditivity; a repeated letter's copies together), and those come from where the
  candidates have each letter. That bound gives every guess a floor on its estimated
  cost, so only the guesses whose floor beats the ranking kept so far are counted.
- In the look, a bucket's finishing guess is sought in the pool by its number of
  buckets over the bucket (a floor again), the pool's codes copied out of the matrix
  once.
- The search (at most settings.SEARCH_MAX_CANDIDATES words) is TreeSearch again: its costs are
  whole numbers, its beam found by the same bucket counts.
- Hard mode is the same over the guesses the history's hints allow (epdle.solver.ranking.pure.hard):
  the ranking and the search among those, the look's finishing guesses those that
  follow the leader's hints, and the trap charges for families the greens pin down.

Modules: kernel (the native counter), matrix (the matrix reader and the candidates'
rows), bounds (the floors), ranking (the estimate and the look-ahead), search, hard (the
hints' allowed guesses and the trapped words); the settings and the cost curve are
epdle.solver.settings, which the Solver reads too.

Whenever the result could differ from the Solver's (costs or estimates too close to
order the way numpy's rounding would, other lists, no cached matrix) or the kernel is
not installed, it returns None and the caller asks the Solver. A test holds the two
equal over many states.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from epdle.solver.advice import Advice, worth_showing
from epdle.solver.ranking.book import common_key, path_key, suggestion_of, tree_and_book
from epdle.solver.ranking.pure.estimate import ranked_guesses
from epdle.solver.ranking.pure.hard import history_allowed
from epdle.solver.ranking.pure.kernel import KernelMissing
from epdle.solver.ranking.pure.matrix import (
    Rows,
    Undecided,
    bucket_sizes,
    guess_index,
    lists_in_use,
    shipped_lists_indexed,
    shipped_matrix,
    use_lists,
)
from epdle.solver.scoring import pattern_code
from epdle.solver.settings import RANKED_KEPT, estimated_cost
from epdle.words.named import DEFAULT_LISTS

_LISTED_CANDIDATES = 100


def cold_advice(
    history: Sequence[tuple[str, str]], hard: bool, top: int = 5, lists: str = DEFAULT_LISTS
) -> Advice | None:
    """`best` advice on the named shipped lists for a history off their shipped tree,
    else None.

    `history` is normalised, as parse_history gives. None whenever the Solver must answer
    (including every history it would refuse: it words the error).
    """
    if not history or top > RANKED_KEPT:
        return None
    use_lists(lists)
    try:
        return _advice(history, hard, top)
    except (Undecided, KernelMissing):
        return None


def _advice(history: Sequence[tuple[str, str]], hard: bool, top: int) -> Advice | None:
    shipped = tree_and_book(hard, lists_in_use())
    if shipped is None or path_key(history) in shipped[0]:
        return None
    words, answers, guess_of = shipped_lists_indexed()
    length = len(words[0])
    played = []  # each guess's index
    for turn, (guess, feedback) in enumerate(history, start=1):
        solved = feedback == "G" * length
        at = guess_index(words, guess)
        if at is None or len(feedback) != length or (solved and turn < len(history)):
            return None
        played.append(at)
    allowed = history_allowed(history, words) if hard else None
    if hard and allowed is None:
        return None  # a guess broke hard mode: the Solver says how
    matrix = shipped_matrix()
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
    # Two or fewer: the Solver guesses a candidate (equally likely: the more common), each
    # at the estimate's 1.5 guesses (1 alone): a candidate tells the two apart.
    if n <= 2:
        likelier = sorted((guess_of[a] for a in left), key=lambda g: common_key(words[g]))
        whole = math.log2(n)
        ranked: list[tuple[int, float | None]] = [
            (g, estimated_cost(whole, 1.0 / n, whole)) for g in likelier
        ]
    else:
        ranked = ranked_guesses(matrix, rows, len(history), top, allowed)
    shown = ranked[: max(1, top)]
    own = {guess_of[a] for a in left}
    columns = rows.columns([g for g, _ in shown])
    suggestions = [
        suggestion_of(words[g], list(bucket_sizes(column).values()), g in own, figure)
        for (g, figure), column in zip(shown, columns, strict=True)
    ]
    return Advice(n, False, worth_showing(suggestions, n), listed)
