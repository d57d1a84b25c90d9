"""The game being helped: guesses so far, and the solver's advice for the next one.

The default serves today's game: the solver's answer list (the original game's) is used
while the feedback fits it; when it leaves the list, the game goes on with every accepted
word weighted by how common it is (the blind solver), without a restart. Hard mode and
blind play can be switched during a game: the history is replayed under the new rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from epdle.solver import Advice, HistoryError, Solver
from epdle.solver.scoring import GAME_GUESSES, is_solved

# (hard, blind) -> a solver of the same words and strategy (the caller keeps them).
SolverFor = Callable[[bool, bool], Solver]

WIDENED_NOTE = (
    "the answer is not in the original game's list: going on with every accepted word, "
    "the common ones first"
)


class GameError(ValueError):
    """A guess the game cannot take (one-line message); the game is unchanged."""


@dataclass
class Game:
    solver: Solver
    top: int = 5
    history: list[tuple[str, str]] = field(default_factory=list)
    # Solvers for other modes: without it the game neither widens nor switches modes.
    solvers: SolverFor | None = None
    # True once the feedback has left the solver's answer list (blind solver in use).
    widened: bool = field(default=False, init=False)
    _advice: Advice | None = field(default=None, init=False, repr=False)

    @property
    def advice(self) -> Advice:
        if self._advice is None:
            self._advice, self.widened = self._advise(self.history)
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

    def _advise(self, history: list[tuple[str, str]]) -> tuple[Advice, bool]:
        """The advice for ``history`` and whether it had to widen; GameError if no mode
        can take it."""
        try:
            return self.solver.advise(history, top=self.top), False
        except HistoryError as error:
            if self.solvers is None or self.solver.blind:
                raise GameError(str(error)) from None
        try:  # the feedback left the answer list, or the history is wrong for any list
            return self.solvers(self.solver.hard, True).advise(history, top=self.top), True
        except HistoryError as error:
            raise GameError(str(error)) from None

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
        advice, widened = self._advise(candidate)
        self.history = candidate
        self._advice, self.widened = advice, widened
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

    def switch(self, hard: bool | None = None, blind: bool | None = None) -> Advice:
        """Go on under other rules (hard mode, blind from the start); the history is
        replayed. GameError, game unchanged, if it cannot be (a guess breaks hard mode)."""
        if self.solvers is None:
            raise GameError("this game cannot change modes")
        hard = self.solver.hard if hard is None else hard
        blind = self.solver.blind if blind is None else blind
        replay = Game(self.solvers(hard, blind), self.top, list(self.history), self.solvers)
        try:
            advice = replay.advice
        except GameError as error:
            raise GameError(f"cannot switch: {error}") from None
        self.solver, self.widened, self._advice = replay.solver, replay.widened, advice
        return advice
