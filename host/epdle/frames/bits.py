"""Bit streams of order-k Exp-Golomb codes, most significant bit first."""

from __future__ import annotations

import numpy as np

from .format import MAX_CODE_BITS, FrameError, FrameErrorKind


def golomb_code(value: int, order: int) -> str:
    """Order-``order`` Exp-Golomb code of ``value`` as a string of '0' and '1'."""
    shifted = value + (1 << order)
    return "0" * (shifted.bit_length() - 1 - order) + format(shifted, "b")


def golomb_code_length(value: int, order: int) -> int:
    return 2 * (value + (1 << order)).bit_length() - 1 - order


class BitReader:
    """Reads codes from ``data`` starting at byte ``offset``."""

    def __init__(self, data: bytes, offset: int) -> None:
        self._bits = _unpack(data[offset:])
        self._start = offset
        self._position = 0

    def read_code(self, order: int) -> int:
        """Next Exp-Golomb value; FrameError if the data ends or the code is too long."""
        # As on the device: a code whose leading zeros plus order exceed MAX_CODE_BITS has no
        # 16-bit value, so it is refused as soon as that many zeros have been read.
        zero_limit = MAX_CODE_BITS - order + 1
        one = self._bits.find(1, self._position, self._position + zero_limit)
        if one < 0:
            if len(self._bits) - self._position >= zero_limit:
                raise FrameError(FrameErrorKind.CODE, f"code with {zero_limit} leading zeros")
            raise FrameError(FrameErrorKind.TRUNCATED, "data ends inside a code")
        end = 2 * one + 1 - self._position + order
        if end > len(self._bits):
            raise FrameError(FrameErrorKind.TRUNCATED, "data ends inside a code")
        shifted = 0
        for bit in self._bits[one:end]:
            shifted = shifted << 1 | bit
        self._position = end
        return shifted - (1 << order)

    def finish(self) -> int:
        """Check the padding up to the next byte boundary; return the byte offset after it."""
        padded = -(-self._position // 8) * 8
        if any(self._bits[self._position : padded]):
            raise FrameError(FrameErrorKind.PADDING, "non-zero padding after a window's codes")
        return self._start + padded // 8


def _unpack(data: bytes) -> bytes:
    return np.unpackbits(np.frombuffer(data, dtype=np.uint8)).tobytes()
