"""Packets over any pyserial port: wake preamble, byte counts, timed reads."""

from __future__ import annotations

import time
from collections.abc import Callable

import serial

from .protocol import AWAKE_MS, DELIMITER, WAKE_MS, WAKE_PREAMBLE_BYTES, Packet, PacketReader

# Waits shorter than this are over: clocks in float seconds leave crumbs.
CLOCK_EPSILON_S = 1e-6
# Past half the device's awake window, assume it may be asleep.
MAYBE_ASLEEP_AFTER_S = AWAKE_MS / 2000


class Transport:
    """One serial port carrying link packets.

    Time is the port's: a port may offer `now()` (sim:// does: virtual
    seconds, advanced by its reads); otherwise the wall clock.
    """

    def __init__(self, port: serial.SerialBase) -> None:
        self.port = port
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

    def _write(self, data: bytes) -> None:
        try:
            self.port.write(data)
            self.port.flush()
        except serial.SerialException as error:
            raise OSError(f"write to {self.name} failed: {error}") from error
        self.bytes_sent += len(data)

    def receive(self, timeout: float, wait_for_any: bool = True) -> list[Packet]:
        """Packets that arrive within `timeout` seconds; with `wait_for_any`,
        return as soon as at least one has."""
        packets: list[Packet] = []
        deadline = self.clock() + timeout
        while True:
            try:
                # Setting the timeout reconfigures the port: it fails too once
                # the device is gone.
                self.port.timeout = max(deadline - self.clock(), 0.0)
                data = self.port.read(1)
                if data:
                    # Every pyserial port has in_waiting; the stubs leave it off SerialBase.
                    data += self.port.read(self.port.in_waiting)  # type: ignore[attr-defined]
            except serial.SerialException as error:
                raise OSError(f"read from {self.name} failed: {error}") from error
            if not data:
                return packets  # the read waited out the rest of the timeout
            self.bytes_received += len(data)
            self.last_heard = self.clock()
            packets += self.reader.feed(data)
            if (packets and wait_for_any) or self.clock() >= deadline:
                return packets

    def close(self) -> None:
        self.port.close()
