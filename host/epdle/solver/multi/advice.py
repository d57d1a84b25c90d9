"""What the multi-board solver answers for a turn: plain value classes."""

from __future__ import annotations

from epdle.solver.advice import Value


class MultiSuggestion(Value):
    __slots__ = ("board_guesses", "expected_guesses", "solves", "word")

    def __init__(
        self,
        word: str,
        expected_guesses: float,
        solves: tuple[int, ...],
        board_guesses: float | None = None,
    ) -> None:
        self.word = word
        # Expected total guesses of the game (those played included) to finish every board
        # if this word is played next: the solver's estimate.
        self.expected_guesses = expected_guesses
        self.solves = solves  # the boards (0-based) it may solve now: it is a candidate there
        # What it is ranked by: the guesses each open board would still need on its own
        # after it, summed (None: ranked by expected_guesses, the endgame's exact search).
        self.board_guesses = board_guesses


class BoardAdvice(Value):
    __slots__ = ("candidates", "candidates_left", "solved_in")

    def __init__(self, solved_in: int | None, candidates_left: int, candidates: list[str]) -> None:
        self.solved_in = solved_in  # the guess (1-based) that solved it, None while open
        self.candidates_left = candidates_left  # 1 once solved (its answer)
        self.candidates = candidates  # likeliest first (<= 100); once solved, its answer

    @property
    def answer(self) -> str | None:
        """The board's word once solved (None while open)."""
        return self.candidates[0] if self.solved_in is not None and self.candidates else None


class MultiAdvice(Value):
    __slots__ = ("boards", "guesses_left", "guesses_used", "lost", "solved", "suggestions")

    def __init__(
        self,
        suggestions: list[MultiSuggestion],
        boards: list[BoardAdvice],
        guesses_used: int,
        guesses_left: int,
        solved: bool,
        lost: bool,
    ) -> None:
        self.suggestions = suggestions  # best first; empty once the game is over
        self.boards = boards  # in board order
        self.guesses_used = guesses_used
        self.guesses_left = guesses_left
        self.solved = solved  # every board solved
        self.lost = lost  # the guesses ran out with a board open
