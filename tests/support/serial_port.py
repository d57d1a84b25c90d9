"""A pyserial port in front of another (the sim:// board's), for tests that damage the line
or lose the device: each call goes through `before(kind)`, which a subclass makes count or
raise as a gone device does, and the bytes each way through a mangle function (a line that
drops, flips or repeats bytes)."""

from __future__ import annotations

from collections.abc import Callable

import serial

Mangle = Callable[[bytes], bytes]


class PortInFront:
    """Passes every call to `inner`, after `before(kind)` ("timeout" (set), "in_waiting",
    "write", "flush", "read", "close"), written bytes through `to_device` and read ones
    through `to_host`."""

    def __init__(
        self,
        inner: serial.SerialBase,
        to_device: Mangle | None = None,
        to_host: Mangle | None = None,
    ) -> None:
        self.inner = inner
        self.to_device = to_device or (lambda data: data)
        self.to_host = to_host or (lambda data: data)
        self.port = inner.port
        self.board = inner.board

    def before(self, kind: str) -> None:
        """Called before each call of this kind reaches the port behind."""

    @property
    def timeout(self) -> float | None:
        return self.inner.timeout

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        self.before("timeout")
        self.inner.timeout = value

    @property
    def in_waiting(self) -> int:
        self.before("in_waiting")
        return self.inner.in_waiting

    def now(self) -> float:
        return self.inner.now()

    def write(self, data: bytes) -> int:
        self.before("write")
        self.inner.write(self.to_device(bytes(data)))
        return len(data)

    def flush(self) -> None:
        self.before("flush")
        self.inner.flush()

    def read(self, size: int = 1) -> bytes:
        self.before("read")
        return self.to_host(self.inner.read(size))

    def close(self) -> None:
        self.before("close")
        self.inner.close()
