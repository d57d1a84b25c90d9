"""Write the hand-made seeds of the fuzzers (firmware/fuzz/seeds/<fuzzer>/).

fuzz_store/long-frame-header.bin: a flash image (fuzz_store's input format)
with one valid record whose frame header claims 65,532 bytes, with the CRC
those bytes (erased flash, 0xFF) really have. Its bytes plus the 4-byte header
are 65,536: a 16-bit frame-word count wraps to 0, so a store that converted
before checking the length accepted the set and read past the end of flash.

Run from the repository root: python tools/gen_fuzz_seeds.py
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JOURNAL_ROWS = 4
FUZZ_ROWS = JOURNAL_ROWS + 64  # fuzz_store.c: FUZZ_WORDS
ROW_WORDS = 32
ERASED = 0x3FFF
DATA_FIRST_ROW = 320 + JOURNAL_ROWS  # store_layout.h


def crc16(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def long_frame_header() -> bytes:
    length = 65_532
    frame_crc = crc16(b"\xff" * length)
    header = length.to_bytes(2, "little") + frame_crc.to_bytes(2, "little")
    bits = int.from_bytes(header, "big")  # 32 bits, most significant first
    words = [ERASED] * (FUZZ_ROWS * ROW_WORDS)
    # Record in journal row 0 (fuzz_store sets the magic and the CRC: bytes 0 and 1).
    words[1:5] = [0, DATA_FIRST_ROW, 1, 0]  # generation, first row, one frame, 0 words
    # The header's 32 bits in 14-bit words; the frame's own bits are erased (1s).
    data = JOURNAL_ROWS * ROW_WORDS
    words[data] = bits >> 18
    words[data + 1] = (bits >> 4) & 0x3FFF
    words[data + 2] = ((bits & 0xF) << 10) | 0x3FF
    image = b"".join(word.to_bytes(2, "little") for word in words)
    return b"\x01\x01" + image[2:]  # row 0: magic and CRC fixed up by the fuzzer


def main() -> None:
    out = ROOT / "firmware" / "fuzz" / "seeds" / "fuzz_store" / "long-frame-header.bin"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(long_frame_header())
    print(f"{out.relative_to(ROOT)}: {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
