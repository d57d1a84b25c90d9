"""Packet format: the Python mirror of protocol.h, COBS, CRC, the reader."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from link_c_headers import header_defines

from epdle.link import protocol
from epdle.link.protocol import (
    Command,
    ErrorCode,
    EventType,
    Packet,
    PacketReader,
    Reply,
    ResetCause,
    cobs_decode,
    cobs_encode,
    crc16,
)

ENUMS = {
    "CMD_": Command,
    "RSP_": Reply,
    "EVT_": EventType,
    "ERR_": ErrorCode,
    "RESET_": ResetCause,
}


def test_every_protocol_h_number_has_the_same_python_value() -> None:
    defines = {
        name.removeprefix("LINK_"): value
        for name, value in header_defines("app/protocol.h").items()
        if name.startswith("LINK_")
    }
    checked = 0
    for name, value in defines.items():
        for prefix, enum in ENUMS.items():
            if name.startswith(prefix):
                assert enum[name.removeprefix(prefix)] == value, name
                break
        else:
            assert getattr(protocol, name) == value, name
        checked += 1
    assert checked >= 35
    for prefix, enum in ENUMS.items():
        for member in enum:
            assert defines[prefix + member.name] == member.value


def test_the_protocol_doc_gives_the_headers_packet_sizes() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    defines = header_defines("app/protocol.h")
    row = re.search(r"^\| 0\.\.(\d+) \| payload \(`LINK_PAYLOAD_MAX`\) \|$", doc, re.MULTILINE)
    assert row is not None and int(row.group(1)) == defines["LINK_PAYLOAD_MAX"]
    largest = re.search(r"The largest decoded packet is (\d+) bytes", doc)
    assert largest is not None and int(largest.group(1)) == defines["LINK_PACKET_MAX"]
    chunk = re.search(r"offset u16, 1\.\.(\d+) stream bytes", doc)
    assert chunk is not None and int(chunk.group(1)) == defines["LINK_CHUNK_MAX"]


def test_crc16_is_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1


def test_cobs_textbook_vector() -> None:
    assert cobs_encode(bytes([0x11, 0x22, 0x00, 0x33])) == bytes([0x03, 0x11, 0x22, 0x02, 0x33])


@given(st.binary(max_size=700))
def test_cobs_round_trips_without_zero_bytes(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert cobs_decode(encoded) == data


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=protocol.PAYLOAD_MAX))
def test_packets_survive_the_reader(kind: int, seq: int, payload: bytes) -> None:
    wire = Packet(kind, seq, payload).encode()
    assert wire.count(0) == 1 and wire[-1] == 0
    assert PacketReader().feed(wire) == [Packet(kind, seq, payload)]


def test_reader_drops_a_damaged_packet_and_keeps_the_next() -> None:
    good = Packet(Reply.ACK, 7, b"\x10\x00").encode()
    damaged = bytearray(Packet(Reply.INFO, 6, bytes(10)).encode())
    damaged[3] ^= 0x20
    reader = PacketReader()
    # Split at odd places: packets may arrive in pieces.
    wire = bytes(damaged) + good
    packets = reader.feed(wire[:5]) + reader.feed(wire[5:17]) + reader.feed(wire[17:])
    assert packets == [Packet(Reply.ACK, 7, b"\x10\x00")]
    assert reader.dropped == 1


def test_reader_survives_random_noise_then_reads_a_packet() -> None:
    noise = random.Random(4).randbytes(5000)
    reader = PacketReader()
    found = reader.feed(noise)
    # Noise passes only where a CRC-16 happens to check out (1 in 65536).
    assert found == []
    assert reader.dropped > 10
    assert reader.feed(b"\x00" + Packet(Reply.ACK, 1).encode()) == [Packet(Reply.ACK, 1)]


def test_push_refuses_sets_no_device_could_store_before_sending() -> None:
    from epdle.link import Device, LinkError

    class NoPort:
        port = "nowhere"

        def write(self, data: bytes) -> int:
            raise AssertionError("nothing may be sent")

    device = Device(NoPort())  # type: ignore[arg-type]
    with pytest.raises(LinkError, match="store holds"):
        device.push([bytes(5_000)] * 3)  # 8,574 words: more than the whole store
    with pytest.raises(LinkError, match="has 20000 bytes"):
        device.push([bytes(20_000)])
    with pytest.raises(LinkError, match="at most 32"):
        device.push([b"x"] * 33)
    with pytest.raises(LinkError, match="has 0 bytes"):
        device.push([b""])
