"""The host checks what the device answers: the protocol it speaks (a device of another
version is named in one line), and every reply's length (a CHUNK ACK one byte short is
asked for again, never unpacked)."""

from __future__ import annotations

import struct
from collections.abc import Callable

import pytest

from epdle.crc import crc16
from epdle.link import Device, LinkError
from epdle.link.protocol import (
    DELIMITER,
    INFO_PAYLOAD_BYTES,
    PROTOCOL_VERSION,
    Command,
    ErrorCode,
    EventType,
    Packet,
    PacketReader,
    Reply,
    cobs_encode,
)

Answer = Callable[[Packet], bytes]


class ScriptedPort:
    """A port whose device answers each packet the host writes with `answer`'s bytes."""

    port = "scripted"

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.reader = PacketReader()
        self.outgoing = bytearray()
        self.timeout: float | None = 0.0
        self.commands: list[Packet] = []

    @property
    def in_waiting(self) -> int:
        return len(self.outgoing)

    def write(self, data: bytes) -> int:
        for packet in self.reader.feed(data):
            self.commands.append(packet)
            self.outgoing += self.answer(packet)
        return len(data)

    def flush(self) -> None:
        pass

    def read(self, size: int = 1) -> bytes:
        data = bytes(self.outgoing[:size])
        del self.outgoing[:size]
        return data

    def close(self) -> None:
        pass


def info_payload(protocol: int) -> bytes:
    return (
        bytes([protocol, 0, 1, 0])
        + struct.pack("<H", 6016)
        + bytes([0, 0, 32, 74, 0, 0])
        + struct.pack("<HH", 1023, 1024)
    )


def protocol_1(packet: Packet) -> bytes:
    """A device of protocol 1: its CRC leaves the length out."""
    body = bytes([packet.type, packet.seq]) + packet.payload
    return cobs_encode(body + struct.pack(">H", crc16(body))) + bytes([DELIMITER])


def test_a_device_of_protocol_1_is_named_in_one_line() -> None:
    # It finds no command in the host's packets (their CRC is not its) and says so.
    def old_device(command: Packet) -> bytes:
        return protocol_1(Packet(EventType.ERROR, 0, struct.pack("<BH", ErrorCode.BAD_PACKET, 6)))

    device = Device(ScriptedPort(old_device))  # type: ignore[arg-type]
    with pytest.raises(LinkError) as caught:
        device.info()
    message = str(caught.value)
    assert "\n" not in message
    assert f"speaks protocol 1, this epdle speaks {PROTOCOL_VERSION}" in message


@pytest.mark.parametrize("extra", [b"", b"\x01\x02"])
def test_a_device_of_a_later_protocol_is_named_in_one_line(extra: bytes) -> None:
    """Whatever the length of its INFO reply."""

    def newer(command: Packet) -> bytes:
        payload = info_payload(PROTOCOL_VERSION + 1) + extra
        return Packet(Reply.INFO, command.seq, payload).encode()

    device = Device(ScriptedPort(newer))  # type: ignore[arg-type]
    speaks = f"protocol {PROTOCOL_VERSION + 1}, this epdle speaks {PROTOCOL_VERSION}"
    with pytest.raises(LinkError, match=speaks):
        device.info()


def answering(short_chunk_acks: int) -> tuple[ScriptedPort, list[int]]:
    """A device whose first `short_chunk_acks` CHUNK ACKs come one byte short."""
    shorts = [0]

    def answer(command: Packet) -> bytes:
        if command.type == Command.INFO:
            return Packet(Reply.INFO, command.seq, info_payload(PROTOCOL_VERSION)).encode()
        if command.type == Command.CHUNK:
            offset = struct.unpack_from("<H", command.payload)[0] + len(command.payload) - 2
            ack = struct.pack("<H", offset)
            if shorts[0] < short_chunk_acks:
                shorts[0] += 1
                ack = ack[:1]
            return Packet(Reply.ACK, command.seq, ack).encode()
        payload = struct.pack("<H", 6000) if command.type == Command.BEGIN else b""
        return Packet(Reply.ACK, command.seq, payload).encode()

    return ScriptedPort(answer), shorts


FRAME = bytes([1, 1, 0, 0, 1, 1, 0, 0, 0xFF, 0xFF])


def test_a_chunk_ack_one_byte_short_is_asked_for_again() -> None:
    port, shorts = answering(short_chunk_acks=2)
    device = Device(port)  # type: ignore[arg-type]
    stats = device.push([FRAME])
    assert shorts == [2]
    chunks = [c for c in port.commands if c.type == Command.CHUNK]
    # The same CHUNK three times (the device answers a repeat from its copy).
    assert len(chunks) == 3 and len(set(chunks)) == 1
    assert stats.retries == 2


def test_replies_of_the_wrong_length_end_in_one_line_not_a_crash() -> None:
    port, _ = answering(short_chunk_acks=1000)
    device = Device(port)  # type: ignore[arg-type]
    with pytest.raises(LinkError) as caught:
        device.push([FRAME])
    assert "answered CHUNK" in str(caught.value) and "wrong length" in str(caught.value)


def test_an_info_reply_of_the_wrong_length_is_not_unpacked() -> None:
    def short_info(command: Packet) -> bytes:
        payload = info_payload(PROTOCOL_VERSION)[: INFO_PAYLOAD_BYTES - 1]
        return Packet(Reply.INFO, command.seq, payload).encode()

    device = Device(ScriptedPort(short_info))  # type: ignore[arg-type]
    with pytest.raises(LinkError, match=r"answered INFO .* wrong length"):
        device.info()
