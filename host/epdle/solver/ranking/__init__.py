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
the Solver ranks with numpy. Under the history prior, fast_history_advice answers from
pure/weighted.py the same way. The two variants give the same advice (tests hold them
equal); epdle.solver.settings holds what both read.
"""

from __future__ import annotations

from collections.abc import Sequence

from epdle.solver.advice import Advice, worth_showing
from epdle.solver.limit import CHECKED, guesses_left, out_of_reach, shown_unchanged
from epdle.solver.names import Kind, strategy
from epdle.solver.ranking.book import tree_advice
from epdle.solver.ranking.figure import ESTIMATE, figured

TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime

    from epdle.solver.ranking.pure.weighted import DayPrior
    from epdle.words.history import Played


def fast_advice(
    strategy_name: str,
    hard: bool,
    blind: bool,
    lists: str | None,
    history: Sequence[tuple[str, str]],
    top: int = 5,
) -> Advice | None:
    """The fast path's advice, or None when the Solver must answer: only `best` (the tree
    strategy) on named shipped lists (`lists`, epdle.words.named; None: lists of one's
    own), not blind. `history` is normalised (lower-case guesses, G/Y/B feedback), as
    parse_history gives."""
    if strategy(strategy_name).kind is not Kind.TREE or blind or lists is None:
        return None
    advice = tree_advice(history, hard, top, lists)
    on_tree = advice is not None
    if advice is None:
        from epdle.solver.ranking.pure import (
            cold_advice,  # only off the tree: its import costs a turn
        )

        advice = cold_advice(history, hard, top, lists)
    if advice is None or advice.solved:
        return advice
    # The guard at the guess limit is the Solver's: where it would change these, it answers.
    shown = [suggestion.word for suggestion in advice.suggestions]
    if advice.candidates_left > len(advice.candidates):
        return settle(advice, history, hard, on_tree)  # more than LOOKED_AT: no guard
    if shown_unchanged(shown, advice.candidates, len(history), hard):
        return settle(advice, history, hard, on_tree)
    # The book's guesses passed the guard when it was written: there the Solver says why.
    guarded = None if on_tree else _guarded(history, hard, top, lists, advice)
    return None if guarded is None else settle(guarded, history, hard, on_tree)


def settle(
    advice: Advice | None, history: Sequence[tuple[str, str]], hard: bool, on_tree: bool = False
) -> Advice | None:
    """The advice with one figure per row (epdle.solver.ranking.figure): the tree's rows
    have theirs; off it (pure.cold_advice's), the searched values where the search ran,
    else the estimate's."""
    if advice is None or advice.solved or on_tree:
        return advice
    from epdle.solver.ranking.searched import with_searched_figures

    searched = with_searched_figures(advice, history, hard)
    if searched is None:
        return None
    rows = figured(searched.suggestions, None, ESTIMATE, len(history))
    return Advice(searched.candidates_left, False, rows, searched.candidates)


def fast_history_advice(
    strategy_name: str,
    hard: bool,
    history: Sequence[tuple[str, str]],
    top: int,
    known: Sequence[Played],
    day: datetime.date,
) -> tuple[Advice, DayPrior] | None:
    """The fast path's advice under the history prior of `day` (the answers `known`),
    with that prior, or None when the Solver must answer: only `best`, in normal mode,
    before the last guess (where the guard at the limit keeps the guesses to candidates).
    `history` is normalised, as parse_history gives."""
    if strategy(strategy_name).kind is not Kind.TREE:
        return None
    from epdle.solver.ranking.pure.weighted import history_advice

    return history_advice(history, hard, top, known, day)


def _guarded(
    history: Sequence[tuple[str, str]], hard: bool, top: int, lists: str, advice: Advice
) -> Advice | None:
    """Off the tree, where the guard changes the leading guesses: as LimitGuard, of the
    first CHECKED ranked guesses those that leave no candidate out of reach, when some do
    and others do not; None where only the Solver can tell (FinishCheck's cases, the last
    guess, fewer candidates than guesses checked)."""
    from epdle.solver.ranking.pure import cold_advice

    left, n = guesses_left(len(history)), advice.candidates_left
    if left < 2 or n < CHECKED:
        return None
    ranked = cold_advice(history, hard, CHECKED, lists)
    if ranked is None:
        return None
    lost = [out_of_reach(s.word, advice.candidates, left, hard) for s in ranked.suggestions]
    if None in lost or 0 not in lost:
        return None  # some guess cannot be judged here, or none keeps every candidate
    kept = [s for s, count in zip(ranked.suggestions, lost, strict=True) if count == 0]
    return Advice(n, False, worth_showing(kept[: max(1, top)], n), advice.candidates)
