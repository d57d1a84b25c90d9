"""A game of several boards (Dordle, Quordle, Octordle): each guess is played on every
board still open, and the game gives one colour line per board.

The game ends when every board is solved, or lost at the guess limit (boards + 5) with
each open board's candidates left. As the single game does, it goes on with every
accepted word when the feedback leaves its answer list, and can switch hard
mode and blind play during a game (the history is replayed under the new rules).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from epdle.session.game import GameBase, GameError
from epdle.solver.multi.history import SOLVED_MARK
from epdle.solver.scoring import is_solved, parse_feedback, quoted

if TYPE_CHECKING:
    from epdle.session.spec import GameSpec
    from epdle.solver.multi import MultiAdvice, MultiSolver
    from epdle.solver.universe import Universe

# (hard, blind) -> a solver of the same words and boards (the caller keeps them).
MultiSolverFor = Callable[[bool, bool], "MultiSolver"]
# A guess and its feedback on each board, in order (None: the board was solved before).
MultiTurn = tuple[str, list[str | None]]


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


class MultiGame(GameBase["MultiSolver", "MultiAdvice", "MultiTurn"]):
    """Several boards' game: boards + 5 guesses, each played on every open board."""

    @staticmethod
    def solver_of(
        spec: GameSpec, universe: Universe, progress: Callable[[int, int], None] | None = None
    ) -> MultiSolver:
        """The solver this game plays with under `spec`, over `universe` (GameSetup makes
        and keeps both)."""
        return spec.multi_solver(universe)

    @property
    def boards(self) -> int:
        return self.solver.boards

    @property
    def max_guesses(self) -> int:
        return self.solver.max_guesses

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

    def _history_error(self) -> type[ValueError]:
        from epdle.solver.multi import MultiHistoryError

        return MultiHistoryError

    def play_colours(self, guess: str, colours: str) -> MultiAdvice | None:
        """play() with the colours as typed: 'gybbb/bbbbb/-/ggggg'."""
        return self.play(guess, parse_colours(guess, colours, self.open_boards()))

    def play(self, guess: str, feedbacks: Sequence[str | None]) -> MultiAdvice | None:
        """Add a played guess (None for a solved board); GameError, game unchanged, if it
        cannot be."""
        return self._play(lambda word: (word, list(feedbacks)), guess)
