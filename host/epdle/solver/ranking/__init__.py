"""Where the next guesses are ranked: the numpy and the numpy-free variants side by side,
and the one choice between them (fast_advice), made once a turn.

Numpy-free, what a one-shot `suggest` imports (`best` on the shipped lists only):
  book.py        the shipped tree's guess and its book of ranked runners-up
  pure/          off the tree, over the cached pattern matrix: estimate.py (the
                 estimate and the look one guess ahead), search.py, bounds.py,
                 matrix.py, kernel.py (the native bucket counter), hard.py
With numpy, the Solver's (epdle.solver.engine):
  stats.py       the partition statistics every ranking reads, the per-state memo
  one_ply.py     freq, entropy, expected, minimax
  estimate.py    `best`'s estimate and its look one guess ahead (pure/estimate.py's twin)
  best.py        `best`'s policy: the tree's guess, the estimate, the bounded search,
                 the blind and hard-mode rules

fast_advice answers from the tree's book, else from pure/; None when neither can, and
the Solver ranks with numpy. The two variants give the same advice (tests hold them
equal); epdle.solver.settings holds what both read.
"""

from __future__ import annotations

from collections.abc import Sequence

from epdle.solver.advice import Advice
from epdle.solver.limit import shown_unchanged
from epdle.solver.names import Kind, strategy
from epdle.solver.ranking.book import tree_advice


def fast_advice(
    strategy_name: str,
    hard: bool,
    blind: bool,
    shipped_lists: bool,
    history: Sequence[tuple[str, str]],
    top: int = 5,
) -> Advice | None:
    """The fast path's advice, or None when the Solver must answer: only `best` (the tree
    strategy) on the shipped lists (`shipped_lists`), not blind. `history` is normalised
    (lower-case guesses, G/Y/B feedback), as parse_history gives."""
    if strategy(strategy_name).kind is not Kind.TREE or blind or not shipped_lists:
        return None
    advice = tree_advice(history, hard, top)
    if advice is None:
        from epdle.solver.ranking.pure import (
            cold_advice,  # only off the tree: its import costs a turn
        )

        advice = cold_advice(history, hard, top)
    if advice is None or advice.solved:
        return advice
    # The guard at the guess limit is the Solver's: where it would change these, it answers.
    shown = [suggestion.word for suggestion in advice.suggestions]
    if advice.candidates_left > len(advice.candidates):
        return advice  # more than LOOKED_AT: the guard does not look
    if not shown_unchanged(shown, advice.candidates, len(history), hard):
        return None
    return advice
