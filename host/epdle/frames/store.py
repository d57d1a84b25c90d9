"""The device's frame store in program flash, mirrored from
firmware/app/store_layout.h (a test checks every number against it).

Used to lay out an upload exactly as the firmware's store does, to tell what
fits (one rule for host and device), and to build the flash words (and the
Intel HEX) of a device that ships with a committed set. No pyserial, Pillow or
numpy: the link, the renderer and the command line all build on it.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from pathlib import Path

from intelhex import IntelHex

from epdle.crc import crc16

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
# Each frame's record in the set stream: length and CRC-16, both little-endian.
RECORD_HEADER_BYTES = 4
# The longest frame the data area could hold (7 bytes in 4 words, less its header).
FRAME_MAX_BYTES = (DATA_WORDS // 4) * 7 - RECORD_HEADER_BYTES

# The design budget of one suggestion frame (tests/render checks every design stays
# inside it), and so how many suggestion frames a set may hold: the store takes that
# many frames of the budget's size in one set.
SUGGESTION_FRAME_BUDGET_BYTES = 1024

RECORD_MAGIC = 0x2E5D


def frame_words(length: int) -> int:
    """Flash words a frame of `length` bytes takes, its header included."""
    bits = (length + RECORD_HEADER_BYTES) * 8
    return -(-bits // BITS_PER_WORD)


def set_words(frames: Sequence[bytes]) -> int:
    """Flash words a set takes: what BEGIN announces and the store compares with its room."""
    return sum(frame_words(len(frame)) for frame in frames)


MAX_SUGGESTION_FRAMES = min(MAX_FRAMES, DATA_WORDS // frame_words(SUGGESTION_FRAME_BUDGET_BYTES))


def rows_for_words(words: int) -> int:
    return -(-words // ROW_WORDS)


def check_set(frames: Sequence[bytes], room_words: int = DATA_WORDS) -> None:
    """The one capacity rule, the firmware's store_write_begin: at most MAX_FRAMES frames,
    each 1..FRAME_MAX_BYTES bytes, taking no more flash rows than the store has free
    (`room_words`, as INFO reports it: the largest free run beside the current set).
    ValueError saying what does not fit."""
    if not frames:
        raise ValueError("a frame set holds at least one frame")
    if len(frames) > MAX_FRAMES:
        raise ValueError(f"{len(frames)} frames: the device holds at most {MAX_FRAMES}")
    for number, frame in enumerate(frames, start=1):
        if not 0 < len(frame) <= FRAME_MAX_BYTES:
            raise ValueError(f"frame {number} has {len(frame)} bytes (1 to {FRAME_MAX_BYTES})")
    words = set_words(frames)
    if words > DATA_WORDS:
        raise ValueError(
            f"the set takes {words} flash words; the device's store holds {DATA_WORDS} at most"
        )
    if rows_for_words(words) * ROW_WORDS > room_words:
        raise ValueError(f"the set takes {words} flash words; the device has room for {room_words}")


def frame_record(frame: bytes) -> bytes:
    """A frame as the set stream carries it: length, CRC (both LE), bytes."""
    if not 0 < len(frame) <= FRAME_MAX_BYTES:
        raise ValueError(f"a frame must hold 1..{FRAME_MAX_BYTES} bytes, not {len(frame)}")
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
    check_set(frames)
    words: list[int] = []
    for frame in frames:
        words += pack_words(frame_record(frame))
    words += [ERASED] * (-len(words) % ROW_WORDS)
    image = {DATA_FIRST_ROW * ROW_WORDS + i: word for i, word in enumerate(words)}
    record = record_words(DATA_FIRST_ROW, len(frames), set_words(frames), generation=0)
    image.update({REGION_FIRST_ROW * ROW_WORDS + i: word for i, word in enumerate(record)})
    return image


def intel_hex(frames: Sequence[bytes]) -> IntelHex:
    """The committed set's flash words as PIC Intel HEX: byte address 2 x word, little-endian."""
    image = IntelHex()
    for word_address, word in committed_set_words(list(frames)).items():
        image[2 * word_address] = word & 0xFF
        image[2 * word_address + 1] = word >> 8
    return image


def read_hex(path: Path) -> IntelHex:
    """An Intel HEX file; ValueError in plain words if it is missing or is not one."""
    from intelhex import HexReaderError

    try:
        with open(path, encoding="ascii", errors="replace") as stream:
            return IntelHex(stream)
    except OSError as error:
        raise ValueError(f"cannot read {path}: {(error.strerror or str(error)).lower()}") from None
    except HexReaderError as error:
        raise ValueError(f"{path} is not an Intel HEX file ({error})") from None


def words_from_hex(path: Path) -> dict[int, int]:
    """Flash words of a PIC Intel HEX file (byte address = 2 x word address,
    little-endian); data outside program flash (config, EEPROM) is skipped."""
    image = read_hex(path)
    words: dict[int, int] = {}
    for byte_address in image.addresses():
        word_address = byte_address // 2
        if word_address >= FLASH_WORDS or word_address in words:
            continue
        low = image[2 * word_address]
        high = image[2 * word_address + 1]
        words[word_address] = (low | high << 8) & WORD_MASK
    return words


def unpack_words(words: Sequence[int], byte_count: int) -> bytes:
    """The first `byte_count` bytes of the bit stream in `words` (inverse of pack_words)."""
    value = 0
    for word in words:
        value = value << BITS_PER_WORD | (word & WORD_MASK)
    spare = len(words) * BITS_PER_WORD - byte_count * 8
    if spare < 0:
        raise ValueError(f"{len(words)} words hold fewer than {byte_count} bytes")
    return (value >> spare).to_bytes(byte_count, "big")


def committed_frames(image: dict[int, int]) -> list[bytes]:
    """The frames of the current set in flash words `image` (e.g. words_from_hex of a
    file `epdle image --out set.hex` wrote): the journal's newest valid record, then every
    frame's record checked. ValueError if the words hold no intact set."""
    best: tuple[int, int, int, int] | None = None
    for row in range(REGION_FIRST_ROW, REGION_FIRST_ROW + JOURNAL_ROWS):
        fields = [image.get(row * ROW_WORDS + i, ERASED) for i in range(7)]
        magic, generation, first_row, count, words, crc_high, crc_low = fields
        crc = crc16(b"".join(struct.pack("<H", field) for field in fields[:5]))
        if magic != RECORD_MAGIC or (crc_high, crc_low) != (crc >> 8, crc & 0xFF):
            continue
        if best is None or generation > best[0]:
            best = (generation, first_row, count, words)
    if best is None:
        raise ValueError("no committed frame set (no valid journal record)")
    _, first_row, count, total = best
    base = first_row * ROW_WORDS
    data = [image.get(base + i, ERASED) for i in range(total)]
    frames: list[bytes] = []
    at = 0
    for number in range(1, count + 1):
        header_words = frame_words(0)
        if at + header_words > total:
            raise ValueError(f"frame {number} of {count} runs past the set's {total} words")
        length, crc = struct.unpack("<HH", unpack_words(data[at : at + header_words], 4))
        size = frame_words(length)
        if length == 0 or at + size > total:
            raise ValueError(f"frame {number} of {count}: bad length {length}")
        frame = unpack_words(data[at : at + size], RECORD_HEADER_BYTES + length)[4:]
        if crc16(frame) != crc:
            raise ValueError(f"frame {number} of {count}: CRC mismatch")
        frames.append(frame)
        at += size
    if at != total:
        raise ValueError(f"the set's frames take {at} words, its record says {total}")
    return frames
