"""A host that did not see the press (a new session: the BUTTON event went to no one)
talks to a device that refreshes the panel for it: the device answers BUSY, the host
says in one line that it waits, and the command goes through once the refresh is over,
whenever the press came against it.

On sim:// the host's clock is the board's: the refresh's ~15 s are charged to the
host's timeouts (2 s, 3 tries) as on a real port. The real-time pseudo-terminal's trials
are tests/sim/test_press_real_time.py."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from link_sim_support import encoded, shows, small_planes

from epdle.link import Device
from epdle.link.protocol import Command, PacketReader

OLD = small_planes(2, seed=1)
NEW = small_planes(3, seed=2)
# From the press: its debounce (20 ms), the frame's load (~0.2 s), the refresh (~15 s).
PRESS_PHASES_MS = [0, 15, 60, 400, 2_000, 9_000, 14_000]


def new_session(dev: Device) -> tuple[Device, list[str]]:
    """Another host process on the same port: what the device sent before is lost."""
    dev.serial.reset_input_buffer()
    other = Device(dev.serial)
    notices: list[str] = []
    other.notice = notices.append
    return other, notices


COMMANDS: dict[str, Callable[[Device], object]] = {
    "info": lambda dev: dev.info(),
    "push": lambda dev: dev.push(encoded(NEW), replace=True),
    "show": lambda dev: dev.show(1),
    "clear": lambda dev: dev.clear(),
}


@pytest.mark.parametrize("name", list(COMMANDS))
@pytest.mark.parametrize("after_press_ms", PRESS_PHASES_MS)
def test_a_command_during_a_press_it_did_not_see_goes_through(
    name: str, after_press_ms: int
) -> None:
    random.seed(after_press_ms)
    with Device.open("sim://") as dev:
        dev.push(encoded(OLD))
        board = dev.serial.board
        assert board.run_until(lambda b: b.asleep, 3_000)
        refreshes = board.refresh_count
        board.press_button()
        board.run_ms(after_press_ms)
        other, notices = new_session(dev)
        COMMANDS[name](other)
        # The press's refresh ran whole; the command's own (show) after it.
        assert board.refresh_count == refreshes + 1 + (name == "show")
        refreshing = [n for n in notices if "is refreshing its panel: waiting" in n]
        assert len(refreshing) <= 1
        if 400 <= after_press_ms <= 9_000:
            assert refreshing, notices  # the command came while the panel refreshed
        if name == "push":
            assert shows(other, NEW)
        elif name == "clear":
            assert other.info().frames != len(OLD)


def test_a_show_sent_again_during_its_own_refresh_is_answered_busy_then_from_the_copy() -> None:
    """A lost SHOW ACK: the resend finds the device refreshing that very frame."""
    random.seed(3)
    with Device.open("sim://") as dev:
        dev.push(encoded(OLD))
        board = dev.serial.board
        refreshes = board.refresh_count
        original_write = dev.serial.write
        dropped = []

        def lose_the_first_ack(data: bytes) -> int:
            written = original_write(data)
            sent = PacketReader().feed(data)
            if not dropped and any(p.type == Command.SHOW for p in sent):
                board.run_ms(5)
                dropped.append(dev.serial.read(dev.serial.in_waiting))
            return written

        dev.serial.write = lose_the_first_ack  # type: ignore[method-assign]
        dev.show(1)
        assert dropped and dropped[0]
        assert board.refresh_count == refreshes + 1  # shown once
