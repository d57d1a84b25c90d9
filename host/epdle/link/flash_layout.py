"""The device's frame store in program flash, mirrored from
firmware/app/store_layout.h (a test checks every number against it).

Used to lay out an upload exactly as the firmware's store does, and to build
the flash words of a device that ships with a committed set.
"""

from __future__ import annotations

import struct
from pathlib import Path

from intelhex import IntelHex

from .protocol import crc16

FLASH_WORDS = 16384
ROW_WORDS = 32
ERASED = 0x3FFF
BITS_PER_WORD = 14
WORD_MASK = 0x3FFF

REGION_FIRST_ROW = 320
REGION_ROWS = 192
JOURNAL_ROWS = 4
DATA_FIRST_ROW = REGION_FIRST_ROW + JOURNAL_ROWS
DATA_ROWS = REGION_ROWS - JOURNAL_ROWS
DATA_WORDS = DATA_ROWS * ROW_WORDS

MAX_FRAMES = 32
FRAME_HEADER_BYTES = 4
# The longest frame the data area could hold (7 bytes in 4 words, less its header).
FRAME_MAX_BYTES = (DATA_WORDS // 4) * 7 - FRAME_HEADER_BYTES

RECORD_MAGIC = 0x2E5D
GENERATION_LIMIT = 0x3FFF


def frame_words(length: int) -> int:
    """Flash words a frame of `length` bytes takes, its header included."""
    bits = (length + FRAME_HEADER_BYTES) * 8
    return -(-bits // BITS_PER_WORD)


def set_words(frames: list[bytes]) -> int:
    return sum(frame_words(len(frame)) for frame in frames)


def frame_record(frame: bytes) -> bytes:
    """A frame as the set stream carries it: length, CRC (both LE), bytes."""
    if not 0 < len(frame) <= FRAME_MAX_BYTES:
        raise ValueError(
            f"a frame of {len(frame)} bytes: the store holds frames of 1..{FRAME_MAX_BYTES} bytes"
        )
    return struct.pack("<HH", len(frame), crc16(frame)) + frame


def set_stream(frames: list[bytes]) -> bytes:
    """The bytes an upload sends: every frame's record, in order."""
    return b"".join(frame_record(frame) for frame in frames)


def pack_words(data: bytes) -> list[int]:
    """Bytes as one MSB-first bit stream, 14 bits a word, last word padded with 1s."""
    value = int.from_bytes(data, "big")
    bits = len(data) * 8
    count = -(-bits // BITS_PER_WORD)
    pad = count * BITS_PER_WORD - bits
    value = (value << pad) | ((1 << pad) - 1)
    return [(value >> (BITS_PER_WORD * (count - 1 - i))) & WORD_MASK for i in range(count)]


def record_words(first_row: int, count: int, words: int, generation: int) -> list[int]:
    """The journal row that makes a set current."""
    fields = [RECORD_MAGIC, generation, first_row, count, words]
    crc = crc16(b"".join(struct.pack("<H", field) for field in fields))
    row = [*fields, crc >> 8, crc & 0xFF]
    return row + [ERASED] * (ROW_WORDS - len(row))


def committed_set_words(frames: list[bytes]) -> dict[int, int]:
    """Word address -> 14-bit word of a flash holding `frames` as the current
    set (at the start of the data area, journal row 0, generation 0), exactly
    as the firmware's store leaves it after a successful commit."""
    if len(frames) > MAX_FRAMES:
        raise ValueError(f"{len(frames)} frames: the store holds at most {MAX_FRAMES}")
    words: list[int] = []
    for frame in frames:
        words += pack_words(frame_record(frame))
    if len(words) > DATA_WORDS:
        raise ValueError(f"the set takes {len(words)} flash words; the store has {DATA_WORDS}")
    words += [ERASED] * (-len(words) % ROW_WORDS)
    image = {DATA_FIRST_ROW * ROW_WORDS + i: word for i, word in enumerate(words)}
    record = record_words(DATA_FIRST_ROW, len(frames), set_words(frames), generation=0)
    image.update({REGION_FIRST_ROW * ROW_WORDS + i: word for i, word in enumerate(record)})
    return image


def words_from_hex(path: Path) -> dict[int, int]:
    """Flash words of a PIC Intel HEX file (byte address = 2 x word address,
    little-endian); data outside program flash (config, EEPROM) is skipped."""
    image = IntelHex(str(path))
    words: dict[int, int] = {}
    for byte_address in image.addresses():
        word_address = byte_address // 2
        if word_address >= FLASH_WORDS or word_address in words:
            continue
        low = image[2 * word_address]
        high = image[2 * word_address + 1]
        words[word_address] = (low | high << 8) & WORD_MASK
    return words
