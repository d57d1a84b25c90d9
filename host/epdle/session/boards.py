"""A game of several boards (Dordle, Quordle, Octordle), the kind GameSetup chooses for
several boards, with one board's names (epdle.session.one_board): each guess is played on
every board still open, and the game gives one colour line per board; its played line
gives one colour group per board ('crane gybbb/bbbbb/-/ggggg'); its frames, and how it
looks in the terminal (each guess with its colours on every board, each board's state,
the ranked suggestions), the daemon's log and the page.

The game ends when every board is solved, or lost at the guess limit (boards + 5) with
each open board's candidates left. As the single game does, it goes on with every
accepted word when the feedback leaves its answer list, and can switch hard
mode and blind play during a game (the history is replayed under the new rules).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from epdle.session.commands import HELP_TEXT, InputError
from epdle.session.game import GameBase, GameError, language_state
from epdle.session.terminal import (
    BOARDS_SUM,
    MULTI_RANKED_BY,
    TILE_STYLES,
    boards_sum,
    columns_text,
    mode_text,
    plural,
    prior_state,
)
from epdle.solver.multi.history import SOLVED_MARK
from epdle.solver.scoring import is_solved, parse_feedback, quoted
from epdle.words.languages import display_word
from epdle.words.named import list_name

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from epdle.render.planes import Planes
    from epdle.session.review import BoardsTurnReview, Review
    from epdle.session.spec import GameSpec
    from epdle.solver.multi import BoardAdvice, MultiAdvice, MultiHistory, MultiSolver
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

    def played_line(self, line: str) -> tuple[str, str] | None:
        parts = [part for part in _SPLIT.split(line.strip()) if part]
        if len(parts) >= 2 and "/" in line:
            # 'crane gybbb/bbbbb', also with spaces around the slashes; no command has a
            # slash, so a guess such as BLIND is a guess here
            return parts[0], "".join(parts[1:])
        return None  # one group of colours: the one open board's

    def move(self, word: str, colours: str) -> tuple[str, Callable[[], object]]:
        guess = word.strip().lower()
        if not guess.isalpha():
            raise InputError(f"guess {quoted(word)} must be letters only")
        return guess, lambda: self.play_colours(guess, colours)

    def candidates_notes(self) -> list[str]:
        return boards_candidates_text(self)

    def frames(self) -> list[Planes]:
        """The turn's frames; a finished game's end card is followed by its review card."""
        from epdle.render.multi import render_multi
        from epdle.session.screens import panel_mode

        frames = render_multi(self.advice, self.top, panel_mode(self))
        if not self.over:
            return frames
        from epdle.session.review import ReviewError

        try:  # a finished game's end card is followed by its review, as one board's
            card = self.review_planes(self.review(self.history))
        except (ReviewError, ValueError):  # no review, or more rows than the card shows
            return frames
        return [*frames, card]

    def help_text(self) -> str:
        return multi_help()

    def show(self, console: Console) -> None:
        show_game(console, self)

    def summary(self) -> str:
        return game_summary(self)

    @staticmethod
    def read_history(text: str, boards: int) -> MultiHistory:
        """A game of `boards` boards as `suggest --boards N` takes it,
        'salet:GBYBB/BBBBB/-/...,...' (ValueError: a one-line message)."""
        from epdle.solver.multi import parse_multi_history

        return parse_multi_history(text, boards)

    def review(
        self, history: Sequence[MultiTurn], normal: bool = False
    ) -> Review[BoardsTurnReview]:
        """The review of this game (`history` its own) in its mode, or of another game in
        the mode its moves show; ReviewError if it cannot be."""
        from epdle.session.review import ReviewError, boards_review_as_played

        if any(isinstance(feedbacks, str) for _, feedbacks in history):
            raise ReviewError(
                f"a shared grid is one board's game: give each guess's colours on the "
                f"{self.boards} boards"
            )
        turns = [(guess, list(feedbacks)) for guess, feedbacks in history]
        own = turns == [(guess, list(feedbacks)) for guess, feedbacks in self.history]
        return boards_review_as_played(turns, self.solver, self.solvers, normal or own)

    @staticmethod
    def review_planes(review: Review[Any]) -> Planes:
        """The device's frame of a review (ValueError: more rows than the panel shows)."""
        from epdle.session.review import boards_review_planes

        return boards_review_planes(review)

    @property
    def strategy_name(self) -> str:
        return MULTI_STRATEGY

    def strategy_refusal(self, strategy: str | None) -> str | None:
        if strategy in (None, MULTI_STRATEGY):
            return None
        return f"a game of several boards plays one strategy ({MULTI_STRATEGY})"

    def switch_settings(
        self, strategy: str, hard: bool, blind: bool, modes: Callable[[str], Any]
    ) -> None:
        self.switch(hard=hard, blind=blind)  # one strategy: the game's own solvers

    def page_state(self) -> dict[str, Any]:
        advice, solver = self.advice, self.solver
        return {
            "boards": self.boards,
            "history": [{"word": word, "colours": marks} for word, marks in self.history],
            "solved": self.solved,
            "lost": self.lost,  # the guesses ran out with a board open: the game is over
            "widened": self.widened,
            "answer_list": list_name(self.lists),
            **prior_state(solver.universe),
            "length": solver.universe.length,
            "language": language_state(solver.universe),
            "max_guesses": self.max_guesses,
            "board_states": [
                {
                    "solved_in": board.solved_in,
                    "candidates_left": board.candidates_left,
                    "candidates": board.candidates[:LISTED],
                }
                for board in advice.boards
            ],
            "suggestions": [
                {
                    "word": suggestion.word,
                    "expected_guesses": round(suggestion.expected_guesses, 2),
                    # the open boards' guesses summed, that it ranks by (None: an exact
                    # search near the end ranks by the expected guesses)
                    "board_guesses": None
                    if suggestion.board_guesses is None
                    else round(suggestion.board_guesses, 2),
                    "solves": [board + 1 for board in suggestion.solves],
                }
                for suggestion in advice.suggestions
            ],
            "settings": {
                "strategy": MULTI_STRATEGY,
                "hard": solver.hard,
                "blind": solver.blind,
                "top": self.top,
            },
            "strategies": [MULTI_STRATEGY],
        }


