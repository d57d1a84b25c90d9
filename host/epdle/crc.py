"""CRC-16/CCITT-FALSE, as firmware/app/crc16.c: the link's packets and the flash store's
frame records and journal both use it."""

from __future__ import annotations

import binascii


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR)."""
    return binascii.crc_hqx(data, 0xFFFF)
