"""A simulated board on a pseudo-terminal, for any serial program.

The board's clock follows the wall clock, except while the panel is powered
(a refresh takes ~15 s of simulated time): then it runs as fast as it can,
so showing a frame costs no wall time. With `real_time` it follows the wall
clock then too: the device is busy for the refresh's whole time, as a real one.

With a memory file (`--flash FILE`) the board keeps its flash and EEPROM across
restarts: the file is rewritten (atomically) as the firmware writes them, so
killing the server is a power cut, not a new board.
"""

from __future__ import annotations

import contextlib
import os
import select
import struct
import threading
import time
import tty
import zlib
from collections.abc import Callable
from pathlib import Path

from epdle.frames.store import REGION_FIRST_ROW, ROW_WORDS

from . import Board
from .board import EEPROM_BYTES, FLASH_WORDS

# Longest stretch of simulated time per loop turn; also the input latency.
STEP_MS = 2.0
BUSY_STEP_MS = 50.0
READ_BYTES = 4096


# The memory file: this magic, the flash words the firmware may write (from the frame
# store's first word on, each u16 LE), the EEPROM's bytes, then a CRC-32 of all before.
MEMORY_MAGIC = b"EPDLE-NVM1\n"
# The frame store's first word (HAL_FLASH_WRITABLE_FROM): below it, the firmware's own code.
MEMORY_FIRST_WORD = REGION_FIRST_ROW * ROW_WORDS
MEMORY_WORDS = FLASH_WORDS - MEMORY_FIRST_WORD
MEMORY_BYTES = len(MEMORY_MAGIC) + 2 * MEMORY_WORDS + EEPROM_BYTES + 4
# While the firmware writes, the file is rewritten at most this often (and at the end).
MEMORY_SAVE_EVERY_S = 0.1


class MemoryFileError(ValueError):
    """A memory file that holds something else: the board does not start on it."""


class LinkExistsError(ValueError):
    """The link's path names something already: the server replaces nothing it did not make."""


class BoardMemory:
    """A board's flash and EEPROM in a file, so that they outlive the process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._saved_ops: int | None = None
        self._saved_at = float("-inf")

    def load(self, board: Board) -> bool:
        """Put the file's memories into a board that has not run yet; False (a new
        board) if there is no file. ValueError, the board untouched, if the file is
        not one of these (MemoryFileError: truncated, damaged, another file)."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return False
        except OSError as error:
            raise MemoryFileError(f"{self.path}: cannot read it ({error.strerror})") from None
        problem = _memory_problem(data)
        if problem is not None:
            raise MemoryFileError(
                f"{self.path}: not a board memory file ({problem}); remove it to start a "
                "new board, or give another"
            )
        at = len(MEMORY_MAGIC)
        words = struct.unpack_from(f"<{MEMORY_WORDS}H", data, at)
        board.flash_load({MEMORY_FIRST_WORD + i: word for i, word in enumerate(words)})
        at += 2 * MEMORY_WORDS
        board.eeprom_load(data[at : at + EEPROM_BYTES])
        self._saved_ops = board.nvm_op_count
        return True

    def save_if_written(self, board: Board, now: float, urgent: bool = False) -> None:
        """Rewrite the file if the firmware wrote flash or EEPROM since the last save: at
        most every MEMORY_SAVE_EVERY_S, unless `urgent` (the device is about to say
        something, maybe that a write is done)."""
        if board.nvm_op_count == self._saved_ops:
            return
        if urgent or now - self._saved_at >= MEMORY_SAVE_EVERY_S:
            self.save(board)
            self._saved_at = now

    def save(self, board: Board) -> None:
        """Write the file whole or not at all: a new file, then renamed over the old (a
        killed server leaves one or the other; no fsync: the host machine's own power
        is not what this models)."""
        self._saved_ops = board.nvm_op_count
        words = [board.flash_read(MEMORY_FIRST_WORD + i) for i in range(MEMORY_WORDS)]
        eeprom = bytes(board.eeprom_read(addr) for addr in range(EEPROM_BYTES))
        body = MEMORY_MAGIC + struct.pack(f"<{MEMORY_WORDS}H", *words) + eeprom
        temporary = self.path.with_name(self.path.name + ".new")
        with open(temporary, "wb") as out:
            out.write(body + struct.pack("<I", zlib.crc32(body)))
        os.replace(temporary, self.path)


