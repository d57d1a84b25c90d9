"""The endgame of several boards, searched exactly: the expected total guesses of every
guess of a small pool when few candidates are left on the open boards.

With a handful of words left (one board with two, another with three, say), which word
to play first decides whether a guess is wasted; the one-ply estimate often cannot tell.
Here every joint feedback is followed to the end, each state memoised, within a budget
of states (None when it runs out: the estimate decides then). Of guesses expected to
take the same, one after which no feedback takes the game to its last guess is played
first.

In hard mode each open board carries its rule (HardRule), and the feedback a board gets
inside the search narrows its rule for the guesses after it, so the rules are part of a
state; in each state a guess must keep the rule of at least one open board
(HardRule.playable), which every candidate's word does. The pool keeps the words of the
start with the probes: with the probes narrowed by the rules, a word no longer a
candidate may be the best guess the rules allow.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from epdle.solver.multi.hard_rule import HardRule
from epdle.solver.scoring import pattern_string
from epdle.solver.universe import Universe

# Past the guess limit a game costs this many guesses (a lost game outweighs any saving).
LOST = 100.0
# A state's value: the expected guesses to finish, and the most that any feedback may
# take by the play that expectation is of (of guesses expected to take the same, one
# that never needs every guess left is played first: as good on average, and fewer games
# end on their last guess).
Value = tuple[float, int]
LOST_VALUE: Value = (LOST, int(LOST))

Board = tuple[int, ...]  # candidate indexes into universe.answers, sorted
# The open boards, each with its rule (empty outside hard mode), sorted.
State = tuple[tuple[Board, HardRule], ...]


class EndgameSearch:
    """Exact expected guesses to finish every board, over a fixed pool of guesses (in
    hard mode those keeping at least one open board's rule)."""

    def __init__(
        self, universe: Universe, pool: Sequence[int], budget: int, *, hard: bool = False
    ) -> None:
        self.universe = universe
        self.pool = list(pool)
        self.budget = budget
        self.hard = hard
        self.solved_code = universe.pattern_count - 1
        self._memo: dict[tuple[State, int], Value] = {}
        self._narrowed: dict[tuple[HardRule, int, int], HardRule] = {}
        self._playable: dict[frozenset[HardRule], np.ndarray] = {}

    def rank(
        self,
        boards: Sequence[Board],
        left: int,
        rules: Sequence[HardRule] | None = None,
        prefer: Sequence[int] = (),
    ) -> list[tuple[int, float]] | None:
        """(guess, expected guesses from now), best first; None past the budget or when
        even the best is no better than a lost game (the estimate decides). `rules`:
        each board's hard-mode rule (HardRule.of its history) when the search is hard.
        Of guesses expected to take the same (to 9 places: sums carry float noise), those
        that never need every guess left come first, then the order of `prefer` (the
        estimate's ranking), then of their index: the search changes the estimate's
        choice only for one that is better on average or, as good on average, keeps the
        game off its last guess where the estimate's choice may not."""
        state = tuple(sorted(zip(boards, rules or [HardRule()] * len(boards), strict=True)))
        if self.hard:  # the pool keeps the words of the start (see above)
            self.pool = sorted(self._words(state) | set(self.pool))
        try:
            scored = [(g, self._after(state, g, left)) for g in self._choices(state)]
        except _OverBudget:
            return None
        place = {guess: at for at, guess in enumerate(prefer)}
        scored.sort(
            key=lambda item: (*_order(item[1], left), place.get(item[0], len(place)), item[0])
        )
        if scored[0][1][0] >= LOST:
            return None  # no better than a lost game
        return [(guess, expected) for guess, (expected, _) in scored]

    def _words(self, state: State) -> set[int]:
        index_of = self.universe.guess_index_of_answers
        return {int(index_of[row]) for board, _ in state for row in board}

    def _choices(self, state: State) -> list[int]:
        """The candidates' words and the pool; in hard mode those keeping at least one
        open board's rule (HardRule.playable)."""
        choices = sorted(self._words(state) | set(self.pool))
        if not self.hard:
            return choices
        rules = frozenset(rule for _, rule in state)
        playable = self._playable.get(rules)
        if playable is None:
            playable = self._playable[rules] = HardRule.playable(self.universe, rules)
        return [g for g in choices if playable[g]]

    def _value(self, state: State, left: int) -> Value:
        if not state:
            return (0.0, 0)
        if left <= 0:
            return LOST_VALUE
        key = (state, left)
        value = self._memo.get(key)
        if value is None:
            if len(self._memo) >= self.budget:
                raise _OverBudget
            if all(len(board) == 1 for board, _ in state):
                # Each board's word in turn (one for boards left the same word): nothing
                # to learn any more.
                words = len({board for board, _ in state})
                value = (float(words), words) if words <= left else LOST_VALUE
            else:
                value = min(
                    (self._after(state, g, left) for g in self._choices(state)),
                    key=lambda after: _order(after, left),
                )
            self._memo[key] = value
        return value

    def _after(self, state: State, guess: int, left: int) -> Value:
        """1 + the value after playing `guess` (expected over every joint feedback, and
        the most of any)."""
        weights = self.universe.weights
        splits: list[list[tuple[float, tuple[Board, HardRule] | None]]] = []
        for board, rule in state:
            rows = np.array(board)
            codes = self.universe.patterns[rows, guess]
            total = float(weights[rows].sum())
            parts: dict[int, list[int]] = {}
            for row, code in zip(board, codes.tolist(), strict=True):
                parts.setdefault(code, []).append(row)
            split: list[tuple[float, tuple[Board, HardRule] | None]] = []
            for code, members in parts.items():
                chance = float(weights[members].sum()) / total
                if code == self.solved_code:
                    split.append((chance, None))
                else:
                    split.append((chance, (tuple(members), self._rule_after(rule, guess, code))))
            splits.append(split)
        unchanged = all(
            len(split) == 1 and split[0][1] is not None and split[0][1][0] == board
            for split, (board, _) in zip(splits, state, strict=True)
        )
        if unchanged:
            return LOST_VALUE  # it tells nothing and solves nothing
        expected, worst = 0.0, 0
        for outcome in itertools.product(*splits):
            chance = 1.0
            for part_chance, _ in outcome:
                chance *= part_chance
            still_open = tuple(sorted(part for _, part in outcome if part is not None))
            mean, most = self._value(still_open, left - 1)
            expected += chance * mean
            worst = max(worst, most)
        return (1.0 + expected, 1 + worst)

    def _rule_after(self, rule: HardRule, guess: int, code: int) -> HardRule:
        """A board's rule once `guess` got feedback `code` on it (hard mode)."""
        if not self.hard:
            return rule
        key = (rule, guess, code)
        after = self._narrowed.get(key)
        if after is None:
            feedback = pattern_string(code, self.universe.length)
            after = rule.after(self.universe.guesses[guess], feedback)
            self._narrowed[key] = after
        return after


def _order(value: Value, left: int) -> tuple[float, bool]:
    """How values compare with `left` guesses left: the expectation first (to 9 places:
    sums carry float noise), then whether the worst case needs every guess left."""
    return (round(value[0], 9), value[1] >= left)


class _OverBudget(Exception):
    pass
