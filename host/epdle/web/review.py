"""`POST /api/review`: a game from the request's body, reviewed by the page's game's solvers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from epdle.session.review import ReviewError, grid_history

MAX_TURNS = 37  # more rows than any game has (32 boards and 5)


@dataclass(frozen=True)
class ReviewReply:
    value: dict[str, object] | None = None
    error: str | None = None
    status: int = 200


def history_of(body: dict[str, Any], game: Any) -> list[Any]:
    """The game a request names, read as `game`'s kind reads a history (ValueError: a
    one-line message for a 400)."""
    unknown = set(body) - {"history", "grid", "words"}
    if unknown:
        raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
    history, grid, words = body.get("history"), body.get("grid"), body.get("words")
    if (history is None) == (grid is None) or (grid is None) != (words is None):
        raise ValueError('send {"history": [...]} or {"grid": "...", "words": "..."}')
    if isinstance(history, list):
        if not all(isinstance(t, dict) and set(t) == {"word", "colours"} for t in history):
            raise ValueError('each turn of the history is {"word": ..., "colours": ...}')
        if not all(isinstance(t["word"], str) and _colours(t["colours"]) for t in history):
            raise ValueError(
                "a turn's word and colours are strings (several boards: a list, null for a "
                "board solved before)"
            )
        history = ",".join(f"{turn['word']}:{_colours(turn['colours'])}" for turn in history)
    if isinstance(history, str):
        turns: list[Any] = game.read_history(_with_colons(history), game.boards)
    elif isinstance(grid, str) and isinstance(words, str):
        turns = grid_history(grid, [w for w in words.replace(",", " ").split() if w])
    else:
        raise ValueError("the history, grid and words are text (the history may be a list)")
    if not turns:
        raise ValueError("the game has no guesses")
    if len(turns) > MAX_TURNS:
        raise ValueError(f"a game has at most {MAX_TURNS} guesses, this one {len(turns)}")
    return turns


def _colours(colours: object) -> str:
    """A turn's colours as a history gives them: one board's, or each board's as the
    page's state has them (a list, None for a board solved before) joined by '/' ('' if
    neither)."""
    if isinstance(colours, str):
        return colours
    if isinstance(colours, list) and all(c is None or isinstance(c, str) for c in colours):
        return "/".join("-" if c is None else c for c in colours)
    return ""


def _with_colons(text: str) -> str:
    """'crane gybbb' lines (as `play` takes them) as 'crane:gybbb' entries."""
    entries = text.replace(";", "\n").replace(",", "\n").splitlines()
    return ",".join(":".join(e.split(None, 1)) if ":" not in e else e for e in entries)


def review_request(body: dict[str, Any], game: Any) -> Callable[[], ReviewReply]:
    """The review of the body's game, to run where the game's solvers are used, by the
    page's game (one board's or several boards'): its own game in its mode, another in the
    mode its moves show."""
    history = history_of(body, game)

    def run() -> ReviewReply:
        try:
            review = game.review(history)
        except ReviewError as problem:
            return ReviewReply(error=str(problem), status=422)
        return ReviewReply(value=review.as_json())

    return run
