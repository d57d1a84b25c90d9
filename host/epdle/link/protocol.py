"""Packets of the UART link (spec: docs/protocol.md).

The numbers mirror firmware/app/protocol.h; tests/link/test_protocol.py
checks every one of them against that header.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum

from epdle.crc import crc16

PROTOCOL_VERSION = 3
# Protocol 1's packets: the CRC without the length (recognised to name the version).
LENGTHLESS_CRC_VERSION = 1
HEADER_BYTES = 2
CRC_BYTES = 2
CHUNK_MAX = 74
PAYLOAD_MAX = 2 + CHUNK_MAX
PACKET_MAX = HEADER_BYTES + PAYLOAD_MAX + CRC_BYTES
WAKE_PREAMBLE_BYTES = 4
WAKE_MS = 5
AWAKE_MS = 1500
INFO_PAYLOAD_BYTES = 16
# INFO's byte 12: status flags.
INFO_FLAG_BATTERY_LOW = 0x01  # the cell was too weak for the last update
# The ADC's steps: VDD = ADC_STEPS x fvr_mv / vdd_reading (INFO's last fields).
ADC_STEPS = 1024
VDD_READING_NONE = 1023  # no measurement yet (or one that failed)
DELIMITER = 0x00
# Payload bytes of each ACK (by the command it answers), of ERROR replies and events.
ACK_PAYLOAD_BYTES = {0x02: 2, 0x03: 2, 0x08: 2}  # BEGIN: free words; CHUNK: next offset;
# CALIBRATE: the FVR in mV
ERROR_PAYLOAD_BYTES = 3


class Command(IntEnum):
    INFO = 0x01
    BEGIN = 0x02
    CHUNK = 0x03
    COMMIT = 0x04
    SHOW = 0x05
    CLEAR = 0x06
    SLEEP = 0x07
    CALIBRATE = 0x08


class Reply(IntEnum):
    ACK = 0x80
    ERROR = 0x81
    INFO = 0x82


class EventType(IntEnum):
    BUTTON = 0xC0
    SHOWN = 0xC1
    ERROR = 0xC2
    BUSY = 0xC3


class ErrorCode(IntEnum):
    BAD_PACKET = 0x01
    UNKNOWN_CMD = 0x02
    BAD_LENGTH = 0x03
    NO_UPLOAD = 0x04
    OFFSET = 0x05
    TOO_MANY_FRAMES = 0x06
    TOO_BIG = 0x07
    BAD_STREAM = 0x08
    INCOMPLETE = 0x09
    FRAME_CRC = 0x0A
    FLASH = 0x0B
    UART = 0x0C
    FRAME_FORMAT = 0x0D
    CALIBRATION = 0x0E


class ResetCause(IntEnum):
    """What reset the device last (PCON0), INFO's reset_cause."""

    POWER_ON = 0
    BROWNOUT = 1
    WATCHDOG = 2
    STACK_OVERFLOW = 3
    STACK_UNDERFLOW = 4
    MCLR = 5
    INSTRUCTION = 6
    NONE = 7


RESET_TEXT = {
    ResetCause.POWER_ON: "power-on",
    ResetCause.BROWNOUT: "brown-out",
    ResetCause.WATCHDOG: "watchdog",
    ResetCause.STACK_OVERFLOW: "stack overflow",
    ResetCause.STACK_UNDERFLOW: "stack underflow",
    ResetCause.MCLR: "reset pin (MCLR)",
    ResetCause.INSTRUCTION: "RESET instruction",
    ResetCause.NONE: "unknown",
}


ERROR_TEXT = {
    ErrorCode.BAD_PACKET: "a packet arrived damaged",
    ErrorCode.UNKNOWN_CMD: "unknown command",
    ErrorCode.BAD_LENGTH: "wrong payload length for the command",
    ErrorCode.NO_UPLOAD: "no upload in progress",
    ErrorCode.OFFSET: "chunk out of order",
    ErrorCode.TOO_MANY_FRAMES: "too many frames in the set",
    ErrorCode.TOO_BIG: "the set does not fit in the free flash",
    ErrorCode.BAD_STREAM: "frame headers disagree with the announced set",
    ErrorCode.INCOMPLETE: "commit before the whole set arrived",
    ErrorCode.FRAME_CRC: "a frame read back from flash with a bad CRC",
    ErrorCode.FLASH: "a flash row did not read back as written",
    ErrorCode.UART: "bytes lost on the line",
    ErrorCode.FRAME_FORMAT: "a frame that does not decode",
    ErrorCode.CALIBRATION: "the VDD given puts the FVR outside its tolerance",
}


