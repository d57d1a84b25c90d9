"""One board's hard-mode rule as a value: the greens and letter counts its hints demand
(scoring.hard_mode_hints), merged over its feedbacks, and over the open boards when a
guess must keep all of theirs. Hashable and ordered, so that a search can key a state
by it: two histories that demand the same allow the same guesses.

Hard mode over several boards, the one definition that the history check, the estimate,
its fallbacks and the endgame search all apply (HardRule.playable on the open boards'
rules joined): a guess keeps every open board's hints, each green in its place and each
revealed letter as often as it was revealed; when no accepted word keeps them all (the
boards' rules contradict each other), any accepted word may be played."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from epdle.solver.patterns import letter_index
from epdle.solver.scoring import hard_mode_hints
from epdle.solver.universe import Universe


@dataclass(frozen=True, order=True)
class HardRule:
    greens: tuple[tuple[int, str], ...] = ()  # (position, letter), sorted
    counts: tuple[tuple[str, int], ...] = ()  # (letter, at least so many times), sorted

    @classmethod
    def of(cls, history: Sequence[tuple[str, str]]) -> HardRule:
        """The rule a board's (guess, feedback) history leaves."""
        rule = cls()
        for guess, feedback in history:
            rule = rule.after(guess, feedback)
        return rule

    def after(self, guess: str, feedback: str) -> HardRule:
        """The rule once `guess` got `feedback` too."""
        hints = hard_mode_hints(guess, feedback)
        return self.join([HardRule(hints.greens, tuple(hints.counts.items()))])

    def join(self, others: Iterable[HardRule]) -> HardRule:
        """The rule a guess keeps when it keeps this one and each of `others`."""
        greens = set(self.greens)
        counts = dict(self.counts)
        for other in others:
            greens.update(other.greens)
            for letter, count in other.counts:
                counts[letter] = max(count, counts.get(letter, 0))
        return HardRule(tuple(sorted(greens)), tuple(sorted(counts.items())))

    def playable(self, universe: Universe) -> np.ndarray:
        """Which of the universe's guesses may be played under this rule (the open boards'
        rules joined): those it allows, or every guess when it allows none."""
        mask = self.mask(universe)
        return mask if mask.any() else np.ones_like(mask)

    def mask(self, universe: Universe) -> np.ndarray:
        """Which of the universe's guesses the rule allows."""
        mask = np.ones(len(universe.guesses), dtype=bool)
        for position, letter in self.greens:
            mask &= universe.guess_letters[:, position] == letter_index(letter)
        counts = universe.guess_letter_counts
        for letter, count in self.counts:
            mask &= counts[:, letter_index(letter)] >= count
        return mask
