"""Packets over any pyserial port: wake preamble, byte counts, timed reads."""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Callable, Iterator

import serial

from .protocol import AWAKE_MS, DELIMITER, WAKE_MS, WAKE_PREAMBLE_BYTES, Packet, PacketReader

# Waits shorter than this are over: clocks in float seconds leave crumbs.
CLOCK_EPSILON_S = 1e-6
# Past half the device's awake window, assume it may be asleep.
MAYBE_ASLEEP_AFTER_S = AWAKE_MS / 2000
# With a stop event, a wait for the device looks at it this often (seconds).
STOP_POLL_S = 0.1


def _port_errors() -> tuple[type[Exception], ...]:
    """What a pyserial call raises when the device goes away under it: OSError (and
    SerialException, one), and on POSIX termios.error, which is neither (flush() and
    reset_input_buffer() let it through on a vanished adapter or a closed pty)."""
    try:
        import termios
    except ImportError:  # not POSIX: pyserial raises SerialException alone
        return (OSError,)
    return (OSError, termios.error)


PORT_ERRORS = _port_errors()


class PortLost(OSError):
    """A call on the port failed: the device (adapter, pty) is gone, or going."""


class Stopped(Exception):
    """The transport's stop event was set: the exchange under way is given up."""


class Transport:
    """One serial port carrying link packets.

    Time is the port's: a port may offer `now()` (sim:// does: virtual
    seconds, advanced by its reads); otherwise the wall clock.
    """

    def __init__(self, port: serial.SerialBase, stop: threading.Event | None = None) -> None:
        self.port = port
        # Once set, every wait for the device ends within STOP_POLL_S with Stopped.
        self.stop = stop
        self.reader = PacketReader()
        self.bytes_sent = 0
        self.bytes_received = 0
        self.clock: Callable[[], float] = getattr(port, "now", time.monotonic)
        self.last_heard = float("-inf")

    @property
    def name(self) -> str:
        return str(self.port.port)

    def device_may_sleep(self) -> bool:
        return self.clock() - self.last_heard > MAYBE_ASLEEP_AFTER_S

    def send(self, packet: Packet, wake: bool = False) -> list[Packet]:
        """Write one packet. With `wake`, a preamble of delimiters goes first
        and the device gets WAKE_MS to come out of sleep (the character that
        wakes it is lost). Returns packets that arrived during that pause."""
        early: list[Packet] = []
        if wake:
            self._write(bytes([DELIMITER]) * WAKE_PREAMBLE_BYTES)
            early = self.receive(WAKE_MS / 1000, wait_for_any=False)
        self._write(packet.encode())
        return early

    @contextlib.contextmanager
    def _guard(self, what: str) -> Iterator[None]:
        """Calls on the port; PortLost, saying what failed, for any error they raise."""
        try:
            yield
        except PORT_ERRORS as error:
            raise PortLost(f"{what} on {self.name} failed: {_reason(error)}") from error

    def _write(self, data: bytes) -> None:
        with self._guard("write"):
            self.port.write(data)
        with self._guard("flush"):
            self.port.flush()
        self.bytes_sent += len(data)

    def receive(self, timeout: float, wait_for_any: bool = True) -> list[Packet]:
        """Packets that arrive within `timeout` seconds; with `wait_for_any`,
        return as soon as at least one has."""
        packets: list[Packet] = []
        deadline = self.clock() + timeout
        while True:
            if self.stop is not None and self.stop.is_set():
                raise Stopped(f"stopped while waiting for the device on {self.name}")
            left = max(deadline - self.clock(), 0.0)
            wait = left if self.stop is None else min(left, STOP_POLL_S)
            with self._guard("read"):
                # Setting the timeout reconfigures the port: it fails too once
                # the device is gone.
                self.port.timeout = wait
                data = self.port.read(1)
                if data:
                    # Every pyserial port has in_waiting; the stubs leave it off SerialBase.
                    data += self.port.read(self.port.in_waiting)  # type: ignore[attr-defined]
            if not data:
                if wait < left:
                    continue  # a slice of the wait: look at the stop event again
                return packets  # the read waited out the rest of the timeout
            self.bytes_received += len(data)
            self.last_heard = self.clock()
            packets += self.reader.feed(data)
            if (packets and wait_for_any) or self.clock() >= deadline:
                return packets

    def close(self) -> None:
        """Close the port; a device already gone leaves nothing to close."""
        with contextlib.suppress(*PORT_ERRORS):
            self.port.close()


def _reason(error: Exception) -> str:
    """The error in plain words: 'Input/output error', not '(5, ...)' or '[Errno 5] ...'."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    if len(error.args) == 2 and isinstance(error.args[0], int):  # termios.error
        return str(error.args[1])
    return re.sub(r"\[Errno \d+\] ", "", str(error))
