"""A lost reply costs one packet: the host sends the command again and the device
answers it from its copy of the reply, even after it fell asleep in between (the
host's default timeout, 2 s, is longer than the device's awake window, 1.5 s)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from link_sim_support import encoded, shows, small_planes
from support.serial_port import PortInFront

from epdle.frames import store as flash_layout
from epdle.link import Device
from epdle.link.protocol import Command, PacketReader

IMAGES = Path(__file__).resolve().parents[2] / "images"
OLD = small_planes(2, seed=1)
NEW = small_planes(3, seed=2)
# One command sent again (its wake preamble, up to a whole CHUNK) and its reply.
ONE_PACKET_AGAIN = 4 + 82 + 12


class LosesOneReply:
    """Mangles for a PortInFront: the reply to the first `command` sent is lost, and
    whether the device was asleep when the host sent it again is noted."""

    def __init__(self, command: Command, skip: int = 0) -> None:
        self.command = command
        self.skip = skip  # let this many of `command` through first
        self.losing = False
        self.lost = False
        self.asleep_at_resend: bool | None = None
        self.board = None

    def to_device(self, data: bytes) -> bytes:
        packets = PacketReader().feed(data)
        if self.losing and self.asleep_at_resend is None and self.board is not None:
            self.asleep_at_resend = self.board.asleep  # before the resend's preamble wakes it
        if packets and self.losing:
            self.losing = False
        elif any(p.type == self.command for p in packets) and not self.lost:
            if self.skip:
                self.skip -= 1
            else:
                self.losing = self.lost = True
        return data

    def to_host(self, data: bytes) -> bytes:
        return b"" if self.losing else data


def lossy_device(device: Device, loss: LosesOneReply) -> Device:
    line = PortInFront(device.serial, to_device=loss.to_device, to_host=loss.to_host)
    loss.board = device.serial.board
    return Device(line)  # type: ignore[arg-type]


@pytest.fixture
def device() -> Iterator[Device]:
    random.seed(11)
    dev = Device.open("sim://")
    dev.push(encoded(OLD))
    yield dev
    dev.close()


@pytest.fixture(scope="module")
def clean_push_bytes() -> int:
    """Bytes on the wire of the same upload with no loss."""
    random.seed(11)
    with Device.open("sim://") as dev:
        dev.push(encoded(OLD))
        return dev.push(encoded(NEW)).bytes_on_wire


@pytest.mark.parametrize(
    ("command", "skip"),
    [(Command.BEGIN, 0), (Command.CHUNK, 0), (Command.CHUNK, 9), (Command.COMMIT, 0)],
    ids=["begin", "first-chunk", "a-later-chunk", "commit"],
)
def test_a_lost_upload_reply_costs_one_packet_not_a_second_upload(
    clean_push_bytes: int, device: Device, command: Command, skip: int
) -> None:
    new = encoded(NEW)
    board = device.serial.board
    erases = board.flash_erase_count
    loss = LosesOneReply(command, skip)
    stats = lossy_device(device, loss).push(new)
    assert loss.lost and loss.asleep_at_resend is True
    assert stats.retries == 1
    rows = flash_layout.rows_for_words(flash_layout.set_words(new))
    assert board.flash_erase_count - erases == rows + 1  # the set's rows and one record
    assert stats.bytes_on_wire <= clean_push_bytes + ONE_PACKET_AGAIN
    assert shows(device, NEW)


def test_a_lost_show_reply_shows_the_frame_once(device: Device) -> None:
    board = device.serial.board
    refreshes = board.refresh_count
    loss = LosesOneReply(Command.SHOW)
    lossy_device(device, loss).show(1)
    assert loss.lost
    assert board.refresh_count == refreshes + 1
    assert board.panel_planes() == (OLD[1].black, OLD[1].red)


def test_a_lost_clear_reply_is_answered_from_the_copy(device: Device) -> None:
    loss = LosesOneReply(Command.CLEAR)
    lossy_device(device, loss).clear()
    assert loss.lost and loss.asleep_at_resend is True
    assert device.info().frames == len(list(IMAGES.glob("*.png")))  # the built-in frames


def test_a_new_session_is_never_answered_from_the_last_ones_copy(device: Device) -> None:
    """The copy outlives sleep. A new host session starts with INFO, which the device
    always runs afresh, so a command of an earlier session with the same seq and bytes
    is never taken for a repeat of it."""
    board = device.serial.board
    device.show(1)
    device._seq = 40
    assert device.info().current == 1  # INFO, seq 41
    assert board.run_until(lambda b: b.asleep, 3000)
    board.press_button()
    board.run_ms(20_000)
    board.uart_receive()
    second = Device(device.serial)
    second._seq = 40
    assert second.info().current == 0  # INFO, seq 41 again: the press moved on from 1
    second.show(0)  # SHOW 0, seq 42
    assert board.run_until(lambda b: b.asleep, 3000)
    third = Device(device.serial)
    third._seq = 41
    refreshes = board.refresh_count
    third.show(0)  # INFO seq 42 first, then SHOW 0 seq 43: shown
    assert board.refresh_count == refreshes + 1
