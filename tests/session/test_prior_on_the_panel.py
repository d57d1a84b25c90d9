"""The panel says the prior a game of today is played under, and how old its history is,
in the header's mode where it fits: 'history' while the history is up to date, 'history
-10d' when it misses ten days; a game under another prior does not name one."""

from __future__ import annotations

import pytest

from epdle.render.suggestions import render_advice
from epdle.session.one_board import Game
from epdle.session.screens import frames_for, panel_mode
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec


def _game(monkeypatch, today: str, **settings) -> Game:
    monkeypatch.setenv("EPDLE_TODAY", today)
    game = GameSetup(GameSpec(top=2, **settings)).new_game()
    assert isinstance(game, Game)
    return game


@pytest.mark.parametrize(
    ("today", "hard", "mode"),
    [
        ("2026-08-22", False, "history"),
        ("2026-09-01", False, "history -10d"),  # the answers of 2026-08-22..31 missing
        ("2026-09-01", True, "hard, history -10d"),
    ],
)
def test_the_frames_say_the_history_prior_and_its_age(monkeypatch, today, hard, mode) -> None:
    game = _game(monkeypatch, today, prior="history", hard=hard)
    game.play("salet", "BBYBB")
    assert panel_mode(game) == mode
    frames = frames_for(game)
    assert frames == render_advice(game.history, game.advice, game.top, mode)
    # The line is on the glass: the frames without it differ.
    assert frames[0] != render_advice(game.history, game.advice, game.top, "hard" * hard)[0]


def test_a_uniform_game_names_no_prior(monkeypatch) -> None:
    game = _game(monkeypatch, "2026-09-01")
    game.play("salet", "BBYBB")
    assert panel_mode(game) == ""
