"""SIGTERM stops `epdle daemon` at once, in the middle of a push to a board that takes
a refresh's real time (about 17 s): no traceback, the line waiting in the feed is not
played, nothing is pushed after it, and the board holds a set whole. The board runs
behind a PtyServer in this process; the daemon is a process of its own on the terminal.
The test waits for states (the daemon connected, the panel refreshing), bounded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from epdle.frames import store as flash_layout
from epdle.sim import Board
from epdle.sim.pty_server import PtyServer

# The daemon ends this soon after SIGTERM (it must stop within 2 s; the margin is for a
# busy machine). Without the stop it finishes the refresh, plays the waiting line and
# pushes again: over 30 s.
STOP_BOUND_S = 4.0
STATE_TIMEOUT_S = 60.0


def until(condition, what: str) -> None:
    deadline = time.monotonic() + STATE_TIMEOUT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def held_set(board: Board) -> list[bytes] | None:
    first = flash_layout.REGION_FIRST_ROW * flash_layout.ROW_WORDS
    words = flash_layout.REGION_ROWS * flash_layout.ROW_WORDS
    image = {first + i: board.flash_read(first + i) for i in range(words)}
    try:
        return flash_layout.committed_frames(image)
    except ValueError:
        return None


def test_sigterm_stops_a_push_at_once_and_plays_nothing_after(tmp_path: Path) -> None:
    board = Board()
    server = PtyServer(board)
    stop = threading.Event()
    serving = threading.Thread(
        target=server.serve, args=(stop,), kwargs={"real_time": True}, daemon=True
    )
    serving.start()
    feed = tmp_path / "feed"
    os.mkfifo(feed)
    log: list[str] = []
    daemon = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "epdle",
            "daemon",
            "--port",
            server.path,
            "--feed",
            str(feed),
            "--strategy",
            "entropy",
            "--top",
            "2",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert daemon.stderr is not None
        reader = threading.Thread(target=lambda: log.extend(daemon.stderr), daemon=True)
        reader.start()
        with feed.open("w", buffering=1) as writer:
            until(lambda: board.panel_powered, "the opening set's first refresh")
            writer.write("salet bbybb\n")  # waits while the device refreshes
            stopped_at = time.monotonic()
            daemon.send_signal(signal.SIGTERM)
            code = daemon.wait(timeout=STATE_TIMEOUT_S)
            took = time.monotonic() - stopped_at
        reader.join(10)
    finally:
        if daemon.poll() is None:
            daemon.kill()
        stop.set()
        serving.join(10)
        server.close()
    text = "".join(log)
    print(text)  # shown by pytest when the test fails
    assert code == 0
    assert took < STOP_BOUND_S, f"{took:.1f} s from SIGTERM to the end"
    assert "Traceback" not in text
    assert "signal SIGTERM: stopping" in text
    after = text.split("signal SIGTERM")[-1]
    assert "candidate(s) left" not in after  # the waiting line was not played
    assert "pushed" not in after
    assert held_set(board) is not None  # a set whole (the new one: it was being shown)
    board.close()
