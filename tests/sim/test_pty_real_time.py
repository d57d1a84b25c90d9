"""`epdle sim serve --pty --real-time`: the board's clock keeps to the wall clock through a
panel refresh, so a host on the terminal meets the deaf device a real one is; without it
the refresh is skipped through."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from epdle.sim import Board
from epdle.sim.pty_server import PtyServer

WALL_S = 1.5


@contextmanager
def served(real_time: bool) -> Iterator[tuple[Board, threading.Event]]:
    board = Board()
    server = PtyServer(board)
    stop = threading.Event()
    press = threading.Event()
    thread = threading.Thread(
        target=server.serve, args=(stop,), kwargs={"press": press, "real_time": real_time}
    )
    thread.start()
    try:
        yield board, press
    finally:
        stop.set()
        thread.join(10)
        server.close()
        board.close()


def press_and_wait(board: Board, press: threading.Event) -> tuple[float, int]:
    """Press, let WALL_S of wall time pass: (simulated seconds passed, refreshes done)."""
    time.sleep(0.3)  # booted and asleep
    refreshes = board.refresh_count
    started = board.time_ms
    press.set()
    time.sleep(WALL_S)
    return (board.time_ms - started) / 1000, board.refresh_count - refreshes


def test_real_time_keeps_the_refresh_in_wall_time() -> None:
    with served(real_time=True) as (board, press):
        simulated, refreshes = press_and_wait(board, press)
        assert board.panel_powered and refreshes == 0  # still refreshing, deaf
        # No faster than the wall clock (slower on a loaded machine: it catches up).
        assert 0 < simulated < WALL_S + 0.5


def test_by_default_the_refresh_is_skipped_through() -> None:
    with served(real_time=False) as (board, press):
        simulated, refreshes = press_and_wait(board, press)
        assert refreshes == 1 and simulated > 10.0
