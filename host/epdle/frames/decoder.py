"""Reference decoder: the planes the panel ends up with after showing a frame."""

from __future__ import annotations

import numpy as np

from .bits import BitReader
from .format import (
    FAST_FORMAT_VERSION,
    FORMAT_VERSION,
    MAX_GOLOMB_ORDER,
    MAX_WINDOWS,
    PANEL_HEIGHT,
    ROW_BYTES,
    WINDOW_HEADER_BYTES,
    FrameError,
    FrameErrorKind,
    Window,
)
from .transitions import transitions_to_pixels


def decode(data: bytes) -> tuple[bytes, bytes]:
    """Native (black, red) planes of frame ``data``; FrameError on any malformed input.

    Checks happen in the same order as in the C decoder, so both report the same
    FrameErrorKind for the same bytes.
    """
    data = bytes(data)
    _, count_at = _frame_header(data)
    if len(data) <= count_at:
        raise FrameError(FrameErrorKind.TRUNCATED, "no window count")
    count = data[count_at]
    if count > MAX_WINDOWS:
        raise FrameError(FrameErrorKind.WINDOW, f"{count} windows, at most {MAX_WINDOWS}")
    planes = [np.full((PANEL_HEIGHT, ROW_BYTES), 0xFF, dtype=np.uint8) for _ in range(2)]
    offset = count_at + 1
    for _ in range(count):
        window, orders = _window_header(data, offset)
        bits = BitReader(data, offset + WINDOW_HEADER_BYTES)
        for plane, order in zip(planes, orders, strict=True):
            pixels = transitions_to_pixels(_read_transitions(bits, window, order))
            plane[window.rows(), window.columns()] = np.packbits(pixels, axis=1)
        offset = bits.finish()
    if offset != len(data):
        extra = len(data) - offset
        raise FrameError(FrameErrorKind.TRAILING, f"{extra} bytes after the last window")
    return planes[0].tobytes(), planes[1].tobytes()


def fast_window(data: bytes) -> Window | None:
    """The frame's fast window (version 2), or None; FrameError on a malformed header."""
    return _frame_header(bytes(data))[0]


def _frame_header(data: bytes) -> tuple[Window | None, int]:
    """The fast window and where the window count is."""
    if not data:
        raise FrameError(FrameErrorKind.TRUNCATED, "empty frame")
    if data[0] == FORMAT_VERSION:
        return None, 1
    if data[0] != FAST_FORMAT_VERSION:
        raise FrameError(
            FrameErrorKind.VERSION,
            f"version {data[0]}, expected {FORMAT_VERSION} or {FAST_FORMAT_VERSION} "
            "(a newer epdle wrote it: update the firmware and epdle)",
        )
    window, _ = _window_header(data, 1)
    return window, 1 + WINDOW_HEADER_BYTES


def _window_header(data: bytes, offset: int) -> tuple[Window, list[tuple[int, int]]]:
    header = data[offset : offset + WINDOW_HEADER_BYTES]
    if len(header) < WINDOW_HEADER_BYTES:
        raise FrameError(FrameErrorKind.TRUNCATED, "data ends inside a window header")
    window = Window(x_bytes=header[0], y=header[1], width_bytes=header[2], height=header[3])
    window.check()
    orders = [(byte & 0x0F, byte >> 4) for byte in header[4:6]]
    if max(max(pair) for pair in orders) > MAX_GOLOMB_ORDER:
        raise FrameError(FrameErrorKind.WINDOW, f"code orders {orders}, at most {MAX_GOLOMB_ORDER}")
    return window, orders


def _read_transitions(bits: BitReader, window: Window, orders: tuple[int, int]) -> np.ndarray:
    width = window.width_bytes * 8
    total = window.plane_bits
    transitions = np.zeros(total, dtype=np.uint8)
    position = 0
    # Parity of the ones placed so far in row `parity_row`: the prediction error there.
    parity_row, parity = -1, 0
    while position < total:
        in_row = position % width != 0 and parity_row == position // width
        gap = bits.read_code(orders[parity if in_row else 0])
        left = total - position
        if gap > left:
            raise FrameError(FrameErrorKind.CODE, f"a run of {gap} with {left} pixels left")
        position += gap
        if position < total:
            transitions[position] = 1
            if position // width != parity_row:
                parity_row, parity = position // width, 0
            parity ^= 1
            position += 1
    return transitions.reshape(window.height, width)
