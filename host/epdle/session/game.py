"""The game being helped: guesses so far, and the solver's advice for the next one."""

from __future__ import annotations

from dataclasses import dataclass, field

from epdle.solver import Advice, HistoryError, Solver
from epdle.solver.scoring import GAME_GUESSES, is_solved


class GameError(ValueError):
    """A guess the game cannot take (one-line message); the game is unchanged."""


@dataclass
class Game:
    solver: Solver
    top: int = 5
    history: list[tuple[str, str]] = field(default_factory=list)
    _advice: Advice | None = field(default=None, init=False, repr=False)

    @property
    def advice(self) -> Advice:
        if self._advice is None:
            self._advice = self.solver.advise(self.history, top=self.top)
        return self._advice

    @property
    def solved(self) -> bool:
        return bool(self.history) and is_solved(self.history[-1][1])

    @property
    def lost(self) -> bool:
        """Every guess the game allows played, and none solved it: the game is over."""
        return len(self.history) >= GAME_GUESSES and not self.solved

    @property
    def over(self) -> bool:
        return self.solved or self.lost

    def play(self, guess: str, feedback: str) -> Advice:
        """Add a played guess; raises GameError (game unchanged) if it cannot be."""
        if self.solved:
            raise GameError("this game is solved: type 'new' to start another")
        if self.lost:
            raise GameError(
                f"this game is over: all {GAME_GUESSES} guesses are played; "
                "type 'new' to start another"
            )
        # As the game's language spells it (French drops accents): the board shows that.
        guess = self.solver.universe.lang.fold(guess)
        candidate = [*self.history, (guess, feedback)]
        try:
            advice = self.solver.advise(candidate, top=self.top)
        except HistoryError as error:
            raise GameError(str(error)) from None
        self.history = candidate
        self._advice = advice
        return advice

    def undo(self) -> Advice:
        if not self.history:
            raise GameError("nothing to undo")
        self.history = self.history[:-1]
        self._advice = None
        return self.advice

    def new(self) -> Advice:
        self.history = []
        self._advice = None
        return self.advice
