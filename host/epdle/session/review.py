"""A finished game scored turn by turn against the helper's best move.

For each guess: the candidates before and after, the guesses the game was expected to
take from there with the best move and with the guess played, and two figures from 0 to
99 as WordleBot gives them. Skill: 99 when the guess was as good as the best move, less
by the expected guesses it gave away (a whole guess lost is 0). Luck: where the colours
that came fall among the ones that could have, weighted by how likely each was (99: no
outcome would have left fewer guesses to go; 0: none more).

Expected guesses are the helper's own play from a state, averaged over its candidates
by their weight; a state with more than SAMPLE candidates is averaged over SAMPLE of
them spread evenly through the likeliest-first order (an estimate).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numpy as np

from epdle.solver import HistoryError, Solver, parse_feedback, score
from epdle.solver.scoring import is_solved

if TYPE_CHECKING:
    from epdle.solver.state import GameState

SAMPLE = 24  # candidates played out to estimate a state's expected guesses
MAX_PLAY = 10  # guesses a played-out game may take (a bound, never reached in practice)


class ReviewError(ValueError):
    """A game the review cannot take (one-line message)."""


@dataclass(frozen=True)
class TurnReview:
    guess: str
    colours: str
    best: str  # the helper's move at this point
    left_before: int  # candidates before the guess
    left_after: int
    expected_best: float  # guesses to finish from here, the best move first
    expected_played: float  # guesses to finish from here, this guess first
    expected_after: float  # guesses still to come after this guess and its colours
    skill: int
    luck: int


@dataclass(frozen=True)
class Review:
    turns: list[TurnReview]
    solved: bool
    skill: int  # the turns' skill, averaged
    luck: int

    def as_json(self) -> dict[str, object]:
        return asdict(self)


class Reviewer:
    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        self._expected: dict[bytes, float] = {}

    def review(self, history: list[tuple[str, str]]) -> Review:
        try:
            self.solver.state_after(history)  # every guess accepted, every colour possible
        except HistoryError as error:
            raise ReviewError(str(error)) from None
        state = self.solver.initial_state()
        turns = []
        for guess, colours in history:
            guess = self.solver.universe.lang.fold(guess)
            turns.append(self._turn(state, guess, colours))
            state = self.solver.apply(state, guess, colours)
        solved = bool(history) and is_solved(history[-1][1])
        skill = round(sum(t.skill for t in turns) / len(turns)) if turns else 0
        luck = round(sum(t.luck for t in turns) / len(turns)) if turns else 0
        return Review(turns, solved, skill, luck)

    def _turn(self, state: GameState, guess: str, colours: str) -> TurnReview:
        best = self.solver.next_guess(state)
        played = self._outcomes(state, guess)
        expected_played = 1 + sum(share * after for share, after in played.values())
        expected_best = (
            expected_played
            if best == guess
            else 1 + sum(share * after for share, after in self._outcomes(state, best).values())
        )
        after = played[colours][1]
        worse = sum(share for share, other in played.values() if other > after + 1e-9)
        same = sum(share for share, other in played.values() if abs(other - after) <= 1e-9)
        lost = max(0.0, expected_played - expected_best)
        return TurnReview(
            guess=guess,
            colours=colours,
            best=best,
            left_before=len(state.candidates),
            left_after=len(self.solver.apply(state, guess, colours).candidates),
            expected_best=round(expected_best, 3),
            expected_played=round(expected_played, 3),
            expected_after=round(after, 3),
            skill=round(99 * max(0.0, 1.0 - lost)),
            luck=round(99 * (worse + same / 2)),
        )

    def _outcomes(self, state: GameState, guess: str) -> dict[str, tuple[float, float]]:
        """Per colours the guess can get: (their probability, guesses still to come)."""
        weights = self.solver.universe.weights[state.candidates]
        shares: dict[str, float] = defaultdict(float)
        for index, weight in zip(state.candidates, weights / weights.sum(), strict=True):
            shares[score(guess, self.solver.universe.answers[index])] += float(weight)
        return {
            colours: (share, self.expected(self.solver.apply(state, guess, colours)))
            for colours, share in shares.items()
        }

    def expected(self, state: GameState) -> float:
        """Guesses the helper takes to finish from ``state`` (0 when it is solved)."""
        if state.solved:
            return 0.0
        key = state.key()
        if key not in self._expected:
            self._expected[key] = self._play_out(state)
        return self._expected[key]

    def _play_out(self, state: GameState) -> float:
        universe = self.solver.universe
        weights = universe.weights[state.candidates]
        order = np.argsort(-weights, kind="stable")
        if len(order) > SAMPLE:
            order = order[np.linspace(0, len(order) - 1, SAMPLE).round().astype(int)]
        total = taken = 0.0
        for position in order:
            answer = universe.answers[state.candidates[position]]
            now, guesses = state, 0
            while guesses < MAX_PLAY:
                guess = self.solver.next_guess(now)
                guesses += 1
                colours = score(guess, answer)
                if is_solved(colours):
                    break
                now = self.solver.apply(now, guess, colours)
            total += float(weights[position]) * guesses
            taken += float(weights[position])
        return total / taken


def grid_history(grid: str, words: list[str]) -> list[tuple[str, str]]:
    """A shared grid's rows of squares ("Wordle 1,234 3/6" and blank lines skipped) with
    the words played, as (word, G/Y/B colours)."""
    rows = []
    for line in grid.splitlines():
        try:
            rows.append(parse_feedback(line.strip()))
        except ValueError:
            continue  # the title line, blank lines
    if len(rows) != len(words):
        raise ReviewError(f"the grid has {len(rows)} rows of squares but {len(words)} words")
    for word, row in zip(words, rows, strict=True):
        if len(word) != len(row):
            raise ReviewError(f"{word.upper()} has {len(word)} letters, its row {len(row)}")
    return [(word.lower(), row) for word, row in zip(words, rows, strict=True)]
