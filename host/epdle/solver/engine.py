"""The Solver: next-guess advice for one strategy and mode over one word universe.

A small front: the history is replayed by epdle.solver.state, freq and the one-ply
strategies rank by epdle.solver.ranking.one_ply, `best` by epdle.solver.ranking.best; on the shipped
lists `best` answers first from epdle.solver.ranking.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from epdle.solver.advice import Advice, Suggestion, worth_showing
from epdle.solver.limit_guard import LimitGuard
from epdle.solver.names import DEFAULT_STRATEGY, Kind
from epdle.solver.names import strategy as registered
from epdle.solver.openers import ranked_openers
from epdle.solver.ranking import fast_advice
from epdle.solver.ranking.best import BestPolicy, HardGuard
from epdle.solver.ranking.figure import in_figure_order
from epdle.solver.ranking.one_ply import freq_ranked, one_ply_ranked
from epdle.solver.ranking.stats import BoundedMemo, guess_stats
from epdle.solver.state import GameState, History, HistoryError, apply, initial_state, replay
from epdle.solver.universe import Universe

__all__ = ["Advice", "GameState", "HistoryError", "Solver", "Suggestion"]


class Solver:
    """Next-guess advice for one strategy and mode over one word universe."""

    def __init__(
        self,
        strategy: str = DEFAULT_STRATEGY,
        hard: bool = False,
        blind: bool = False,
        *,
        universe: Universe | None = None,
        keep_plurals: bool = False,
        progress: Callable[[int, int], None] | None = None,
        tree_any_size: bool = False,
    ) -> None:
        """`tree_any_size`: `best` searches its tree for a list of one's own of any size
        (minutes for thousands of answers; trees.load_or_build_tree)."""
        self.kind = registered(strategy).kind
        self.strategy = strategy
        self.hard = hard
        self.universe = universe or Universe.shipped(blind=blind, keep_plurals=keep_plurals)
        self.blind = self.universe.blind
        # `best` only
        self.best = BestPolicy(self.universe, hard, strategy, progress, tree_any_size)
        self._ranked: BoundedMemo[list[int]] = BoundedMemo()  # freq and the one-ply ones
        self._guard = HardGuard(self.universe)  # freq in hard mode
        self.limit = LimitGuard(self.universe, hard)  # every strategy, near the guess limit

    # -- history -> state -------------------------------------------------------------

    def initial_state(self) -> GameState:
        return initial_state(self.universe, self.hard)

    def state_after(self, history: History) -> GameState:
        """Replay a history; raise HistoryError naming the first guess that cannot be right."""
        return replay(self.universe, self.hard, history)

    def apply(self, state: GameState, guess: str, feedback: str) -> GameState:
        """The state after playing `guess` and seeing `feedback`."""
        return apply(self.universe, state, guess, feedback)

    # -- advice ---------------------------------------------------------------------------

    def advise(self, history: History, top: int = 5) -> Advice:
        """Ranked next guesses for a history of (guess, feedback) pairs.

        `best` on the shipped lists answers from epdle.solver.ranking where it can (the same
        advice, without ranking here); everything else as engine_advice."""
        state = self.state_after(history)
        if not state.solved:
            lists = self.universe.lists
            advice = fast_advice(self.strategy, self.hard, self.blind, lists, state.history, top)
            if advice is not None:
                return advice
        return self.engine_advice(state.history, top)

    def engine_advice(self, history: History, top: int = 5) -> Advice:
        """advise, worked out here: the tree's guess or the ranking and search."""
        state = self.state_after(history)
        order = np.argsort(-self.universe.weights[state.candidates], kind="stable")
        likely = [self.universe.answers[state.candidates[i]] for i in order[:100]]
        if state.solved:
            return Advice(1, True, [], likely[:1])
        ranked = self.ranked_guesses(state)[: max(1, top)]
        stats = guess_stats(self.universe, state.candidates, np.array(ranked))
        best = self.kind is Kind.TREE
        figures = self.best.figures(state, ranked) if best else [(None, None)] * len(ranked)
        suggestions = [
            Suggestion(
                word=self.universe.guesses[guess],
                bits=float(stats.bits[i]),
                expected_left=float(stats.expected_left[i]),
                is_candidate=bool(stats.answer_probability[i] > 0),
                guesses=figures[i][0],
                source=figures[i][1],
                chance=float(stats.answer_probability[i]),
            )
            for i, guess in enumerate(ranked)
        ]
        candidates_left = len(state.candidates)
        shown = worth_showing(suggestions, candidates_left)
        return Advice(
            candidates_left, False, in_figure_order(shown, len(history)) if best else shown, likely
        )

    def forget_rankings(self) -> None:
        """Drop the per-state memos (the latency bench times each turn from scratch)."""
        self._ranked.clear()
        self._guard.forget()
        self.limit.forget()
        self.best.forget()

    def next_guess(self, state: GameState) -> str:
        if self.kind is Kind.TREE:
            tree_guess = self.best.tree_guess(state)
            if tree_guess is not None:
                return tree_guess
        return self.universe.guesses[self.ranked_guesses(state)[0]]

    def ranked_guesses(self, state: GameState) -> list[int]:
        """Guess indexes, best first, for a state (memoised per candidate set), as the
        guard at the guess limit lets them through (epdle.solver.limit)."""
        return self.limit.guarded(state, self._ranked_guesses(state))

    def _ranked_guesses(self, state: GameState) -> list[int]:
        if self.kind is Kind.TREE:
            return self.best.ranked(state)
        key = state.key()
        if self.kind is Kind.FREQUENCY:
            # Its ranking also reads whether it opens and which letters were yellow.
            key += repr((bool(state.history), sorted(state.yellow_letters()))).encode()
        ranked = self._ranked.get(key)
        if ranked is None:
            ranked = self._rank(state)
            self._ranked[key] = ranked
        return ranked

    def _rank(self, state: GameState) -> list[int]:
        if self.kind is Kind.FREQUENCY:
            ranked = freq_ranked(self.universe, state)
            return self._guard.guarded(state, ranked) if self.hard else ranked

        def rank(state: GameState) -> list[int]:
            return one_ply_ranked(self.universe, self.strategy, state)

        if not state.history:
            return ranked_openers(self.universe, self.strategy, self.hard, rank)
        return rank(state)