def describe_error(code: int) -> str:
    try:
        return ERROR_TEXT[ErrorCode(code)]
    except ValueError:
        return f"unknown error code {code:#04x}"


def cobs_encode(data: bytes) -> bytes:
    """COBS without the closing delimiter."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
            continue
        block.append(byte)
        if len(block) == 254:
            out.append(255)
            out += block
            block.clear()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(encoded: bytes) -> bytes:
    """Inverse of cobs_encode; ValueError if the blocks do not add up."""
    out = bytearray()
    at = 0
    while at < len(encoded):
        code = encoded[at]
        if code == 0:
            raise ValueError("zero byte inside a COBS packet")
        end = at + code
        if end > len(encoded):
            raise ValueError("COBS block runs past the end of the packet")
        out += encoded[at + 1 : end]
        at = end
        if code != 255 and at < len(encoded):
            out.append(0)
    return bytes(out)


def packet_crc(body: bytes, packet_length: int) -> int:
    """The CRC of a packet of `packet_length` decoded bytes (its CRC included) over
    `body`: the length goes in first (not sent), so a packet that lost bytes is
    checked against another length and a truncation cannot pass as a shorter packet."""
    return crc16(bytes([packet_length]) + body)


@dataclass(frozen=True)
class Packet:
    type: int
    seq: int
    payload: bytes = b""

    def encode(self) -> bytes:
        """Wire bytes: COBS of type, seq, payload, CRC (big-endian), then 0x00."""
        if len(self.payload) > PAYLOAD_MAX:
            raise ValueError(f"payload of {len(self.payload)} bytes exceeds {PAYLOAD_MAX}")
        body = bytes([self.type, self.seq]) + self.payload
        crc = packet_crc(body, len(body) + CRC_BYTES)
        return cobs_encode(body + struct.pack(">H", crc)) + bytes([DELIMITER])


# What a device of protocol 1 sends (its CRC passes without the length): replies and
# events, with the payload each has. One of them, and not line noise, names the version.
_LENGTHLESS_PACKETS: dict[int, tuple[int, ...]] = {
    Reply.ACK: (0, 2),
    Reply.ERROR: (3,),
    Reply.INFO: (INFO_PAYLOAD_BYTES,),
    EventType.BUTTON: (0,),
    EventType.SHOWN: (2,),
    EventType.ERROR: (3,),
}


class PacketReader:
    """Splits received bytes into packets; damaged ones are counted and dropped, and
    a packet of protocol 1 (whose CRC leaves out the length) counted apart."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self.dropped = 0
        self.lengthless = 0

    def feed(self, data: bytes) -> list[Packet]:
        packets = []
        self._pending += data
        while (end := self._pending.find(DELIMITER)) >= 0:
            encoded = bytes(self._pending[:end])
            del self._pending[: end + 1]
            if not encoded:
                continue
            packet = self._parse(encoded)
            if packet is None:
                self.dropped += 1
                self.lengthless += _lengthless(encoded)
            else:
                packets.append(packet)
        # Nothing valid is longer than a packet: keep no unbounded garbage.
        if len(self._pending) > 2 * PACKET_MAX:
            del self._pending[:-PACKET_MAX]
        return packets

    @staticmethod
    def _parse(encoded: bytes) -> Packet | None:
        try:
            body = cobs_decode(encoded)
        except ValueError:
            return None
        if len(body) < HEADER_BYTES + CRC_BYTES or packet_crc(body, len(body)) != 0:
            return None
        return Packet(body[0], body[1], body[HEADER_BYTES:-CRC_BYTES])


def _lengthless(encoded: bytes) -> bool:
    """A well-formed reply or event of protocol 1 (CRC without the length)."""
    try:
        body = cobs_decode(encoded)
    except ValueError:
        return False
    if len(body) < HEADER_BYTES + CRC_BYTES or crc16(body) != 0:
        return False
    return len(body) - HEADER_BYTES - CRC_BYTES in _LENGTHLESS_PACKETS.get(body[0], ())
