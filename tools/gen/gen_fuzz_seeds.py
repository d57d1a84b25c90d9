"""Write the hand-made seeds of the fuzzers (firmware/fuzz/seeds/<fuzzer>/).

fuzz_store/long-frame-header.bin: a flash image (fuzz_store's input format)
with one valid record whose frame header claims 65,532 bytes, with the CRC
those bytes (erased flash, 0xFF) really have. Its bytes plus the 4-byte header
are 65,536: a 16-bit frame-word count wraps to 0, so a store that converted
before checking the length accepted the set and read past the end of flash.

fuzz_link/*.bin: packet-mode inputs (fuzz_link.c: byte 0 bit 0 set, byte 1 under 200:
no power cut, then records [length][type][payload]) that take an upload where random
bytes seldom get: a CHUNK accepted (chunk-accepted), a whole set committed
(commit-accepted), a COMMIT sent again and answered from the device's copy of its
reply (cached-resend: BEGIN's), a frame with a right CRC that does not decode refused at
COMMIT (commit-refused), and a CHUNK whose decoded packet ends in 0x00 (its CRC's low
byte) sent without its last COBS code byte, so that it is that packet one byte short
(truncated-chunk: reported damaged, never taken for a shorter CHUNK; protocol 1 took
it). tests/firmware/link/test_fuzz_seeds.c replays them through the harness and checks
each gets there.

Run from the repository root: python tools/gen/gen_fuzz_seeds.py
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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


# protocol.h
CMD_BEGIN, CMD_CHUNK, CMD_COMMIT = 0x02, 0x03, 0x04
CHUNK_MAX = 74
RESEND = b"\x00\xff"  # fuzz_link.c: send the previous packet again
TRUNCATE = b"\x00\xfe"  # fuzz_link.c: the next packet loses its last byte before the delimiter
CRC_BYTES = 2


def packet_crc(body: bytes) -> int:
    """The link's CRC (docs/protocol.md): the decoded length, CRC included, then the body."""
    return crc16(bytes([len(body) + CRC_BYTES]) + body)


def frame_words(length: int) -> int:
    return -(-(length + 4) * 8 // 14)


def valid_frame() -> bytes:
    """A frame that decodes (docs/frame-format.md): one window of one byte column and
    one row, every pixel coded "1"."""
    return bytes([1, 1, 0, 0, 1, 1, 0, 0, 0xFF, 0xFF])


def record(kind: int, payload: bytes = b"") -> bytes:
    return bytes([1 + len(payload), kind]) + payload


def upload(frame: bytes, commit: bool = True, resend_begin: bool = False) -> bytes:
    """BEGIN, CHUNKs, COMMIT of a one-frame set. The harness queues every packet at
    once, so only BEGIN (no flash written) is sent again: a packet that came during a
    flash write would be lost to the stalled CPU, as the protocol's stop-and-wait says."""
    stream = len(frame).to_bytes(2, "little") + crc16(frame).to_bytes(2, "little") + frame
    records = record(CMD_BEGIN, bytes([1]) + frame_words(len(frame)).to_bytes(2, "little"))
    if resend_begin:
        records += RESEND
    pieces = [stream[at : at + CHUNK_MAX] for at in range(0, len(stream), CHUNK_MAX)]
    for number, piece in enumerate(pieces):
        records += record(CMD_CHUNK, (number * CHUNK_MAX).to_bytes(2, "little") + piece)
    if commit:
        records += record(CMD_COMMIT)
    return records


def truncated_chunk() -> bytes:
    """BEGIN, then the first CHUNK of a one-frame set without its last COBS code byte. The
    harness numbers packets from 1 (the CHUNK is seq 2); the chunk's length and the
    frame's filler are picked so that its decoded packet ends in 0x00: the byte that
    code byte stood for, so the decoded packet is one byte short and otherwise whole."""
    for filler in range(1, 256):
        frame = bytes([1, 1, 0, 0, 1, 8, 0, 0]) + bytes([filler]) * 16
        stream = len(frame).to_bytes(2, "little") + crc16(frame).to_bytes(2, "little") + frame
        for length in range(1, len(stream) + 1):
            body = bytes([CMD_CHUNK, 2, 0, 0]) + stream[:length]
            if packet_crc(body) & 0xFF == 0:
                begin = record(
                    CMD_BEGIN, bytes([1]) + frame_words(len(frame)).to_bytes(2, "little")
                )
                return begin + TRUNCATE + record(CMD_CHUNK, body[2:])
    raise AssertionError("no chunk ends in 0x00")


def link_seeds() -> dict[str, bytes]:
    mode = b"\x01\x00"  # packet records over an empty store, no power cut
    frame = valid_frame()
    undecodable = bytes(10)  # version 0: a right CRC, no frame
    return {
        "chunk-accepted.bin": mode + upload(frame, commit=False),
        "commit-accepted.bin": mode + upload(frame),
        "cached-resend.bin": mode + upload(frame, resend_begin=True),
        "commit-refused.bin": mode + upload(undecodable),
        "truncated-chunk.bin": mode + truncated_chunk(),
    }


def main() -> None:
    seeds = ROOT / "firmware" / "fuzz" / "seeds"
    files = {seeds / "fuzz_store" / "long-frame-header.bin": long_frame_header()}
    files |= {seeds / "fuzz_link" / name: data for name, data in link_seeds().items()}
    for out, data in files.items():
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        print(f"{out.relative_to(ROOT)}: {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
