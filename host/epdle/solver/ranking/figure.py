"""The one expected-guesses figure each suggestion of `best` shows, whichever path ranked it.

A row's figure is what `best` chose by: for the guess the decision tree placed first, the
tree's own guesses to find each candidate from here (this guess included), averaged; where
the search ran (few candidates left), each row's searched value, the guesses its search
takes from here with that guess first; elsewhere the estimate the ranking is by. The first
row stays where `best` placed it and the runners-up follow by their figure, so no runner-up
shows fewer guesses than the one above it; where the first row shows more than a runner-up
(`lead_reason`), the table says why it leads. Numpy-free: a one-shot `suggest` on the tree
runs it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from epdle.solver.advice import Suggestion
from epdle.solver.scoring import GAME_GUESSES, feedback
from epdle.solver.settings import COST_DECIMALS

# What gave a row its figure (Suggestion.source).
TREE = "tree"
SEARCH = "search"
ESTIMATE = "estimate"
OPENER = "opener"  # the estimate's figure of blind hard mode's opener, played first
# Why a first row leads a runner-up that shows fewer guesses, by what gave its figure.
LEAD_REASONS = {
    TREE: "the decision tree plays it (its figure exact, the others estimated)",
    SEARCH: "the search plays it for the guesses left",
    ESTIMATE: "ranked a guess further on, or to keep every word within the guess limit",
    OPENER: "hard mode's opener, whose hints bind the later guesses less",
}
_LONGEST = 12  # more guesses than any tree plays


def tree_figure(tree: Mapping[str, str], key: str, candidates: Sequence[str]) -> float | None:
    """The guesses the tree takes from the node `key` (book.path_key) to find each of
    `candidates` (equally likely), this guess included, averaged; None if it does not
    find one of them."""
    if not candidates:
        return None
    total = 0
    for answer in candidates:
        node, count = key, 0
        while count < _LONGEST:
            guess = tree.get(node)
            if guess is None:
                return None
            count += 1
            marks = feedback(guess, answer)
            if guess == answer:
                break
            node = f"{node}/{guess}:{marks}" if node else f"{guess}:{marks}"
        else:
            return None
        total += count
    return total / len(candidates)


def figured(
    suggestions: Sequence[Suggestion], lead: float | None, lead_source: str, played: int
) -> list[Suggestion]:
    """`suggestions` with their figures settled: the first row's `lead` (from
    `lead_source`) where it has none of its own, every other figure's source as given
    (ESTIMATE where none was), the runners-up by figure."""
    rows = [
        s.figured(s.guesses, s.source or ESTIMATE) if s.guesses is not None else s
        for s in suggestions
    ]
    if rows and rows[0].guesses is None and lead is not None:
        rows[0] = rows[0].figured(lead, lead_source)
    return in_figure_order(rows, played)


def in_figure_order(suggestions: Sequence[Suggestion], played: int) -> list[Suggestion]:
    """The first row where it was placed, the runners-up by figure (equal ones, and rows
    with none, as they came); at the last guess (`played` so far) as they came: there the
    ranking is by the chance to win, which the rows show (epdle.odds)."""
    rows = list(suggestions)
    if len(rows) < 3 or played >= GAME_GUESSES - 1:
        return rows

    def key(row: Suggestion) -> float:
        # Rounded as costs are ordered: the last digits are float noise, which the two
        # paths (numpy's and the numpy-free one) may not share.
        return math.inf if row.guesses is None else round(row.guesses, COST_DECIMALS)

    return [rows[0], *sorted(rows[1:], key=key)]


def lead_reason(suggestions: Sequence[Suggestion]) -> str | None:
    """Why the first row leads a runner-up that shows fewer guesses (None: it does not)."""
    if len(suggestions) < 2 or suggestions[0].guesses is None:
        return None
    first = suggestions[0].guesses
    fewer = [s for s in suggestions[1:] if s.guesses is not None and s.guesses < first - 5e-3]
    if not fewer:
        return None
    return LEAD_REASONS.get(suggestions[0].source or ESTIMATE)
