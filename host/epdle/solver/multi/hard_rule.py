"""One board's hard-mode rule as a value: the greens and letter counts its hints demand
(scoring.hard_mode_hints), merged over its feedbacks. Hashable and ordered, so that a
search can key a state by it: two histories that demand the same allow the same guesses.

Hard mode over several boards, the one definition that the history check, the estimate,
its fallbacks and the endgame search all apply (HardRule.playable on the open boards'
rules): a guess keeps all the hints of at least one open board, each green in its place
and each revealed letter as often as it was revealed. With one board it is the game's
own rule; every open board's answer keeps its own board's hints, so every board stays
winnable; what it forbids is a probe that fits no open board's hints."""

from __future__ import annotations

from collections.abc import Collection, Sequence
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
        """The rule once `guess` got `feedback` too: each green kept in its place, each
        letter as often as any feedback revealed it."""
        hints = hard_mode_hints(guess, feedback)
        counts = dict(self.counts)
        for letter, count in hints.counts.items():
            counts[letter] = max(count, counts.get(letter, 0))
        greens = set(self.greens) | set(hints.greens)
        return HardRule(tuple(sorted(greens)), tuple(sorted(counts.items())))

    @staticmethod
    def playable(universe: Universe, rules: Collection[HardRule]) -> np.ndarray:
        """Which of the universe's guesses may be played next, given the open boards'
        `rules`: those keeping at least one of them (every guess when none is open)."""
        if not rules:
            return np.ones(len(universe.guesses), dtype=bool)
        return np.logical_or.reduce([rule.mask(universe) for rule in rules])

    def mask(self, universe: Universe) -> np.ndarray:
        """Which of the universe's guesses the rule allows."""
        mask = np.ones(len(universe.guesses), dtype=bool)
        for position, letter in self.greens:
            mask &= universe.guess_letters[:, position] == letter_index(letter)
        counts = universe.guess_letter_counts
        for letter, count in self.counts:
            mask &= counts[:, letter_index(letter)] >= count
        return mask
