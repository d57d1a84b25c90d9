"""A simulated board on a pseudo-terminal, for any serial program.

The board's clock follows the wall clock, except while the panel is powered
(a refresh takes ~15 s of simulated time): then it runs as fast as it can,
so showing a frame costs no wall time. With `real_time` it follows the wall
clock then too: the device is deaf for the refresh's whole time, as a real one.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Callable

from . import Board

# Longest stretch of simulated time per loop turn; also the input latency.
STEP_MS = 2.0
BUSY_STEP_MS = 50.0
READ_BYTES = 4096


class PtyServer:
    """Bridges a Board's UART to the master side of a new pseudo-terminal."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.master, self._slave = os.openpty()
        # Raw: no echo, no line editing, no CR/LF translation.
        tty.setraw(self._slave)
        tty.setraw(self.master)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self._slave)
        self._outgoing = bytearray()

    def serve(
        self,
        stop: threading.Event,
        announce: Callable[[str], None] | None = None,
        log: Callable[[str], None] | None = None,
        press: threading.Event | None = None,
        real_time: bool = False,
    ) -> None:
        """Run until `stop` is set; `announce` gets the terminal's path first, `log` a line
        for each thing the device does; setting `press` presses the button. Refreshes
        take their simulated time in wall time only with `real_time`."""
        if announce is not None:
            announce(self.path)
        wall_start = time.monotonic()
        board_start = self.board.time_ms
        watcher = _BoardWatcher(self.board, log)
        while not stop.is_set():
            if press is not None and press.is_set():
                press.clear()
                self.board.press_button()
                watcher.say("button pressed")
            hurry = self.board.panel_powered and not real_time
            self._take_input(timeout=0.0 if hurry else STEP_MS / 1000)
            if hurry:
                self.board.run_ms(BUSY_STEP_MS)
                # Time spent refreshing is skipped, not caught up on.
                board_start += BUSY_STEP_MS
            else:
                lag_ms = board_start + (time.monotonic() - wall_start) * 1000 - self.board.time_ms
                if lag_ms > 0:
                    self.board.run_ms(min(lag_ms, STEP_MS))
            self._outgoing += self.board.uart_receive()
            self._flush_output()
            watcher.check()

    def _take_input(self, timeout: float) -> None:
        readable, _, _ = select.select([self.master], [], [], timeout)
        if not readable:
            return
        try:
            data = os.read(self.master, READ_BYTES)
        except (BlockingIOError, OSError):
            return
        if data:
            self.board.uart_send(data)

    def _flush_output(self) -> None:
        if not self._outgoing:
            return
        try:
            written = os.write(self.master, self._outgoing)
        except BlockingIOError:
            return
        del self._outgoing[:written]

    def close(self) -> None:
        os.close(self.master)
        os.close(self._slave)


class _BoardWatcher:
    """Turns changes of the board's state into log lines: refreshes, sleep and wake."""

    def __init__(self, board: Board, log: Callable[[str], None] | None) -> None:
        self.board = board
        self.log = log
        self.refreshes = board.refresh_count
        self.asleep = board.asleep

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log(f"{self.board.time_ms / 1000:9.3f} s  {text}")

    def check(self) -> None:
        if self.log is None:
            return
        if self.board.refresh_count != self.refreshes:
            self.refreshes = self.board.refresh_count
            last = self.board.last_refresh()
            self.say(
                f"panel refreshed (refresh {self.refreshes}, {last.kind}, {last.seconds:.2f} s)"
            )
        if self.board.asleep != self.asleep:
            self.asleep = self.board.asleep
            self.say("asleep" if self.asleep else "awake")


def _read_presses(press: threading.Event, stop: threading.Event) -> None:
    """Lines on stdin: 'press' / 'p' presses the button; the end of stdin stops the server
    only when stdin is a terminal or a pipe someone typed into (not /dev/null)."""
    import sys

    for line in sys.stdin:
        if line.strip().lower() in ("p", "press"):
            press.set()
        elif line.strip().lower() in ("q", "quit"):
            stop.set()
            return


def serve_board_on_pty(
    png_dir: str | None = None,
    vcd_path: str | None = None,
    epd_log_path: str | None = None,
    flash_hex: str | None = None,
    link_path: str | None = None,
    log: bool = True,
    real_time: bool = False,
) -> int:
    """`epdle sim serve --pty`: print the terminal's path (first line), serve until
    SIGINT, SIGTERM or 'quit' on stdin, logging what the device does on stderr; then
    close everything (and remove `link_path`, a symbolic link to the terminal)."""
    import signal
    import sys
    from pathlib import Path

    from epdle.frames.store import words_from_hex

    stop = threading.Event()
    press = threading.Event()
    image = words_from_hex(Path(flash_hex)) if flash_hex is not None else None
    board = Board(vcd_path=vcd_path, epd_log_path=epd_log_path, png_dir=png_dir)
    link = Path(link_path) if link_path is not None else None
    try:
        if image is not None:
            board.flash_load(image)
        server = PtyServer(board)
        previous = {
            signum: signal.signal(signum, lambda *_: stop.set())
            for signum in (signal.SIGINT, signal.SIGTERM)
        }
        previous[signal.SIGUSR1] = signal.signal(signal.SIGUSR1, lambda *_: press.set())
        if link is not None:
            if link.is_symlink():
                link.unlink()
            link.symlink_to(server.path)
        threading.Thread(target=_read_presses, args=(press, stop), daemon=True).start()

        def say(line: str) -> None:
            print(line, file=sys.stderr, flush=True)

        try:
            server.serve(
                stop,
                announce=lambda path: print(path, flush=True),
                log=say if log else None,
                press=press,
                real_time=real_time,
            )
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            server.close()
            if link is not None and link.is_symlink():
                link.unlink()
        simulated_s = board.time_ms / 1000
    finally:
        board.close()
    print(f"stopped after {simulated_s:.1f} s of simulated time", file=sys.stderr)
    return 0
