"""The frames the device should hold for a game: one per suggestion, or a status card
(and the review, once the game is over)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from epdle.render.planes import Planes
from epdle.render.suggestions import StatusKind, render_advice, render_status
from epdle.session.review import review_frame
from epdle.solver import names

if TYPE_CHECKING:
    from epdle.session.boards import MultiGame
    from epdle.session.one_board import Game


def panel_mode(game: Game | MultiGame) -> str:
    """The game's mode as the panel's header says it (names.panel_mode)."""
    history = getattr(getattr(game.solver, "universe", None), "history", None)
    behind = None if history is None else history.days_behind
    return names.panel_mode(game.solver.hard, game.solver.blind, game.widened, behind)


def frames_for(game: Game) -> list[Planes]:
    """The turn's frames; a finished game's end card is followed by its review."""
    if game.lost:
        frames = [render_status(StatusKind.LOST, game.history, game.advice.candidates)]
    else:
        frames = render_advice(game.history, game.advice, game.top, panel_mode(game))
    review = review_frame(game)
    return frames if review is None else [*frames, review]
