"""A game's state: the candidates a history leaves and (hard mode) the guesses it allows.

replay() checks a history as it goes and raises HistoryError naming the first guess that
cannot be right; apply() plays one guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from epdle.solver.patterns import letter_index, patterns_against
from epdle.solver.scoring import (
    hard_mode_violation,
    parse_feedback,
    pattern_code,
    quoted,
    solved_code,
)
from epdle.solver.universe import Universe

History = Sequence[tuple[str, str]]


class HistoryError(ValueError):
    """A game history that cannot be right: the message names the offending guess."""


@dataclass
class GameState:
    """What the history leaves: the candidates and (hard mode) which guesses are allowed."""

    history: tuple[tuple[str, str], ...]
    candidates: np.ndarray  # indexes into universe.answers
    allowed: np.ndarray | None  # hard mode: mask over universe.guesses
    solved: bool = False

    def key(self) -> bytes:
        allowed = b"" if self.allowed is None else np.packbits(self.allowed).tobytes()
        return self.candidates.tobytes() + b"|" + allowed

    def yellow_letters(self) -> set[int]:
        """The letters (pattern-engine indexes) any feedback so far marked yellow."""
        return {
            letter_index(letter)
            for guess, feedback in self.history
            for letter, mark in zip(guess, feedback, strict=True)
            if mark == "Y"
        }


def initial_state(universe: Universe, hard: bool) -> GameState:
    """Every answer a candidate and (hard mode) every guess allowed."""
    allowed = np.ones(len(universe.guesses), dtype=bool) if hard else None
    return GameState((), np.arange(len(universe.answers)), allowed)


def apply(universe: Universe, state: GameState, guess: str, feedback: str) -> GameState:
    """The state after playing `guess` and seeing `feedback`."""
    code = pattern_code(feedback)
    letters = universe.answer_letters[state.candidates]
    keep = patterns_against(guess, letters) == code
    allowed = state.allowed
    if allowed is not None:
        allowed = allowed & universe.hard_mode_mask(guess, feedback)
    solved = code == solved_code(universe.length)
    return GameState((*state.history, (guess, feedback)), state.candidates[keep], allowed, solved)


def checked_guess(
    universe: Universe,
    turn: int,
    raw_guess: str,
    error: type[ValueError],
    *,
    solved: bool = False,
) -> str:
    """The guess of a history's turn as the game spells it; `error` naming it if it cannot
    be played there: not the game's letters, the game `solved` before it, not the game's
    length, not an accepted word (one board's replay and several boards' check here)."""
    guess = universe.lang.fold(raw_guess)
    where = f"guess {turn} {quoted(guess)}"
    try:
        universe.lang.spell(guess)
    except ValueError as problem:
        raise error(f"guess {turn}: {problem}") from None
    if solved:
        raise error(f"{where}: the game was already solved by the guess before it")
    if len(guess) != universe.length:
        raise error(f"{where}: has {len(guess)} letters, this game uses {universe.length}")
    if guess not in universe.guess_index:
        raise error(f"{where}: not in the accepted word list")
    return guess


def replay(universe: Universe, hard: bool, history: History) -> GameState:
    """Replay a history; raise HistoryError naming the first guess that cannot be right."""
    state = initial_state(universe, hard)
    for turn, (raw_guess, feedback) in enumerate(history, start=1):
        guess = checked_guess(universe, turn, raw_guess, HistoryError, solved=state.solved)
        where = f"guess {turn} {quoted(guess)}"
        if state.allowed is not None and not state.allowed[universe.guess_index[guess]]:
            reason = hard_mode_violation(state.history, guess) or "it breaks the rule"
            raise HistoryError(f"{where}: hard mode: {reason}")
        try:
            marks = parse_feedback(feedback, len(guess))
        except ValueError as error:
            raise HistoryError(f"{where}: {error}") from None
        state = apply(universe, state, guess, marks)
        if len(state.candidates) == 0:
            raise HistoryError(f"{where}: {_no_candidate_left(universe.blind, turn, marks)}")
    return state


def _no_candidate_left(blind: bool, turn: int, marks: str) -> str:
    words = "accepted word" if blind else "word of the answer list"
    fit = "gets this feedback" if turn == 1 else "fits it and the feedback before"
    message = f"feedback {marks}: no {words} {fit}"
    if not blind:
        message += " (today's answer may be on no answer list: --blind plays every accepted word)"
    return message