def _memory_problem(data: bytes) -> str | None:
    if not data.startswith(MEMORY_MAGIC):
        return "it does not start as one"
    if len(data) != MEMORY_BYTES:
        return f"{len(data)} bytes, not {MEMORY_BYTES}"
    if zlib.crc32(data[:-4]) != struct.unpack_from("<I", data, len(data) - 4)[0]:
        return "its CRC does not match: damaged"
    words = struct.unpack_from(f"<{MEMORY_WORDS}H", data, len(MEMORY_MAGIC))
    if max(words) >= 1 << 14:
        return "a flash word wider than 14 bits"
    return None


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
        memory: BoardMemory | None = None,
    ) -> None:
        """Run until `stop` is set; `announce` gets the terminal's path first, `log` a line
        for each thing the device does; setting `press` presses the button. Refreshes
        take their simulated time in wall time only with `real_time`. With `memory`,
        its file follows what the firmware writes to flash and EEPROM."""
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
            if memory is not None:
                # Before any answer leaves: what the device acknowledged is in the file.
                memory.save_if_written(self.board, time.monotonic(), urgent=bool(self._outgoing))
            self._flush_output()
            watcher.check()
        if memory is not None:
            memory.save(self.board)

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


def _make_link(link: Path, server: PtyServer) -> None:
    """`link` made a symbolic link to the server's terminal; LinkExistsError (the server
    closed) if the path names anything already, a dangling link included."""
    try:
        link.symlink_to(server.path)
    except FileExistsError:
        server.close()
        raise LinkExistsError(
            f"{link} exists: remove it, or give another path (nothing is replaced)"
        ) from None


def _remove_link(link: Path, target: str) -> None:
    """Remove `link` if it is still the link this server made (to `target`)."""
    with contextlib.suppress(OSError):
        if os.readlink(link) == target:
            link.unlink()


def serve_board_on_pty(
    png_dir: str | None = None,
    vcd_path: str | None = None,
    epd_log_path: str | None = None,
    flash_hex: str | None = None,
    link_path: str | None = None,
    log: bool = True,
    real_time: bool = False,
    memory_path: str | None = None,
) -> int:
    """`epdle sim serve --pty`: print the terminal's path (first line), serve until
    SIGINT, SIGTERM or 'quit' on stdin, logging what the device does on stderr; then
    close everything (and remove `link_path`, a symbolic link to the terminal made here:
    LinkExistsError if that path exists, nothing is replaced). With
    `memory_path` the board's flash and EEPROM live in that file (BoardMemory):
    MemoryFileError if it holds something else."""
    import signal
    import sys

    from epdle.frames.store import words_from_hex

    stop = threading.Event()
    press = threading.Event()
    image = words_from_hex(Path(flash_hex)) if flash_hex is not None else None
    board = Board(vcd_path=vcd_path, epd_log_path=epd_log_path, png_dir=png_dir)
    link = Path(link_path) if link_path is not None else None
    memory = BoardMemory(Path(memory_path)) if memory_path is not None else None
    try:
        if memory is not None and memory.load(board):
            print(f"flash and EEPROM from {memory_path}", file=sys.stderr, flush=True)
        if image is not None:
            board.flash_load(image)
        server = PtyServer(board)
        if link is not None:
            _make_link(link, server)
        previous = {
            signum: signal.signal(signum, lambda *_: stop.set())
            for signum in (signal.SIGINT, signal.SIGTERM)
        }
        previous[signal.SIGUSR1] = signal.signal(signal.SIGUSR1, lambda *_: press.set())
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
                memory=memory,
            )
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            if link is not None:
                _remove_link(link, server.path)
            server.close()
        simulated_s = board.time_ms / 1000
    finally:
        board.close()
    print(f"stopped after {simulated_s:.1f} s of simulated time", file=sys.stderr)
    return 0
