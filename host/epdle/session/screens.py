"""The frames the device should hold for a game: one per suggestion, or a status card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from epdle.render.planes import Planes
from epdle.render.suggestions import StatusKind, render_advice, render_status

if TYPE_CHECKING:
    from epdle.session.game import Game
    from epdle.session.multigame import MultiGame


def panel_mode(game: Game | MultiGame) -> str:
    """The game's rules as the panel's header says them: "hard", "all words" (every
    accepted word, not the original list), both, or nothing."""
    parts = ["hard"] if game.solver.hard else []
    if game.widened or game.solver.blind:
        parts.append("all words")
    return ", ".join(parts)


def frames_for(game: Game) -> list[Planes]:
    if game.lost:
        return [render_status(StatusKind.LOST, game.history, game.advice.candidates)]
    return render_advice(game.history, game.advice, game.top, panel_mode(game))
