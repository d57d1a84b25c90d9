"""The last guess: suggest, play, the daemon and the panel offer only words that can win."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

from rich.console import Console

from epdle.cli import main
from epdle.render.suggestions import render_advice
from epdle.session.one_board import Game
from epdle.session.screens import frames_for
from epdle.solver import Advice, Solver
from epdle.solver.ranking.book import suggestion

PLAYED = ["light", "might", "night", "fight", "sight"]  # all BGGGG: one guess left
LEFT = ["eight", "right", "tight", "wight"]
HISTORY = ",".join(f"{word}:bgggg" for word in PLAYED)
UNIFORM = ("--prior", "uniform")  # the 2023 list's game, whose words left are LEFT


def test_suggest_offers_only_the_words_left(capsys) -> None:
    assert main(["suggest", "--history", HISTORY, "--json", *UNIFORM]) == 0
    shown = [s["word"] for s in json.loads(capsys.readouterr().out)["suggestions"]]
    assert shown == LEFT


def test_play_offers_only_the_words_left(tmp_path: Path, monkeypatch) -> None:
    script = "".join(f"{word} bgggg\n" for word in PLAYED) + "quit\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    output = io.StringIO()
    monkeypatch.setattr(
        "rich.console.Console", lambda: Console(file=output, width=120, color_system=None)
    )
    assert main(["play", "--top", "5", "--panel-dir", str(tmp_path), *UNIFORM]) == 0
    last_table = output.getvalue().split("SIGHT")[-1]
    assert all(word.upper() in last_table for word in LEFT)
    assert "ARETT" not in last_table and "BOWER" not in last_table


def test_the_daemon_offers_only_the_words_left(tmp_path: Path, caplog) -> None:
    feed = tmp_path / "feed.txt"
    feed.write_text("".join(f"{word} bgggg\n" for word in PLAYED))
    caplog.set_level(logging.INFO)
    assert main(["daemon", "--port", "sim://", "--feed", str(feed), "--top", "5", *UNIFORM]) == 0
    messages = [record.getMessage() for record in caplog.records]
    last = [m for m in messages if m.startswith("4 candidate(s) left; next: ")]
    assert last and last[-1].split("next: ")[1].lower().split(", ") == LEFT


def test_the_panel_shows_a_word_that_can_win() -> None:
    game = Game(Solver(), top=5)
    for word in PLAYED:
        game.play(word, "BGGGG")
    # The frame as it looks for the words left, ranked as the Solver ranks them.
    words_left = Advice(4, False, [suggestion(word, LEFT) for word in LEFT], LEFT)
    expected = render_advice(game.history, words_left, 5, "")
    shown = frames_for(game)
    assert shown == expected
