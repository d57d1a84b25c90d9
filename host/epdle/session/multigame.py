"""A game of several boards (Dordle, Quordle, Octordle): each guess is played on every
board still open, and the game gives one colour line per board.

The game ends when every board is solved, or lost at the guess limit (boards + 5) with
each open board's candidates left. As the single game does, it goes on with every
accepted word when the feedback leaves the original answer list, and can switch hard
mode and blind play during a game (the history is replayed under the new rules).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from epdle.session.game import GameError
from epdle.solver.multi.history import SOLVED_MARK
from epdle.solver.scoring import is_solved, parse_feedback, quoted

if TYPE_CHECKING:
    from epdle.solver.multi import MultiAdvice, MultiHistory, MultiSolver

# (hard, blind) -> a solver of the same words and boards (the caller keeps them).
MultiSolverFor = Callable[[bool, bool], "MultiSolver"]


def parse_colours(word: str, colours: str, open_boards: Sequence[bool]) -> list[str | None]:
    """One feedback per board from 'gybbb/bbbbb/-/ggggg' (any notation a single game
    takes), None for a solved board. The solved boards may be left out (one feedback per
    open board) or marked '-'; GameError says what is wrong."""
    parts = [part.strip() for part in colours.split("/")]
    boards = len(open_boards)
    opened = sum(open_boards)
    if len(parts) == opened < boards:  # only the open boards' colours: the solved are known
        given = iter(parts)
        parts = [next(given) if is_open else SOLVED_MARK for is_open in open_boards]
    if len(parts) != boards:
        expected = f"{boards}" + (f" (or {opened}, the open boards')" if opened < boards else "")
        raise GameError(
            f"{quoted(word)}: {len(parts)} colour group(s) for {boards} boards: give {expected}, "
            f"separated by /, {SOLVED_MARK} for a solved board, e.g. "
            + "/".join(["gybbb"] * min(boards, 4))
        )
    feedbacks: list[str | None] = []
    for board, (part, is_open) in enumerate(zip(parts, open_boards, strict=True), start=1):
        if not is_open:  # whatever was typed for it, a solved board has no colours
            feedbacks.append(None)
            continue
        if part == SOLVED_MARK:
            raise GameError(f"board {board} is not solved yet: give its colours")
        try:
            feedbacks.append(parse_feedback(part, len(word)))
        except ValueError as error:
            raise GameError(f"board {board}: {error}") from None
    return feedbacks


@dataclass
class MultiGame:
    solver: MultiSolver
    top: int = 5
    history: MultiHistory = field(default_factory=list)
    # Solvers for other modes: without it the game neither widens nor switches modes.
    solvers: MultiSolverFor | None = None
    # True once a board's feedback has left the answer list (the blind solver in use).
    widened: bool = field(default=False, init=False)
    _advice: MultiAdvice | None = field(default=None, init=False, repr=False)

    @property
    def boards(self) -> int:
        return self.solver.boards

    @property
    def max_guesses(self) -> int:
        return self.solver.max_guesses

    @property
    def advice(self) -> MultiAdvice:
        if self._advice is None:
            self._advice, self.widened = self._advise(self.history)
        return self._advice

    def open_boards(self) -> list[bool]:
        """Whether each board, in order, is still open (no guess has solved it)."""
        solved = [False] * self.boards
        for _guess, feedbacks in self.history:
            for board, feedback in enumerate(feedbacks):
                solved[board] |= feedback is not None and is_solved(feedback)
        return [not done for done in solved]

    @property
    def solved(self) -> bool:
        return not any(self.open_boards())

    @property
    def lost(self) -> bool:
        """Every guess the game allows played with a board still open: the game is over."""
        return len(self.history) >= self.max_guesses and not self.solved

    @property
    def over(self) -> bool:
        return self.solved or self.lost

    def _advise(self, history: MultiHistory) -> tuple[MultiAdvice, bool]:
        from epdle.solver.multi import MultiHistoryError

        try:
            return self.solver.advise(history, top=self.top), False
        except MultiHistoryError as error:
            if self.solvers is None or self.solver.blind:
                raise GameError(str(error)) from None
        try:  # a board's feedback left the answer list, or the history is wrong for any
            return self.solvers(self.solver.hard, True).advise(history, top=self.top), True
        except MultiHistoryError as error:
            raise GameError(str(error)) from None

    def play_colours(self, guess: str, colours: str) -> MultiAdvice:
        """play() with the colours as typed: 'gybbb/bbbbb/-/ggggg'."""
        return self.play(guess, parse_colours(guess, colours, self.open_boards()))

    def play(self, guess: str, feedbacks: Sequence[str | None]) -> MultiAdvice:
        """Add a played guess (None for a solved board); GameError, game unchanged, if it
        cannot be."""
        if self.solved:
            raise GameError("this game is solved: type 'new' to start another")
        if self.lost:
            raise GameError(
                f"this game is over: all {self.max_guesses} guesses are played; "
                "type 'new' to start another"
            )
        guess = self.solver.universe.lang.fold(guess)
        candidate = [*self.history, (guess, list(feedbacks))]
        advice, widened = self._advise(candidate)
        self.history = candidate
        self._advice, self.widened = advice, widened
        return advice

    def undo(self) -> MultiAdvice:
        if not self.history:
            raise GameError("nothing to undo")
        self.history = self.history[:-1]
        self._advice = None
        return self.advice

    def new(self) -> MultiAdvice:
        self.history = []
        self._advice = None
        return self.advice

    def switch(self, hard: bool | None = None, blind: bool | None = None) -> MultiAdvice:
        """Go on under other rules; the history is replayed. GameError, game unchanged, if
        it cannot be (a guess breaks hard mode on a board)."""
        if self.solvers is None:
            raise GameError("this game cannot change modes")
        hard = self.solver.hard if hard is None else hard
        blind = self.solver.blind if blind is None else blind
        replay = MultiGame(self.solvers(hard, blind), self.top, list(self.history), self.solvers)
        try:
            advice = replay.advice
        except GameError as error:
            raise GameError(f"cannot switch: {error}") from None
        self.solver, self.widened, self._advice = replay.solver, replay.widened, advice
        return advice
