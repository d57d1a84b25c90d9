"""No packet shrinks into a valid one: every truncation and every single lost byte of
every packet type is dropped by the host's reader (the device's decoder: the C test
tests/firmware/link/test_protocol.c), whatever its seq and the CRC that comes of it."""

from __future__ import annotations

import struct

import pytest

from epdle.link.protocol import (
    DELIMITER,
    INFO_PAYLOAD_BYTES,
    Command,
    EventType,
    Packet,
    PacketReader,
    Reply,
    cobs_decode,
)

# A payload for each packet type, as the device or host sends it.
PAYLOADS: dict[int, bytes] = {
    Command.INFO: b"",
    Command.BEGIN: struct.pack("<BH", 3, 1200),
    Command.CHUNK: struct.pack("<H", 148) + bytes(range(1, 75)),
    Command.COMMIT: b"",
    Command.SHOW: b"\x02",
    Command.CLEAR: b"",
    Command.SLEEP: b"",
    Reply.ACK: struct.pack("<H", 222),
    Reply.ERROR: struct.pack("<BH", 5, 148),
    Reply.INFO: bytes([2, 0, 1, 0, 0x80, 0x17, 8, 3, 32, 74])[:INFO_PAYLOAD_BYTES].ljust(
        INFO_PAYLOAD_BYTES, b"\0"
    ),
    EventType.BUTTON: b"",
    EventType.SHOWN: b"\x03\x00",
    EventType.ERROR: struct.pack("<BH", 1, 80),
}


def damaged_copies(wire: bytes) -> list[bytes]:
    """Every truncation (the delimiter coming early) and every single lost byte of
    one packet's wire bytes (its delimiter kept)."""
    encoded = wire[:-1]
    cut = [encoded[:length] for length in range(1, len(encoded))]
    lost = [encoded[:at] + encoded[at + 1 :] for at in range(len(encoded))]
    return [copy + bytes([DELIMITER]) for copy in cut + lost if copy]


def last_zero_packets(kind: int, payload: bytes) -> list[Packet]:
    """Packets of this type whose decoded bytes end in 0x00 (the CRC's low byte): those
    whose last COBS code byte, once lost, took only that zero with it."""
    found = []
    for seq in range(256):
        for variant in range(4 if payload else 1):
            body = payload[:-1] + bytes([(payload[-1] + variant) % 256]) if payload else b""
            packet = Packet(kind, seq, body)
            if cobs_decode(packet.encode()[:-1])[-1] == 0:
                found.append(packet)
    return found


@pytest.mark.parametrize("kind", list(PAYLOADS), ids=lambda kind: f"{kind:#04x}")
def test_no_truncation_nor_lost_byte_passes_the_reader(kind: int) -> None:
    payload = PAYLOADS[kind]
    packets = [Packet(kind, seq, payload) for seq in range(256)]
    ending_in_zero = last_zero_packets(kind, payload)
    # The dangerous case is there for every type to check it against.
    assert ending_in_zero
    for packet in packets + ending_in_zero:
        reader = PacketReader()
        for damaged in damaged_copies(packet.encode()):
            passed = reader.feed(damaged)
            assert passed == [], f"{damaged.hex()} (of {packet}) read as {passed}"
        # Whole, it still reads.
        assert reader.feed(packet.encode()) == [packet]


def test_a_chunk_ack_that_lost_its_last_code_byte_is_dropped() -> None:
    """The campaign's crash (seed 99): a CHUNK ACK one byte short passed as a valid
    packet with a 1-byte payload."""
    for packet in last_zero_packets(Reply.ACK, PAYLOADS[Reply.ACK]):
        wire = packet.encode()
        assert PacketReader().feed(wire[:-2] + wire[-1:]) == []
