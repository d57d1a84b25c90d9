"""pyserial URL handler for sim://: the simulated board as a serial port.

    sim://?png_dir=DIR&vcd=FILE&epd_log=FILE&flash_hex=FILE

Time is virtual: read() runs the board until the bytes asked for arrive or
`timeout` simulated seconds pass; write() queues bytes on the board's RX line
at 115200 baud from the board's present time.
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from serial.serialutil import PortNotOpenError, SerialBase, SerialException

from epdle.frames.store import words_from_hex

if TYPE_CHECKING:
    from typing_extensions import Buffer  # collections.abc.Buffer from Python 3.12

    from epdle.sim import Board

# Longest the board runs for one read with no timeout (pyserial's "block").
BLOCKING_READ_LIMIT_S = 3600.0
# The board runs in steps this long while a read waits: fine enough that a
# reply is picked up within a fraction of a byte time of the host's wait.
STEP_MS = 1.0

# The board's clock counts nanoseconds; float leftovers below that are noise.
CLOCK_RESOLUTION_MS = 1e-6

OPTIONS = {"png_dir", "vcd", "epd_log", "flash_hex"}


def parse_url(url: str) -> dict[str, str]:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "sim":
        raise SerialException(f"expected a sim:// URL, got {url!r}")
    options = {key: values[-1] for key, values in urllib.parse.parse_qs(parts.query).items()}
    unknown = set(options) - OPTIONS
    if unknown:
        raise SerialException(
            f"unknown sim:// option(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(OPTIONS))}"
        )
    return options


class Serial(SerialBase):
    """A serial port whose far end is an in-process simulated board.

    Behaves as pyserial's own loop:// handler: open() checks the port and its
    settings (_reconfigure_port), starts with empty buffers; close() also runs
    SerialBase.close (so `closed` is True after it).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._board: Board | None = None
        self._received = bytearray()
        super().__init__(*args, **kwargs)

    @property
    def board(self) -> Board:
        """The simulated board behind the open port."""
        if self._board is None or not self.is_open:
            raise PortNotOpenError()
        return self._board

    def open(self) -> None:
        from epdle.sim import Board, SimError

        if self.is_open:
            raise SerialException("port already open")
        url = self.portstr
        if url is None:
            raise SerialException("port must be configured before it can be used")
        options = parse_url(url)
        self._reconfigure_port()
        try:
            image = words_from_hex(Path(options["flash_hex"])) if "flash_hex" in options else None
            board = Board(
                vcd_path=options.get("vcd"),
                epd_log_path=options.get("epd_log"),
                png_dir=options.get("png_dir"),
            )
        except (SimError, OSError, ValueError) as error:
            raise SerialException(f"cannot start the simulated board: {error}") from error
        if image is not None:
            # The firmware has not run yet: it boots onto this flash.
            board.flash_load(image)
        self._board = board
        self._received = bytearray()
        self.is_open = True

    def close(self) -> None:
        if self.is_open:
            self.is_open = False
            if self._board is not None:
                self._board.close()
        super().close()

    def _reconfigure_port(self) -> None:
        """The simulated line is 115200 8N1 whatever is asked, as loop:// ignores settings;
        like it, a baud rate that no port could have is refused."""
        rate = self.baudrate
        if not isinstance(rate, int) or not 0 < rate < 2**32:
            raise ValueError(f"invalid baudrate: {rate!r}")

    def now(self) -> float:
        """The board's clock in seconds (the link's notion of time)."""
        return self.board.time_ms / 1000

    def flash_erase_count(self) -> int:
        """Flash rows the board erased so far (the link's upload statistics)."""
        return self.board.flash_erase_count

    def _collect(self) -> None:
        self._received += self.board.uart_receive()

    @property
    def in_waiting(self) -> int:
        if not self.is_open:
            raise PortNotOpenError()
        self._collect()
        return len(self._received)

    def read(self, size: int = 1) -> bytes:
        if not self.is_open:
            raise PortNotOpenError()
        timeout = self.timeout
        limit = BLOCKING_READ_LIMIT_S if timeout is None else float(timeout)
        board = self.board
        deadline_ms = board.time_ms + limit * 1000
        self._collect()
        while len(self._received) < size:
            remaining_ms = deadline_ms - board.time_ms
            if remaining_ms < CLOCK_RESOLUTION_MS:
                break
            board.run_ms(min(STEP_MS, remaining_ms))
            self._collect()
        data = bytes(self._received[:size])
        del self._received[:size]
        return data

    def write(self, data: Buffer, /) -> int:
        if not self.is_open:
            raise PortNotOpenError()
        payload = bytes(data)
        self.board.uart_send(payload)
        return len(payload)

    def flush(self) -> None:
        """Bytes are on the simulated line as soon as write() returns."""

    def reset_input_buffer(self) -> None:
        self._collect()
        self._received.clear()

    def reset_output_buffer(self) -> None:
        """Nothing is buffered on the host side."""
