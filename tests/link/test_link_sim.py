"""The link end to end: the Python Device against the firmware on the
simulated board (sim://), with faults on the line and power cuts."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from link_sim_support import (
    drop_byte,
    encoded,
    every_nth,
    flip_bit,
    frame_of_length,
    repeat_byte,
    repeat_packet,
    shows,
    small_planes,
    suggestion_planes,
    swap_bytes,
    truncate,
    wrong_baud_noise,
)
from support.serial_port import Mangle, PortInFront

from epdle.frames import store as flash_layout
from epdle.link import (
    ButtonPressed,
    Device,
    DeviceNotResponding,
    DeviceRejected,
    FrameShown,
    LinkError,
    committed_set_words,
)
from epdle.link.protocol import CHUNK_MAX, PROTOCOL_VERSION, Command, ErrorCode, Packet
from epdle.session.link_bench import power_cut_sweep

IMAGES = Path(__file__).resolve().parents[2] / "images"

STORE_FIRST_WORD = flash_layout.REGION_FIRST_ROW * flash_layout.ROW_WORDS
STORE_WORDS = flash_layout.REGION_ROWS * flash_layout.ROW_WORDS

OLD = small_planes(2, seed=1)
NEW = small_planes(3, seed=2)


@pytest.fixture(autouse=True)
def fixed_sequence_numbers() -> None:
    """Devices start at a random seq; fix it so damage lands the same each run."""
    random.seed(1234)


@pytest.fixture
def device() -> Iterator[Device]:
    dev = Device.open("sim://", timeout=0.5, retries=4)
    yield dev
    dev.close()


def store_region(dev: Device) -> list[int]:
    board = dev.serial.board
    return [board.flash_read(STORE_FIRST_WORD + i) for i in range(STORE_WORDS)]


def test_info_push_show_round_trip(device: Device) -> None:
    fresh = device.info()
    assert fresh.protocol == PROTOCOL_VERSION == 3
    assert fresh.version == "0.1.0"
    assert fresh.capacity_words == flash_layout.DATA_WORDS
    planes = suggestion_planes(["crate", "adobe", "joint"])
    stats = device.push(encoded(planes))
    assert stats.retries == 0
    assert stats.erase_cycles == -(-flash_layout.set_words(encoded(planes)) // 32) + 1
    assert shows(device, planes)
    info = device.info()
    assert (info.frames, info.current) == (3, 2)
    assert info.capacity_words == flash_layout.DATA_WORDS - 32 * (stats.erase_cycles - 1)
    assert device.serial.board.violations() == []


@pytest.mark.parametrize(
    ("to_device", "to_host"),
    [
        (every_nth(4, drop_byte), None),
        (every_nth(3, flip_bit), None),
        (every_nth(4, repeat_byte), None),
        (every_nth(4, swap_bytes), None),
        (every_nth(5, truncate), None),
        (every_nth(3, repeat_packet), None),
        # Replies come a few bytes a read: one read in 12 is about one reply in 4.
        (None, every_nth(12, drop_byte, shortest=1)),
        (None, every_nth(16, flip_bit, seed=2, shortest=1)),
        (every_nth(5, flip_bit, seed=3), every_nth(20, drop_byte, seed=4, shortest=1)),
    ],
    ids=[
        "drop",
        "corrupt",
        "duplicate-byte",
        "reorder",
        "truncate",
        "duplicate-packet",
        "lost-replies",
        "corrupt-replies",
        "both-ways",
    ],
)
def test_a_damaged_line_still_delivers_the_exact_set(
    device: Device, to_device: Mangle | None, to_host: Mangle | None
) -> None:
    line = PortInFront(device.serial, to_device=to_device, to_host=to_host)
    damaged = Device(line, timeout=0.5, retries=6)  # type: ignore[arg-type]
    stats = damaged.push(encoded(NEW))
    assert stats.retries > 0
    assert shows(device, NEW)


def test_a_host_vanishing_mid_upload_leaves_the_old_set_and_the_device_sleeps(
    device: Device,
) -> None:
    device.push(encoded(OLD))
    board = device.serial.board
    sent = 0

    def dies_after_three_chunks(data: bytes) -> bytes:
        nonlocal sent
        sent += 1
        return data if sent <= 4 else b""

    gone = Device(
        PortInFront(device.serial, to_device=dies_after_three_chunks), timeout=0.3, retries=2
    )  # type: ignore[arg-type]
    with pytest.raises(DeviceNotResponding, match="device not responding on sim://"):
        gone.push(encoded(NEW))
    assert board.run_until(lambda b: b.asleep, 5000)
    assert shows(device, OLD)
    device.push(encoded(NEW))
    assert shows(device, NEW)


def test_chunks_out_of_order_are_refused_with_the_expected_offset(device: Device) -> None:
    stream = flash_layout.set_stream(encoded(NEW))
    device._request(
        Command.BEGIN, bytes([3]) + flash_layout.set_words(encoded(NEW)).to_bytes(2, "little")
    )
    with pytest.raises(DeviceRejected) as refused:
        device._request(
            Command.CHUNK, (CHUNK_MAX).to_bytes(2, "little") + stream[CHUNK_MAX : 2 * CHUNK_MAX]
        )
    assert refused.value.code == ErrorCode.OFFSET and refused.value.detail == 0
    with pytest.raises(DeviceRejected, match="commit before the whole set arrived"):
        device._request(Command.COMMIT)
    assert device.info().frames == len(list(IMAGES.glob("*.png")))  # the built-in frames


@pytest.mark.parametrize("noise", ["random", "wrong-baud-9600", "wrong-baud-57600"])
def test_garbage_never_changes_the_set_and_the_device_sleeps_again(
    device: Device, noise: str
) -> None:
    device.push(encoded(OLD))
    board = device.serial.board
    assert board.run_until(lambda b: b.asleep, 5000)
    before = store_region(device)
    erases = board.flash_erase_count
    rng = random.Random(noise)
    if noise == "random":
        garbage = rng.randbytes(6000)
    else:
        garbage = wrong_baud_noise(rng, 3000, int(noise.rsplit("-", 1)[1]))
    assert len(garbage) > 500
    board.uart_send(garbage)
    board.run_ms(len(garbage) * 0.087 + 10)
    assert board.run_until(lambda b: b.asleep, 5000)
    assert board.flash_erase_count == erases
    assert store_region(device) == before
    board.uart_receive()
    assert shows(device, OLD)


def test_a_power_cut_at_every_flash_operation_leaves_old_or_new() -> None:
    result = power_cut_sweep(small_planes(2, seed=3, black_rows=8), OLD[:1])
    assert result.operations >= 10
    assert result.failures == []
    # Every cut before the record's own write leaves the old set. A cut
    # during that write leaves the row half programmed, which already holds
    # the whole 7-word record: by then the new set is complete and checked.
    assert (result.old_kept, result.new_complete) == (result.operations - 1, 1)


@pytest.mark.slow
def test_a_power_cut_at_every_flash_operation_of_a_replacing_push_leaves_a_whole_set() -> None:
    """link-bench's sweep of a replacing push, on sets small enough for the suite: the new
    set (36 rows) does not fit beside the old one (164 of the 188 rows), its first frame
    (8 rows) does."""
    old = small_planes(4, seed=5, black_rows=150)
    new = small_planes(1, seed=6, black_rows=20) + small_planes(1, seed=7, black_rows=100)
    result = power_cut_sweep(new, old, replace=True)
    assert result.failures == []
    assert result.operations >= 30
    # Each outcome came: the old set until the first frame's record, that frame alone
    # until the new set's record.
    assert result.old_kept > 0 and result.first_alone > 0 and result.new_complete > 0
    assert result.old_kept + result.first_alone + result.new_complete == result.operations
    with pytest.raises(ValueError, match="fits beside"):
        power_cut_sweep(new, old[:3], replace=True)


def test_a_flash_image_from_committed_set_words_boots_with_that_set(tmp_path) -> None:
    from intelhex import IntelHex

    planes = suggestion_planes(["plumb", "fjord"])
    image = IntelHex()
    for word_address, word in committed_set_words(encoded(planes)).items():
        image[2 * word_address] = word & 0xFF
        image[2 * word_address + 1] = word >> 8
    hex_path = tmp_path / "set.hex"
    image.write_hex_file(str(hex_path))
    with Device.open(f"sim://?flash_hex={hex_path}") as dev:
        assert shows(dev, planes)


def test_button_presses_arrive_as_events(device: Device) -> None:
    device.push(encoded(OLD))
    board = device.serial.board
    board.run_until(lambda b: b.asleep, 5000)
    board.press_button()
    events = device.poll_events(timeout=20.0)
    events += device.poll_events(timeout=20.0)
    assert isinstance(events[0], ButtonPressed)
    shown = [e for e in events if isinstance(e, FrameShown)]
    assert len(shown) == 1 and shown[0].ok
    frame = OLD[shown[0].index]
    assert board.panel_planes() == (frame.black, frame.red)


def test_an_unknown_command_is_refused_clearly(device: Device) -> None:
    transport = device.transport
    transport.send(Packet(0x5A, 9), wake=True)
    replies = transport.receive(1.0)
    assert replies and replies[0].payload[0] == ErrorCode.UNKNOWN_CMD


def test_clear_falls_back_to_the_built_in_frames_and_sleep_sleeps(device: Device) -> None:
    board = device.serial.board
    built_in = device.info().frames
    device.push(encoded(OLD))
    assert device.info().frames == len(OLD)
    device.clear()
    assert device.info().frames == built_in
    device.sleep()
    board.run_ms(2)
    assert board.asleep
    board.schedule_power_cut(0)
    board.power_on()
    assert device.info().frames == built_in


def test_a_set_too_big_for_the_free_flash_is_refused_and_the_old_one_kept(
    device: Device,
) -> None:
    device.push(encoded(OLD))
    # Fits an empty store (5,720 of 6,016 words), not beside the old set.
    huge = [frame_of_length(5000, 7), frame_of_length(5000, 8)]
    assert device.info().capacity_words < flash_layout.set_words(huge) < flash_layout.DATA_WORDS
    room = device.info().capacity_words
    # The host applies the store's rule to the room INFO reports: refused before BEGIN.
    with pytest.raises(LinkError, match=f"has room for {room} beside the set it holds"):
        device.push(huge)
    assert shows(device, OLD)
    # The device itself refuses the same BEGIN: one rule on both sides.
    words = flash_layout.set_words(huge)
    with pytest.raises(DeviceRejected, match="does not fit") as refused:
        device._request(Command.BEGIN, bytes([2]) + words.to_bytes(2, "little"))
    assert refused.value.code == ErrorCode.TOO_BIG
    assert refused.value.detail == room
    assert shows(device, OLD)
    # With replace: the set is too big to sit beside even its own first frame, so the
    # old set is cleared first (smaller ones go without that: test_link_replace).
    stats = device.push(huge, replace=True)
    assert (stats.bridges, stats.cleared_first) == (0, True) and device.info().frames == 2


def test_what_the_host_lets_through_the_device_takes(device: Device) -> None:
    """Sets at exactly the room INFO reports are accepted, one row more is refused."""
    device.push(encoded(OLD))
    room = device.info().capacity_words
    # One frame taking exactly `room` words (its record included), then one row more.
    fits = frame_of_length(room * 14 // 8 - flash_layout.RECORD_HEADER_BYTES)
    assert flash_layout.rows_for_words(flash_layout.set_words([fits])) * 32 <= room
    flash_layout.check_set([fits], room)
    too_big = frame_of_length(len(fits) + 32 * 14 // 8)
    with pytest.raises(ValueError, match="has room for"):
        flash_layout.check_set([too_big], room)
    with pytest.raises(DeviceRejected, match="does not fit"):
        words = flash_layout.set_words([too_big])
        device._request(Command.BEGIN, bytes([1]) + words.to_bytes(2, "little"))
    device.push([fits])
    assert device.info().frames == 1


def test_committed_set_words_is_exactly_what_a_first_upload_leaves(device: Device) -> None:
    frames = encoded(suggestion_planes(["gecko", "nymph"]))
    device.push(frames)
    board = device.serial.board
    expected = committed_set_words(frames)
    flash = {address: board.flash_read(address) for address in expected}
    assert flash == expected
    untouched = STORE_FIRST_WORD + STORE_WORDS - 1
    assert untouched not in expected and board.flash_read(untouched) == flash_layout.ERASED


def test_a_command_during_a_button_refresh_waits_for_it(device: Device) -> None:
    device.push(encoded(OLD))
    board = device.serial.board
    board.run_until(lambda b: b.asleep, 5000)
    board.press_button()
    board.run_ms(300)  # the press is in; the panel refresh has begun
    assert board.panel_powered
    assert device.info().frames == len(OLD)
    assert device.transport.reader.dropped == 0
    events = device.poll_events()
    assert any(isinstance(e, FrameShown) for e in events)
