"""The endgame of several boards, searched exactly: the expected total guesses of every
guess of a small pool when few candidates are left on the open boards.

With a handful of words left (one board with two, another with three, say), which word
to play first decides whether a guess is wasted; the one-ply estimate often cannot tell.
Here every joint feedback is followed to the end, each state memoised, within a budget
of states (None when it runs out: the estimate decides then).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from epdle.solver.universe import Universe

# Past the guess limit a game costs this many guesses (a lost game outweighs any saving).
LOST = 100.0

Board = tuple[int, ...]  # candidate indexes into universe.answers, sorted


class EndgameSearch:
    """Exact expected guesses to finish every board, over a fixed pool of guesses."""

    def __init__(self, universe: Universe, pool: Sequence[int], budget: int) -> None:
        self.universe = universe
        self.pool = list(pool)
        self.budget = budget
        self.solved_code = universe.pattern_count - 1
        self._memo: dict[tuple[tuple[Board, ...], int], float] = {}

    def rank(self, boards: Sequence[Board], left: int) -> list[tuple[int, float]] | None:
        """(guess, expected guesses from now), best first; None past the budget."""
        try:
            scored = [(g, self._after(tuple(boards), g, left)) for g in self._choices(boards)]
        except _OverBudget:
            return None
        scored.sort(key=lambda item: (item[1], item[0]))
        return scored

    def _choices(self, boards: Sequence[Board]) -> list[int]:
        index_of = self.universe.guess_index_of_answers
        words = {int(index_of[row]) for board in boards for row in board}
        return sorted(words | set(self.pool))

    def _value(self, boards: tuple[Board, ...], left: int) -> float:
        if not boards:
            return 0.0
        if left <= 0:
            return LOST
        key = (boards, left)
        value = self._memo.get(key)
        if value is None:
            if len(self._memo) >= self.budget:
                raise _OverBudget
            if all(len(board) == 1 for board in boards):
                # Each board's word in turn: nothing to learn any more.
                value = float(len(boards)) if len(boards) <= left else LOST
            else:
                value = min(self._after(boards, g, left) for g in self._choices(boards))
            self._memo[key] = value
        return value

    def _after(self, boards: tuple[Board, ...], guess: int, left: int) -> float:
        """1 + the expected value after playing `guess` (every joint feedback)."""
        weights = self.universe.weights
        splits: list[list[tuple[float, Board | None]]] = []
        for board in boards:
            rows = np.array(board)
            codes = self.universe.patterns[rows, guess]
            mass = weights[rows]
            total = float(mass.sum())
            parts: dict[int, list[int]] = {}
            for row, code in zip(board, codes.tolist(), strict=True):
                parts.setdefault(code, []).append(row)
            split: list[tuple[float, Board | None]] = []
            for code, members in parts.items():
                chance = float(weights[members].sum()) / total
                split.append((chance, None if code == self.solved_code else tuple(members)))
            splits.append(split)
        pairs = zip(splits, boards, strict=True)
        if all(len(split) == 1 and split[0][1] == board for split, board in pairs):
            return LOST  # it tells nothing and solves nothing
        expected = 0.0
        for outcome in itertools.product(*splits):
            chance = 1.0
            for part_chance, _ in outcome:
                chance *= part_chance
            still_open = tuple(sorted(part for _, part in outcome if part is not None))
            expected += chance * self._value(still_open, left - 1)
        return 1.0 + expected


class _OverBudget(Exception):
    pass
