"""pyserial URL handler for sim://: the simulated board as a serial port.

    sim://?png_dir=DIR&vcd=FILE&epd_log=FILE&flash_hex=FILE

Time is virtual: read() runs the board until the bytes asked for arrive or
`timeout` simulated seconds pass; write() queues bytes on the board's RX line
at 115200 baud from the board's present time.
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path

from serial.serialutil import PortNotOpenError, SerialBase, SerialException

from epdle.frames.store import words_from_hex

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
    """A serial port whose far end is an in-process simulated board."""

    def open(self) -> None:
        from epdle.sim import Board, SimError

        if self._port is None:
            raise SerialException("port must be configured before it can be used")
        if self.is_open:
            raise SerialException("port already open")
        options = parse_url(self.portstr)
        try:
            self.board = Board(
                vcd_path=options.get("vcd"),
                epd_log_path=options.get("epd_log"),
                png_dir=options.get("png_dir"),
            )
            if "flash_hex" in options:
                # The firmware has not run yet: it boots onto this flash.
                self.board.flash_load(words_from_hex(Path(options["flash_hex"])))
        except (SimError, OSError, ValueError) as error:
            raise SerialException(f"cannot start the simulated board: {error}") from error
        self._received = bytearray()
        self.is_open = True

    def close(self) -> None:
        if self.is_open:
            self.board.close()
            self.is_open = False

    def _reconfigure_port(self) -> None:
        """The simulated line is always 115200 8N1: nothing to configure."""

    def now(self) -> float:
        """The board's clock in seconds (the link's notion of time)."""
        return self.board.time_ms / 1000

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
        limit = BLOCKING_READ_LIMIT_S if self._timeout is None else self._timeout
        deadline_ms = self.board.time_ms + limit * 1000
        self._collect()
        while len(self._received) < size:
            remaining_ms = deadline_ms - self.board.time_ms
            if remaining_ms < CLOCK_RESOLUTION_MS:
                break
            self.board.run_ms(min(STEP_MS, remaining_ms))
            self._collect()
        data = bytes(self._received[:size])
        del self._received[:size]
        return data

    def write(self, data: bytes) -> int:
        if not self.is_open:
            raise PortNotOpenError()
        self.board.uart_send(bytes(data))
        return len(data)

    def flush(self) -> None:
        """Bytes are on the simulated line as soon as write() returns."""

    def reset_input_buffer(self) -> None:
        self._collect()
        self._received.clear()

    def reset_output_buffer(self) -> None:
        """Nothing is buffered on the host side."""
