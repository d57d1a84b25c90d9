"""A button press during an upload: the device is deaf while the panel refreshes
(~15 s), and the host waits that out instead of failing or starting over.

On sim:// the host's clock is the board's, so the refresh's whole time is charged
to the host's timeouts, as on a real port."""

from __future__ import annotations

import random

import pytest
from link_sim_support import encoded, shows, small_planes, suggestion_planes

from epdle.frames import store as flash_layout
from epdle.link import ButtonPressed, Device, DeviceNotResponding, FrameShown
from epdle.link.device import SHOW_TIMEOUT_S
from epdle.link.protocol import Command, EventType, Packet, PacketReader

OLD = small_planes(2, seed=1)
NEW = small_planes(3, seed=2)
REFRESH_S = 10.0  # shorter than any refresh of the tri-colour panel
# What one press may cost on the wire: one CHUNK sent again (82 bytes, its wake
# preamble) and the events that report the bytes the deaf device lost.
PRESS_WIRE_BYTES = 160


def push_without_press(frames: list[bytes]) -> int:
    random.seed(7)
    with Device.open("sim://") as dev:
        dev.push(encoded(OLD))
        return dev.push(frames).bytes_on_wire


@pytest.mark.parametrize("press_at", [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0])
def test_a_press_mid_upload_neither_fails_nor_repeats_it(press_at: float) -> None:
    """Default timeout and retries (2 s, 3 tries: 6 s, well under a refresh)."""
    new = encoded(NEW)
    baseline = push_without_press(new)
    random.seed(7)
    with Device.open("sim://") as dev:
        dev.push(encoded(OLD))
        board = dev.serial.board
        refreshes = board.refresh_count
        pressed = False

        def press_mid_way(offset: int, total: int) -> None:
            nonlocal pressed
            if not pressed and offset >= press_at * total:
                pressed = True
                board.press_button()

        stats = dev.push(new, progress=press_mid_way)
        assert pressed
        # The press was shown while the upload went on: its refresh's time is in
        # the upload's, and the upload went through once.
        assert board.refresh_count == refreshes + 1
        assert stats.seconds > REFRESH_S
        assert stats.erase_cycles == flash_layout.rows_for_words(flash_layout.set_words(new)) + 1
        assert stats.bytes_on_wire <= baseline + PRESS_WIRE_BYTES
        events = dev.poll_events()
        assert any(isinstance(e, ButtonPressed) for e in events)
        assert any(isinstance(e, FrameShown) and e.ok for e in events)
        assert shows(dev, NEW)


def test_a_command_sent_as_a_press_begins_is_answered_after_the_refresh() -> None:
    """The BUTTON event comes before the reply: the command reached a deaf device."""
    random.seed(8)
    with Device.open("sim://") as dev:
        dev.push(encoded(OLD))
        board = dev.serial.board
        assert board.run_until(lambda b: b.asleep, 3000)
        refreshes = board.refresh_count
        board.press_button()
        started = dev.transport.clock()
        assert dev.info().frames == len(OLD)
        assert board.refresh_count == refreshes + 1
        assert dev.transport.clock() - started > REFRESH_S


def test_show_returns_once_its_own_frame_is_shown_not_a_press_before_it() -> None:
    """A press just before a SHOW shows the next frame (here the very one asked for)
    first; show() waits for the SHOW's own refresh, not that of the press."""
    random.seed(9)
    with Device.open("sim://") as dev:
        dev.push(encoded(OLD))
        board = dev.serial.board
        dev.show(0)
        refreshes = board.refresh_count
        board.press_button()  # next: frame 1
        dev.show(1)
        assert board.refresh_count == refreshes + 2
        assert not board.panel_powered
        assert board.panel_planes() == (OLD[1].black, OLD[1].red)


def test_a_quick_press_during_the_commit_is_shown_once_it_is_over() -> None:
    """The device checks a set of 8 frames (the COMMIT, over a second) without looking
    at the button: a press made 0.5 s into it and released 0.2 s later, before the
    reply, is a press all the same, and the next frame is shown once the COMMIT is done."""
    random.seed(11)
    planes = suggestion_planes(["plumb", "fjord", "crane", "sloth", "adieu", "roate", "tares"])
    planes.append(small_planes(1, seed=3)[0])
    with Device.open("sim://") as dev:
        board = dev.serial.board
        write = dev.serial.write
        released_before_reply: list[bool] = []

        def press_during_the_commit(data: bytes) -> int:
            written = write(data)
            commit = any(p.type == Command.COMMIT for p in PacketReader().feed(data))
            if commit and not released_before_reply:
                board.run_ms(500)
                board.press_button(hold_ms=200)
                board.run_ms(201)  # to the release and its bounce
                released_before_reply.append(dev.serial.in_waiting == 0)
            return written

        dev.serial.write = press_during_the_commit  # type: ignore[method-assign]
        dev.push(encoded(planes))
        assert released_before_reply == [True]
        events: list[object] = []
        for _ in range(3):  # the press's debounce, load and refresh: about 15 s
            events += dev.poll_events(timeout=10.0)
            if any(isinstance(e, FrameShown) for e in events):
                break
        assert any(isinstance(e, ButtonPressed) for e in events)
        shown = [e for e in events if isinstance(e, FrameShown)]
        # Nothing shown since the board booted: a press shows the set's first frame.
        assert len(shown) == 1 and shown[0].ok and shown[0].index == 0
        assert board.panel_planes() == (planes[0].black, planes[0].red)


class _PressedThenSilent:
    """A port whose device announces a press and then never speaks again; its clock
    is virtual (a read that finds nothing lets its timeout pass)."""

    port = "silent"

    def __init__(self) -> None:
        self.time = 0.0
        self.timeout: float | None = 0.0
        self._out = bytearray(Packet(EventType.BUTTON, 0).encode())
        self.in_waiting = 0

    def now(self) -> float:
        return self.time

    def write(self, data: bytes) -> int:
        return len(data)

    def flush(self) -> None:
        pass

    def read(self, size: int = 1) -> bytes:
        if self._out:
            data = bytes(self._out)
            self._out.clear()
            return data
        self.time += self.timeout or 0.0
        return b""

    def close(self) -> None:
        pass


def test_waiting_out_a_press_is_bounded() -> None:
    port = _PressedThenSilent()
    dev = Device(port, timeout=2.0, retries=3)  # type: ignore[arg-type]
    with pytest.raises(DeviceNotResponding):
        dev.info()
    assert SHOW_TIMEOUT_S <= port.time <= SHOW_TIMEOUT_S + 3 * 2.0 + 1.0
