"""A device lost at any moment of a push: each pyserial call failing in turn, with each
error a vanished adapter or a closed terminal raises (an OSError, pyserial's
SerialException, and termios.error, which is neither, from flush()). The push ends with
DeviceLost, nothing else, and the device holds the old set or the new one, whole."""

from __future__ import annotations

import errno
import termios
from collections import Counter

import pytest
import serial
from link_campaign import held_set
from link_sim_support import frame_of_length
from support.serial_port import PortInFront

from epdle.link import Device, DeviceLost

OLD = [frame_of_length(600, 1), frame_of_length(900, 2)]
NEW = [frame_of_length(1400, 3), frame_of_length(700, 4), frame_of_length(300, 5)]
CALLS = ("write", "flush", "read", "in_waiting", "timeout")
ERRORS = {
    "OSError": lambda: OSError(errno.EIO, "Input/output error"),
    "SerialException": lambda: serial.SerialException("write failed: [Errno 5] Input/output error"),
    "termios.error": lambda: termios.error(errno.EIO, "Input/output error"),
}


class FailingPort(PortInFront):
    """A pyserial port in front of another, counting each kind of call; the `at`-th call
    of kind `fail` raises `error()` (and every call after it, as a gone device does)."""

    def __init__(self, inner: serial.SerialBase, fail: str = "", at: int = 0, error=None) -> None:
        super().__init__(inner)
        self.fail = fail
        self.at = at
        self.error = error
        self.calls: Counter[str] = Counter()
        self.gone = False

    def before(self, kind: str) -> None:
        self.calls[kind] += 1
        if self.gone or (kind == self.fail and self.calls[kind] == self.at):
            self.gone = True
            raise self.error()


@pytest.fixture(scope="module")
def calls_of_a_push() -> Counter[str]:
    """How often a whole push calls each kind (the failures are spread over them)."""
    with Device.open("sim://") as clean:
        clean.push(OLD)
        counting = FailingPort(clean.serial)
        Device(counting).push(NEW, replace=True)  # type: ignore[arg-type]
        return counting.calls


@pytest.mark.parametrize("error", ERRORS)
@pytest.mark.parametrize("kind", CALLS)
@pytest.mark.parametrize("where", [0.0, 0.3, 0.6, 1.0])
def test_a_push_losing_its_device_at_any_call_is_device_lost_and_keeps_a_set_whole(
    calls_of_a_push: Counter[str], kind: str, error: str, where: float
) -> None:
    total = calls_of_a_push[kind]
    assert total > 0
    with Device.open("sim://") as clean:
        clean.push(OLD)
        failing = FailingPort(clean.serial, kind, 1 + round(where * (total - 1)), ERRORS[error])
        device = Device(failing)  # type: ignore[arg-type]
        with pytest.raises(DeviceLost, match="failed: Input/output error"):
            device.push(NEW, replace=True)
        device.close()  # closing what is gone raises nothing
        clean.serial.board.run_ms(1000)
        clean.serial.board.uart_receive()  # what the device said to the host that left
        assert held_set(clean) in (OLD, NEW)
        assert clean.info().frames == len(held_set(clean) or [])
