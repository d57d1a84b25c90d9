"""The Solver's guard at the guess limit (the rule: epdle.solver.limit), over the pattern
engine: every strategy's ranking passes through it (Solver.ranked_guesses)."""

from __future__ import annotations

import numpy as np

from epdle.solver.limit import CHECKED, LOOKED_AT, guesses_left, part_verdict
from epdle.solver.ranking.stats import BoundedMemo
from epdle.solver.search import FinishCheck
from epdle.solver.settings import pinned_feedbacks
from epdle.solver.state import GameState
from epdle.solver.universe import Universe


class LimitGuard:
    """Which guesses keep every candidate within reach of the guess limit (memoised)."""

    def __init__(self, universe: Universe, hard: bool) -> None:
        self.universe = universe
        self.hard = hard
        self.solved = universe.pattern_count - 1
        self._pinned = np.array(pinned_feedbacks(universe.length))
        self._check: FinishCheck | None = None
        self._memo: BoundedMemo[list[int]] = BoundedMemo()

    def forget(self) -> None:
        self._memo.clear()
        self._check = None

    def _finish_check(self) -> FinishCheck:
        if self._check is None:
            self._check = FinishCheck(self.universe)
        return self._check

    def _looks_at(self, state: GameState) -> int | None:
        """The guesses left, the next included, where the guard looks at this state."""
        left = guesses_left(len(state.history))
        if left < 1 or len(state.candidates) > LOOKED_AT:
            return None
        if self.universe.blind and left > 1:
            return None  # `best` weighs the rare words itself (epdle.solver.limit)
        return left

    def guarded(self, state: GameState, ranked: list[int]) -> list[int]:
        """`ranked` where its first CHECKED guesses all keep every candidate within reach
        (or the guard does not look, or they all leave as much out of reach); else only
        those that leave the least out of reach, or, when none keeps every candidate
        within reach, the guess FinishCheck finds that does; on the last guess only
        candidates."""
        left = self._looks_at(state)
        if left is None or len(state.candidates) <= 1:
            return ranked
        key = state.key() + bytes([left])
        known = self._memo.get(key)
        if known is None:
            known = self._guarded(state, ranked, left)
            self._memo[key] = known
        return known

    def _guarded(self, state: GameState, ranked: list[int], left: int) -> list[int]:
        # Hard mode: a ranking may end with guesses the hints rule out; only playable ones count.
        checked = [g for g in ranked[:CHECKED] if state.allowed is None or state.allowed[g]]
        if not checked:
            return ranked
        if left == 1:
            own = self.universe.guess_index_of_answers[state.candidates]
            weights = self.universe.weights[state.candidates]
            likelier = [int(own[i]) for i in np.argsort(-weights, kind="stable")]
            kept = [guess for guess in checked if guess in set(likelier)]
            if len(kept) == len(checked):
                return ranked
            return kept + [guess for guess in likelier if guess not in kept]
        lost = [self.lost_mass(state, guess) for guess in checked]
        least = min(lost)
        if least > 0:  # none of them keeps every candidate within reach: one that does
            found = self._finish_check().finishing_guess(state.candidates, state.allowed, left)
            if found is not None:
                return [found]
        if max(lost) - least <= 1e-9:
            return ranked
        return [guess for guess, mass in zip(checked, lost, strict=True) if mass - least <= 1e-9]

    def lost_mass(self, state: GameState, guess: int) -> float:
        """The share (by weight) of the candidates that `guess` leaves out of reach."""
        codes = self.lost_codes(state, guess)
        if not codes:
            return 0.0
        weights = self.universe.weights[state.candidates]
        out = np.isin(self.universe.patterns[state.candidates, guess], list(codes))
        return float(weights[out].sum() / weights.sum())

    def lost_codes(self, state: GameState, guess: int) -> set[int]:
        """The feedback codes after which some candidate can no longer be found in time
        (empty: every one can, or the guard does not look at this state)."""
        left = self._looks_at(state)
        if left is None:
            return set()
        codes = np.asarray(self.universe.patterns[state.candidates, guess])
        unique, inverse, sizes = np.unique(codes, return_inverse=True, return_counts=True)
        lost = set()
        for position, (code, size) in enumerate(zip(unique.tolist(), sizes.tolist(), strict=True)):
            if code == self.solved:
                continue
            verdict = part_verdict(size, bool(self._pinned[code]), self.hard, left - 1)
            if verdict is None:
                part = state.candidates[inverse == position]
                check = self._finish_check()
                allowed = check.search.allowed_after(state.allowed, guess, code)
                verdict = check.can_finish(part, allowed, left - 1)
            if not verdict:
                lost.add(code)
        return lost
