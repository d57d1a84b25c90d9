"""End to end: `epdle daemon` drives the simulated board through a real pseudo-terminal.

The board runs behind a PtyServer in this process; the daemon is a separate
process that opens the terminal with pyserial, exactly as it would open
/dev/ttyUSB0. After every step the panel must equal the frame the renderer
made, and the device must be asleep with the panel unpowered.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from epdle.frames import decode, encode
from epdle.session.one_board import Game
from epdle.session.screens import frames_for
from epdle.sim import Board
from epdle.sim.pty_server import PtyServer
from epdle.solver import Solver, score

STRATEGY = "entropy"
TOP = 3
ANSWER = "slosh"
STEP_TIMEOUT_S = 60.0


@dataclass
class ServedBoard:
    board: Board
    server: PtyServer
    stop: threading.Event
    thread: threading.Thread

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=10)
        self.server.close()
        self.board.close()


def serve_board(link: Path) -> ServedBoard:
    """A fresh board on a new pty, reachable through the stable path `link`."""
    board = Board()
    server = PtyServer(board)
    stop = threading.Event()
    thread = threading.Thread(target=server.serve, args=(stop,), daemon=True)
    thread.start()
    link.unlink(missing_ok=True)
    link.symlink_to(server.path)
    return ServedBoard(board, server, stop, thread)


def wait_for(condition, what: str, timeout: float = STEP_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def expected_panel(game: Game) -> tuple[bytes, bytes]:
    first = frames_for(game)[0]
    return decode(encode(first.black, first.red))


def wait_until_showing(served: ServedBoard, game: Game) -> None:
    board = served.board
    expected = expected_panel(game)
    wait_for(
        lambda: board.panel_planes() == expected and board.asleep and not board.panel_powered,
        f"the panel to show the advice after {game.history} and the device to sleep",
    )
    assert board.violations() == []


@pytest.fixture
def feed(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "feed"
    os.mkfifo(path)
    yield path


def start_daemon(port: Path, feed: Path, log: Path) -> subprocess.Popen[bytes]:
    # The game of Solver(STRATEGY): the answer list's.
    command = [sys.executable, "-m", "epdle", "daemon", "--port", str(port), "--feed", str(feed),
               "--strategy", STRATEGY, "--top", str(TOP), "--prior", "uniform"]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log.open("wb"))


def test_daemon_plays_a_whole_game_through_a_pty(tmp_path: Path, feed: Path) -> None:
    port = tmp_path / "ttyEPDLE"
    served = serve_board(port)
    log = tmp_path / "daemon.log"
    daemon = start_daemon(port, feed, log)
    game = Game(Solver(strategy=STRATEGY), top=TOP)
    try:
        with feed.open("w", buffering=1) as writer:
            wait_until_showing(served, game)
            # Bad lines first: each is logged in one line and changes nothing.
            for bad in ("qqqqq bbbbb", "crane gyb", "crane"):
                writer.write(bad + "\n")
            while not game.solved:
                guess = game.advice.suggestions[0].word
                feedback = score(guess, ANSWER)
                writer.write(f"{guess} {feedback}\n")
                game.play(guess, feedback)
                wait_until_showing(served, game)
            # Unplug: the pty vanishes; plug a device back in at the same path.
            served.close()
            served = serve_board(port)
            wait_until_showing(served, game)
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(timeout=20) == 0
    finally:
        if daemon.poll() is None:
            daemon.kill()
        served.close()
        print(log.read_text())  # shown by pytest when the test fails
    text = log.read_text()
    assert "not in the accepted word list" in text
    assert "has 5 letters but 3 colours" in text
    assert "expected '<guess> <colours>'" in text
    assert "solved in" in text
    assert "reconnect" in text
    assert "signal SIGTERM" in text
