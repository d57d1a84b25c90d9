"""Store layout: the mirror of store_layout.h and the word packing."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st
from link_c_headers import header_defines

from epdle.crc import crc16
from epdle.frames import store as flash_layout
from epdle.frames.store import (
    committed_set_words,
    frame_words,
    pack_words,
    record_words,
    set_stream,
)

HAL_NAMES = {"HAL_FLASH_ROW_WORDS": "ROW_WORDS", "HAL_FLASH_ERASED": "ERASED"}
# C names whose Python twin says more (the frame format has a header of its own).
RENAMED = {"STORE_FRAME_HEADER_BYTES": "RECORD_HEADER_BYTES"}


def test_every_store_layout_number_has_the_same_python_value() -> None:
    defines = header_defines("hal/hal.h", "app/store_layout.h")
    for c_name, py_name in HAL_NAMES.items():
        assert getattr(flash_layout, py_name) == defines[c_name]
    assert defines["HAL_FLASH_WORDS"] == flash_layout.FLASH_WORDS
    checked = 0
    for name, value in defines.items():
        record_index = name.endswith("_AT") or name == "STORE_RECORD_WORDS"
        if not name.startswith("STORE_") or record_index:
            continue
        python_name = RENAMED.get(name, name.removeprefix("STORE_"))
        assert getattr(flash_layout, python_name) == value, name
        checked += 1
    assert checked >= 12


def test_record_fields_sit_where_the_header_says() -> None:
    at = header_defines("app/store_layout.h")
    row = record_words(first_row=300, count=5, words=1234, generation=77)
    assert len(row) == flash_layout.ROW_WORDS
    assert row[at["STORE_RECORD_MAGIC_AT"]] == flash_layout.RECORD_MAGIC
    assert row[at["STORE_RECORD_GENERATION_AT"]] == 77
    assert row[at["STORE_RECORD_FIRST_ROW_AT"]] == 300
    assert row[at["STORE_RECORD_COUNT_AT"]] == 5
    assert row[at["STORE_RECORD_WORDS_AT"]] == 1234
    crc = crc16(struct.pack("<5H", flash_layout.RECORD_MAGIC, 77, 300, 5, 1234))
    assert row[at["STORE_RECORD_CRC_HIGH_AT"]] == crc >> 8
    assert row[at["STORE_RECORD_CRC_LOW_AT"]] == crc & 0xFF
    assert row[at["STORE_RECORD_WORDS"] :] == [flash_layout.ERASED] * (32 - 7)


def test_seven_bytes_fill_four_words_msb_first() -> None:
    data = bytes([0xFF, 0x00, 0xAA, 0x55, 0x01, 0x80, 0x7E])
    bits = "".join(f"{b:08b}" for b in data)
    assert pack_words(data) == [int(bits[i : i + 14], 2) for i in range(0, 56, 14)]


def test_a_partial_word_is_padded_with_ones() -> None:
    assert pack_words(b"\x00") == [0b00000000111111]


@given(st.integers(1, 6000))
def test_frame_words_counts_the_packed_header_and_bytes(length: int) -> None:
    assert frame_words(length) == len(pack_words(bytes(length + 4)))


def test_committed_set_lays_frames_from_the_data_area_on_word_boundaries() -> None:
    frames = [bytes(range(1, 100)), b"\x00" * 11, bytes([7])]
    image = committed_set_words(frames)
    base = flash_layout.DATA_FIRST_ROW * flash_layout.ROW_WORDS
    at = base
    for frame in frames:
        record = struct.pack("<HH", len(frame), crc16(frame)) + frame
        words = pack_words(record)
        assert [image[at + i] for i in range(len(words))] == words
        at += len(words)
    assert at - base == flash_layout.set_words(frames)
    assert all(image[a] == flash_layout.ERASED for a in range(at, at + (-(at - base) % 32)))
    journal = flash_layout.REGION_FIRST_ROW * flash_layout.ROW_WORDS
    assert [image[journal + i] for i in range(32)] == record_words(
        flash_layout.DATA_FIRST_ROW, 3, at - base, generation=0
    )
    assert set_stream(frames)[:4] == struct.pack("<HH", 99, crc16(frames[0]))


def test_committed_set_refuses_what_the_store_cannot_hold() -> None:
    with pytest.raises(ValueError, match="at most"):
        committed_set_words([b"x"] * (flash_layout.MAX_FRAMES + 1))
    with pytest.raises(ValueError, match="flash words"):
        committed_set_words([bytes(9000), bytes(9000)])
    with pytest.raises(ValueError, match="1 to 10524"):
        committed_set_words([b""])
