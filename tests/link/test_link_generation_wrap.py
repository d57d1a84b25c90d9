"""The journal's generation counter wraps (0..0x3FFE, serial-number order): the host's
flash reader picks the set the firmware picks, on both sides of the wrap."""

from __future__ import annotations

import random

from link_sim_support import encoded, frame_of_length, small_planes

from epdle.frames import store
from epdle.link import Device

SETS = [encoded(small_planes(1 + n % 2, seed=20 + n)) for n in range(5)]
REGION = range(
    store.REGION_FIRST_ROW * store.ROW_WORDS,
    (store.REGION_FIRST_ROW + store.REGION_ROWS) * store.ROW_WORDS,
)


def store_words(dev: Device) -> dict[int, int]:
    board = dev.serial.board
    return {address: board.flash_read(address) for address in REGION}


def generations(image: dict[int, int]) -> list[int]:
    first = store.REGION_FIRST_ROW * store.ROW_WORDS
    return sorted(
        image[first + row * store.ROW_WORDS + 1]
        for row in range(store.JOURNAL_ROWS)
        if image[first + row * store.ROW_WORDS] == store.RECORD_MAGIC
    )


def test_the_host_reads_the_set_the_firmware_committed_across_the_wrap() -> None:
    """The device starts from a set at generation 0x3FFD; four uploads take the counter
    through 0x3FFE, 0, 1 and 2, and after each one the host reads that set back."""
    random.seed(5)
    start = store.GENERATION_LIMIT - 2
    with Device.open("sim://") as dev:
        # The firmware has not run yet: it boots onto this flash.
        dev.serial.board.flash_load(store.committed_set_words(SETS[0], generation=start))
        assert dev.info().frames == len(SETS[0])
        assert store.committed_frames(store_words(dev)) == SETS[0]
        seen = []
        for frames in SETS[1:]:
            dev.push(frames)
            image = store_words(dev)
            seen.append(max(generations(image), key=lambda g: (g - start) % store.GENERATION_LIMIT))
            assert store.committed_frames(image) == frames
    assert seen == [0x3FFE, 0, 1, 2]


def lay(
    image: dict[int, int], frames: list[bytes], first_row: int, journal_row: int, generation: int
) -> None:
    """Put `frames` at `first_row` and their record, with `generation`, in `journal_row`."""
    words: list[int] = []
    for frame in frames:
        words += store.pack_words(store.frame_record(frame))
    image.update({first_row * store.ROW_WORDS + i: word for i, word in enumerate(words)})
    record = store.record_words(first_row, len(frames), store.set_words(frames), generation)
    first = (store.REGION_FIRST_ROW + journal_row) * store.ROW_WORDS
    image.update({first + i: word & store.WORD_MASK for i, word in enumerate(record)})


def test_a_newest_record_whose_frames_fail_yields_to_the_one_before() -> None:
    """As at the device's reset: the newest well-formed record whose set checks out."""
    old = SETS[1]
    image = store.committed_set_words(old, generation=0x3FFE)
    lay(image, SETS[2], store.DATA_FIRST_ROW + 100, journal_row=1, generation=0)
    assert store.committed_frames(image) == SETS[2]
    # The newer set's first row torn (a cut while it was written, say).
    image[(store.DATA_FIRST_ROW + 100) * store.ROW_WORDS + 3] ^= 0x0100
    assert store.committed_frames(image) == old


def test_a_record_with_a_generation_out_of_range_is_not_a_set() -> None:
    """The firmware takes no record at generation 0x3FFF (the erased word): the set
    before it stays current."""
    generation = store.GENERATION_LIMIT
    frames = [frame_of_length(100)]
    image = store.committed_set_words(frames, generation=5)
    lay(image, SETS[3], store.DATA_FIRST_ROW + 100, journal_row=2, generation=generation)
    assert store.committed_frames(image) == frames
