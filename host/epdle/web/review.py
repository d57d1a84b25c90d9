"""`POST /api/review`: a game from the request's body, reviewed by the page's game's solvers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from epdle.session.one_board import Game
from epdle.session.review import ReviewError, game_review, grid_history, review_as_played
from epdle.solver.scoring import parse_history

MAX_TURNS = 12  # more rows than any game has
ONE_BOARD_ONLY = "a review covers a one-board game: run epdle web without --boards"


@dataclass(frozen=True)
class ReviewReply:
    value: dict[str, object] | None = None
    error: str | None = None
    status: int = 200


def history_of(body: dict[str, Any]) -> list[tuple[str, str]]:
    """The game a request names (ValueError: a one-line message for a 400)."""
    unknown = set(body) - {"history", "grid", "words"}
    if unknown:
        raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
    history, grid, words = body.get("history"), body.get("grid"), body.get("words")
    if (history is None) == (grid is None) or (grid is None) != (words is None):
        raise ValueError('send {"history": [...]} or {"grid": "...", "words": "..."}')
    if isinstance(history, list):
        if not all(isinstance(t, dict) and set(t) == {"word", "colours"} for t in history):
            raise ValueError('each turn of the history is {"word": ..., "colours": ...}')
        if not all(isinstance(t["word"], str) and isinstance(t["colours"], str) for t in history):
            raise ValueError("a turn's word and colours are strings")
        history = ",".join(f"{turn['word']}:{turn['colours']}" for turn in history)
    if isinstance(history, str):
        turns = parse_history(_with_colons(history))
    elif isinstance(grid, str) and isinstance(words, str):
        turns = grid_history(grid, [w for w in words.replace(",", " ").split() if w])
    else:
        raise ValueError("the history, grid and words are text (the history may be a list)")
    if not turns:
        raise ValueError("the game has no guesses")
    if len(turns) > MAX_TURNS:
        raise ValueError(f"a game has at most {MAX_TURNS} guesses, this one {len(turns)}")
    return turns


def _with_colons(text: str) -> str:
    """'crane gybbb' lines (as `play` takes them) as 'crane:gybbb' entries."""
    entries = text.replace(";", "\n").replace(",", "\n").splitlines()
    return ",".join(":".join(e.split(None, 1)) if ":" not in e else e for e in entries)


def review_request(body: dict[str, Any], game: object) -> Callable[[], ReviewReply]:
    """The review of the body's game, to run where the game's solvers are used: the page's
    own game in its mode, another in the mode its moves show (review_as_played). A page of
    several boards has no one-board solver to review with: its answer is a 422."""
    history = tuple(history_of(body))

    def run() -> ReviewReply:
        if not isinstance(game, Game):
            return ReviewReply(error=ONE_BOARD_ONLY, status=422)
        try:
            if list(history) == list(game.history):
                review = game_review(history, game.solver, game.solvers)
            else:
                review = review_as_played(list(history), game.solver, game.solvers)
        except ReviewError as problem:
            return ReviewReply(error=str(problem), status=422)
        return ReviewReply(value=review.as_json())

    return run