# What the page's strategy list names the several-board search.
MULTI_STRATEGY = "boards"
# Of each board's candidates, the page lists the likeliest this many.
LISTED = 30

MULTI_HELP = """\
  <guess> <colours>   what you played and each board's colours, in board order,
                      separated by /, - for a board already solved, e.g.
                        crane gybbb/bbbbb/-/ggyyb
                        crane 21000/00000/-/22110
                      (G/2 green, Y/1 yellow, B/0 grey; the open boards' alone will do)"""


def multi_help() -> str:
    """The commands' help with the played line of several boards."""
    return MULTI_HELP + HELP_TEXT[HELP_TEXT.index("\n  undo") :]


_SPLIT = re.compile(r"[\s:=,]+")


SHOWN_WORDS = 5  # of an open board's candidates, in a summary line


def boards_text(game: MultiGame, coloured: bool = True) -> Text:
    """One line per guess: the word, then its colours on each board in order (a board
    already solved left blank; piped, as G/Y/B letters and '-')."""
    from rich.text import Text  # here: importing the game loads no rich

    text = Text()
    for guess, feedbacks in game.history:
        word = display_word(guess)
        text.append(f"{word}  ")
        for board, feedback in enumerate(feedbacks):
            text.append("  " if board else "")
            if feedback is None:
                text.append(" " * len(word) if coloured else "-")
            elif not coloured:
                text.append(feedback)
            else:
                for letter, colour in zip(word, feedback, strict=True):
                    text.append(letter, style=TILE_STYLES[colour])
        text.append("\n")
    return text


def board_line(number: int, board: BoardAdvice) -> str:
    """One board's state: solved in which guess, or the words it has left."""
    if board.solved_in is not None:
        return f"board {number}: solved in {board.solved_in} ({board.candidates[0].upper()})"
    words = " ".join(word.upper() for word in board.candidates[:SHOWN_WORDS])
    more = board.candidates_left - min(len(board.candidates), SHOWN_WORDS)
    return f"board {number}: {plural(board.candidates_left, 'word')} left: {words}" + (
        f" ... and {more} more" if more > 0 else ""
    )


def boards_candidates_text(game: MultiGame) -> list[str]:
    """Every board's state, a line each."""
    return [board_line(number, board) for number, board in enumerate(game.advice.boards, 1)]


def advice_text(game: MultiGame) -> str:
    """The boards' states and the ranked guesses, under a line saying the guesses left."""
    advice = game.advice
    heading = (
        f"guess {advice.guesses_used + 1} of {game.max_guesses} ({mode_text(game)}); "
        f"{plural(sum(board.solved_in is None for board in advice.boards), 'board')} open"
    )
    rows = [("#", "guess", "could win board", BOARDS_SUM, "expected guesses")]
    for rank, suggestion in enumerate(advice.suggestions, start=1):
        solves = " ".join(str(board + 1) for board in suggestion.solves)
        word = display_word(suggestion.word)
        expected = f"{suggestion.expected_guesses:.2f}"
        rows.append((str(rank), word, solves, boards_sum(suggestion), expected))
    states = boards_candidates_text(game) if game.history else []
    table = columns_text(rows, (str.rjust, str.ljust, str.rjust, str.rjust, str.rjust))
    return "\n".join([heading, *states, f"ranked by {MULTI_RANKED_BY}", table])


def end_text(game: MultiGame) -> str:
    """The game's end: solved in how many, or what each open board still had left."""
    if game.solved:
        return f"All {game.boards} boards solved in {len(game.history)}!"
    open_boards = [
        board_line(number, board)
        for number, board in enumerate(game.advice.boards, 1)
        if board.solved_in is None
    ]
    return f"Not solved in {len(game.history)}: " + "; ".join(open_boards) + "."


def show_game(console: Console, game: MultiGame) -> None:
    """The boards so far, then the advice or the game's end."""
    if game.history:
        console.print(boards_text(game, console.color_system is not None))
    if game.solved:
        console.print(f"[green]{end_text(game)}[/green] 'new' for another game.", highlight=False)
    elif game.lost:
        console.print(f"[red]{end_text(game)}[/red] 'new' for another game.", highlight=False)
    else:
        console.print(advice_text(game), highlight=False, markup=False)


def game_summary(game: MultiGame) -> str:
    """The game in one line, as the daemon logs it."""
    if game.over:
        return end_text(game)
    advice = game.advice
    states = ", ".join(
        f"in {board.solved_in}" if board.solved_in is not None else str(board.candidates_left)
        for board in advice.boards
    )
    words = ", ".join(suggestion.word for suggestion in advice.suggestions)
    return f"guess {len(game.history) + 1} of {game.max_guesses}; boards: {states}; next: {words}"
