"""Parsing a multi-board history: 'salet:BBYBB/GBBBB/-/YBBBG,crane:...' (numpy-free)."""

from __future__ import annotations

from epdle.solver.scoring import (
    EXTRA_GUESSES,
    MAX_BOARDS,
    history_entries,
    is_solved,
    parse_feedback,
)

# Marks a board already solved by an earlier guess.
SOLVED_MARK = "-"

MultiHistory = list[tuple[str, list[str | None]]]


class MultiHistoryError(ValueError):
    """A multi-board history that cannot be right: the message names the entry."""


def guess_limit(boards: int) -> int:
    """Guesses the game allows for `boards` boards."""
    return boards + EXTRA_GUESSES


def check_boards(boards: int) -> int:
    if not isinstance(boards, int) or not 1 <= boards <= MAX_BOARDS:
        raise ValueError(f"boards must be a whole number from 1 to {MAX_BOARDS}, not {boards!r}")
    return boards


def parse_multi_history(text: str, boards: int) -> MultiHistory:
    """Parse 'salet:BBYBB/GBBBB,crane:-/YBBBG' into [(guess, [feedback or None, ...]), ...].

    Entries are separated by commas (or semicolons / new lines); each is `word:` and
    one feedback per board in board order, separated by `/`; `-` for a board an earlier
    guess solved. Feedback is normalised to G/Y/B. Raises MultiHistoryError naming the entry.
    """
    check_boards(boards)
    history: MultiHistory = []
    solved_by: list[int | None] = [None] * boards
    entries = history_entries(text, "feedback/feedback/...", MultiHistoryError)
    for _, where, word, rest in entries:
        if len(history) >= guess_limit(boards):
            raise MultiHistoryError(
                f"{where}: {boards} boards allow {guess_limit(boards)} guesses, this is one more"
            )
        parts = [part.strip() for part in rest.split("/")]
        if len(parts) != boards:
            raise MultiHistoryError(
                f"{where}: {len(parts)} feedbacks, expected {boards} (one per board, "
                f"separated by /; {SOLVED_MARK} for a solved board)"
            )
        marks: list[str | None] = []
        for board, part in enumerate(parts):
            solved = solved_by[board]
            if part == SOLVED_MARK:
                if solved is None:
                    raise MultiHistoryError(
                        f"{where}: board {board + 1} is marked {SOLVED_MARK} (solved) "
                        "but no earlier guess solved it"
                    )
                marks.append(None)
                continue
            if solved is not None:
                raise MultiHistoryError(
                    f"{where}: board {board + 1} was solved by guess {solved}: "
                    f"give {SOLVED_MARK} for it"
                )
            try:
                feedback = parse_feedback(part, len(word))
            except ValueError as error:
                raise MultiHistoryError(f"{where}: board {board + 1}: {error}") from None
            if is_solved(feedback):
                solved_by[board] = len(history) + 1
            marks.append(feedback)
        if all(mark is None for mark in marks):
            raise MultiHistoryError(f"{where}: every board was already solved")
        history.append((word, marks))
    return history
