"""How a game of several boards looks in the terminal: each guess with its colours on
every board, each board's state, and the ranked suggestions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from epdle.session.terminal import (
    BOARDS_SUM,
    MULTI_RANKED_BY,
    TILE_STYLES,
    boards_sum,
    columns_text,
    mode_text,
    plural,
)
from epdle.words.languages import display_word

if TYPE_CHECKING:
    from epdle.session.multigame import MultiGame
    from epdle.solver.multi import BoardAdvice

SHOWN_WORDS = 5  # of an open board's candidates, in a summary line


def boards_text(game: MultiGame, coloured: bool = True) -> Text:
    """One line per guess: the word, then its colours on each board in order (a board
    already solved left blank; piped, as G/Y/B letters and '-')."""
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


def boards_summary(game: MultiGame) -> str:
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
