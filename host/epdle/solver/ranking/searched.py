"""The searched value of each row off the shipped tree, without numpy: where `best` ran its
search (at most settings.SEARCH_MAX_CANDIDATES[False] candidates), the guesses that search
takes to find each candidate with the row's guess first, averaged (figure.SEARCH). The
numpy Solver's twin is BestPolicy.searched_figures; both value each row from a fresh
search, as a one-shot process runs it."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from epdle.solver.advice import Advice, Suggestion
from epdle.solver.ranking.figure import SEARCH, in_figure_order
from epdle.solver.scoring import GAME_GUESSES
from epdle.solver.settings import SEARCH_MAX_CANDIDATES

# The limits the search plays for, as it relaxes the guesses left (pure Search.guess).
RELAXED = (0, 1, 3)


def searched_here(advice: Advice) -> bool:
    """Whether `best` searched this position (off the tree, not blind)."""
    return 2 < advice.candidates_left <= SEARCH_MAX_CANDIDATES[False]


def with_searched_figures(
    advice: Advice, history: Sequence[tuple[str, str]], hard: bool
) -> Advice | None:
    """`advice` (from epdle.solver.ranking.pure, on the lists in use) with each row's
    searched value where the search ran; None where only the Solver can tell."""
    if not searched_here(advice) or len(advice.candidates) < advice.candidates_left:
        return advice
    from epdle.solver.ranking.pure.hard import after_feedback, history_allowed
    from epdle.solver.ranking.pure.matrix import (
        Rows,
        Undecided,
        shipped_lists_indexed,
        shipped_matrix,
    )
    from epdle.solver.ranking.pure.search import Search

    words, answers, _ = shipped_lists_indexed()
    where = {word: index for index, word in enumerate(answers)}
    members = sorted(where[word] for word in advice.candidates)
    allowed = history_allowed(history, words) if hard else None
    matrix = shipped_matrix()
    rows = Rows(matrix, members)
    search = Search(matrix, rows, allowed)
    index = {word: i for i, word in enumerate(words)}
    solved = 3 ** len(words[0]) - 1
    left = max(1, GAME_GUESSES - len(history))

    def cost(guess: int, limit: int) -> float:
        parts: dict[int, list[int]] = {}
        for answer, code in zip(members, rows.columns([guess])[0], strict=True):
            parts.setdefault(code, []).append(answer)
        total = float(len(members))
        for code, part in sorted(parts.items()):
            if code == solved:
                continue
            after = allowed
            if allowed is not None:
                after = tuple(after_feedback(words[guess], code, words, allowed))
            total += search.solve(tuple(part), after, limit - 1, 2)[0]
        return total

    try:
        figures = searched_values([index[s.word] for s in advice.suggestions], left, cost)
    except Undecided:
        return None
    suggestions = [
        _searched(s, f, len(members)) for s, f in zip(advice.suggestions, figures, strict=True)
    ]
    return Advice(
        advice.candidates_left, False, in_figure_order(suggestions, len(history)), advice.candidates
    )


def searched_values(
    guesses: Sequence[int], guesses_left: int, cost: Callable[[int, int], float]
) -> list[float]:
    """Each guess's total cost at the first limit (the guesses left, relaxed as the search
    relaxes it) at which the first guess finishes (inf: none, or not that guess)."""
    for extra in RELAXED:
        first = cost(guesses[0], guesses_left + extra)
        if first < math.inf:
            return [first, *(cost(g, guesses_left + extra) for g in guesses[1:])]
    return [math.inf] * len(guesses)


def _searched(suggestion: Suggestion, total: float, mass: float) -> Suggestion:
    """The row with its searched value (as it was where the search cannot finish)."""
    if total >= math.inf:
        return suggestion
    return suggestion.figured(total / mass, SEARCH)
