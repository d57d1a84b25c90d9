"""`epdle daemon` keeps up with a feed faster than the device: it reads at most
FEED_BACKLOG lines ahead of the game, and pushes the advice once the lines read so far
are played, not after every line."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from epdle.cli import main
from epdle.session import daemon
from epdle.session.controller import Outcome
from epdle.session.daemon import FEED_BACKLOG, Daemon

# The 2023 list's game (its candidate counts below).
ARGS = ["--port", "sim://", "--strategy", "entropy", "--top", "2", "--prior", "uniform"]


def test_a_burst_of_lines_is_pushed_once_played(tmp_path: Path, caplog) -> None:
    feed = tmp_path / "feed.txt"
    feed.write_text("salet bybbb\ncrony 21000\nnew\n" * 30 + "salet bybbb\n")
    caplog.set_level(logging.INFO)
    assert main(["daemon", "--feed", str(feed), *ARGS]) == 0
    messages = [record.getMessage() for record in caplog.records]
    pushes = [i for i, m in enumerate(messages) if m.startswith("pushed ")]
    assert 1 <= len(pushes) <= 3  # not 91
    # The last push came after the last line: the device holds the game's last advice.
    last_line = max(i for i, m in enumerate(messages) if "candidate(s) left" in m)
    assert pushes[-1] > last_line
    assert "145 candidate(s) left" in messages[last_line]  # SALET BYBBB, the 2023 list


class _Presenter:
    def poll_events(self, timeout: float = 0.0) -> list[object]:
        return []

    def take_reconnected(self) -> bool:
        return False

    def close(self) -> None:
        pass


class _SlowController:
    """Plays a line only once the test lets it; notes how far the reader got ahead."""

    def __init__(self, read: list[int]) -> None:
        self.presenter = _Presenter()
        self.game = SimpleNamespace(defer_advice=False)
        self.defer_pushes = False
        self.read = read
        self.played = 0
        self.ahead: list[int] = []
        self.release = threading.Event()

    def start(self) -> Outcome:
        return Outcome()

    def catch_up(self) -> Outcome:
        return Outcome()

    def handle(self, line: str) -> Outcome:
        assert self.release.wait(30)
        self.played += 1
        self.ahead.append(self.read[0] - self.played)
        return Outcome()


def test_the_reader_stays_at_most_a_backlog_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    read = [0]
    total = 20 * FEED_BACKLOG

    def lines(feed: str) -> Iterator[str]:
        for number in range(total):
            read[0] = number + 1
            yield f"line {number}\n"

    monkeypatch.setattr(daemon, "_feed_lines", lines)
    controller = _SlowController(read)
    runner = Daemon(controller, "feed")  # type: ignore[arg-type]
    done = threading.Thread(target=runner.run)
    done.start()
    # The reader fills the backlog while the first line waits to be played (bounded).
    pause = threading.Event()
    for _ in range(3000):
        if read[0] >= FEED_BACKLOG + 1:
            break
        pause.wait(0.01)
    controller.release.set()
    done.join(60)
    assert controller.played == total
    # One line being played, FEED_BACKLOG waiting, one more read and waiting for room.
    assert max(controller.ahead) <= FEED_BACKLOG + 1


def test_a_feed_of_new_games_scores_the_opening_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each `new` shows the same opening suggestions over every answer: scored once, not
    once per game (a feed of thousands of games spent most of its time there)."""
    from epdle.solver.ranking import book

    calls = [0]
    scored = book.feedback

    def counted(guess: str, answer: str) -> str:
        calls[0] += 1
        return scored(guess, answer)

    book._suggestion.cache_clear()
    monkeypatch.setattr(book, "feedback", counted)
    feed = tmp_path / "feed.txt"
    games = 50
    feed.write_text("new\n" * games)
    assert (
        main(
            ["daemon", "--feed", str(feed), "--port", "sim://", "--top", "5", "--prior", "uniform"]
        )
        == 0
    )
    one_opening = 5 * len(book.shipped_lists()[1])  # five suggestions over every answer
    assert 0 < calls[0] <= 2 * one_opening


def test_a_backlog_is_checked_line_by_line_and_advised_once(
    tmp_path: Path, caplog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines that other lines already follow are checked (a guess that contradicts the game
    is still an error, logged) but not advised: the advice is worked out for the position
    the backlog ends in."""
    from epdle.solver.engine import Solver

    advised = [0]
    advise = Solver.advise

    def counted(self: Solver, history, top: int = 5):
        advised[0] += 1
        return advise(self, history, top)

    monkeypatch.setattr(Solver, "advise", counted)
    feed = tmp_path / "feed.txt"
    games = 30
    feed.write_text("salet bybbb\nsalet bbbbb\ncrony 21000\nnew\n" * games + "salet bybbb\n")
    caplog.set_level(logging.INFO)
    assert main(["daemon", "--feed", str(feed), *ARGS]) == 0
    messages = [record.getMessage() for record in caplog.records]
    contradicted = [m for m in messages if m.startswith("'salet bbbbb'") or "salet bbbbb:" in m]
    assert len(contradicted) == games, messages[:20]
    assert "145 candidate(s) left" in [m for m in messages if "candidate(s) left" in m][-1]
    assert advised[0] <= 10  # not one per line (121)
