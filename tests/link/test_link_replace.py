"""A set that does not fit beside the stored one (`push --replace`, and every push of
`play`, the daemon and the web page): a power cut at any flash operation of it leaves
the device a complete set, the old one, the new one's first frame alone, or the new one."""

from __future__ import annotations

import random

from link_sim_support import frame_of_length

from epdle.frames import store
from epdle.link import Device, LinkError

ROW_BYTES = store.ROW_WORDS * store.BITS_PER_WORD // 8  # 56


def frames_of_rows(rows: list[int], seed: int) -> list[bytes]:
    """Frames taking about these many flash rows each (header included)."""
    return [frame_of_length(2 * ((r * ROW_BYTES - 8) // 2), seed + i) for i, r in enumerate(rows)]


# The old set fills the data area's first 150 rows; the new one (41 rows) does not fit in
# the 38 after it, but does before it once a set of its first frame alone moved aside.
OLD = frames_of_rows([75, 75], seed=1)
NEW = frames_of_rows([1, 20, 20], seed=5)


def rows(frames: list[bytes]) -> int:
    return store.rows_for_words(store.set_words(frames))


def store_words(device: Device) -> dict[int, int]:
    board = device.serial.board
    first = store.REGION_FIRST_ROW * store.ROW_WORDS
    return {a: board.flash_read(a) for a in range(first, first + store.REGION_ROWS * 32)}


def device_with_old_set() -> Device:
    device = Device.open("sim://", timeout=0.5, retries=2)
    device.serial.board.flash_load(store.committed_set_words(OLD))
    return device


def test_the_sets_are_as_the_scenario_needs() -> None:
    assert rows(OLD) == 150 and store.DATA_ROWS - rows(OLD) < rows(NEW) <= rows(OLD)


def test_a_replacing_push_never_clears_the_stored_set_first() -> None:
    random.seed(3)
    with device_with_old_set() as device:
        stats = device.push(NEW, replace=True)
        assert not stats.cleared_first and stats.bridges == 1
        assert store.committed_frames(store_words(device)) == NEW
        assert device.info().frames == len(NEW)


def test_a_power_cut_at_every_flash_operation_of_a_replacing_push_leaves_a_whole_set() -> None:
    random.seed(4)
    with device_with_old_set() as device:
        board = device.serial.board
        before = board.nvm_op_count
        device.push(NEW, replace=True)
        operations = board.nvm_op_count - before
    seen = {"old": 0, "first": 0, "new": 0}
    failures = []
    for cut in range(1, operations + 1):
        with device_with_old_set() as device:
            board = device.serial.board
            device.info()
            board.schedule_power_cut(cut)
            try:
                device.push(NEW, replace=True)
                failures.append(f"cut {cut}: the push finished despite the cut")
                continue
            except LinkError:
                pass
            board.power_on()
            info = device.info()
            try:
                held = store.committed_frames(store_words(device))
            except ValueError as error:
                failures.append(f"cut {cut}: no set in flash ({error})")
                continue
            name = {len(OLD): "old", 1: "first", len(NEW): "new"}[info.frames]
            expected = {"old": OLD, "first": NEW[:1], "new": NEW}[name]
            if held != expected:
                failures.append(f"cut {cut}: INFO says {info.frames} frames, flash holds others")
            seen[name] += 1
    assert failures == []
    assert operations > 40 and all(seen.values()), seen


def test_sets_within_the_replaceable_size_never_clear_the_store() -> None:
    """Pushes one after another, each of random frames (up to the suggestion budget)
    within REPLACEABLE_SET_ROWS, as play, the daemon and the web page make them."""
    rng = random.Random(9)
    budget_rows = store.rows_for_words(store.frame_words(store.SUGGESTION_FRAME_BUDGET_BYTES))
    random.seed(9)
    bridged = 0
    with Device.open("sim://") as device:
        for push in range(8):
            sizes = [rng.randint(1, budget_rows) for _ in range(store.MAX_SUGGESTION_FRAMES)]
            frames = store.replaceable_prefix(frames_of_rows(sizes, seed=10 * push))
            assert rows(frames) <= store.REPLACEABLE_SET_ROWS
            stats = device.push(frames, replace=True)
            assert not stats.cleared_first, push
            assert store.committed_frames(store_words(device)) == frames
            bridged += stats.bridges
    assert bridged >= 3  # the sets did not fit beside each other, mostly


def test_the_replaceable_prefix_keeps_the_first_frames_within_the_size() -> None:
    budget = store.SUGGESTION_FRAME_BUDGET_BYTES
    frames = [frame_of_length(budget, n) for n in range(store.MAX_SUGGESTION_FRAMES)]
    kept = store.replaceable_prefix(frames)
    assert kept == frames[: len(kept)]
    assert rows(kept) <= store.REPLACEABLE_SET_ROWS < rows(frames[: len(kept) + 1])
    assert store.replaceable_prefix(frames[:3]) == frames[:3]
