"""Fast windows (format version 2): the host decides where a set's frames may be updated
fast, and never lets one through that would mix two pictures or drive red."""

from __future__ import annotations

import numpy as np
import pytest

from epdle.frames import FrameError, FrameErrorKind, Window, decode, encode, encode_set
from epdle.frames.decoder import fast_window
from epdle.frames.fast import mark_fast, set_fast_window
from epdle.frames.format import PANEL_HEIGHT, PLANE_BYTES, ROW_BYTES
from epdle.panel import Planes

WHITE = b"\xff" * PLANE_BYTES


def _plane(*boxes: tuple[int, int, int, int]) -> bytes:
    """Black (0) in each (row, row_end, byte, byte_end) box of a white plane."""
    rows = np.full((PANEL_HEIGHT, ROW_BYTES), 0xFF, dtype=np.uint8)
    for top, bottom, left, right in boxes:
        rows[top:bottom, left:right] = 0
    return rows.tobytes()


# The same header (rows 0-9) and red badge (rows 200-209), a guess that changes (rows 40-59).
HEADER = (0, 10, 0, 13)
RED = _plane((200, 210, 0, 3))


def _set(*guesses: tuple[int, int, int, int]) -> list[tuple[bytes, bytes]]:
    return [(_plane(HEADER, guess), RED) for guess in guesses]


def test_the_set_window_holds_every_difference_and_nothing_else() -> None:
    frames = _set((40, 50, 2, 5), (45, 60, 4, 9), (40, 41, 3, 4))
    assert set_fast_window(frames) == Window(x_bytes=2, y=40, width_bytes=7, height=20)


def test_no_fast_window_when_red_differs_or_lies_in_it_or_nothing_differs() -> None:
    frames = _set((40, 50, 2, 5), (45, 60, 4, 9))
    assert set_fast_window([frames[0], (frames[1][0], _plane((0, 1, 0, 1)))]) is None
    red_in_window = _plane((45, 46, 5, 6))
    assert set_fast_window([(black, red_in_window) for black, _ in frames]) is None
    assert set_fast_window([frames[0], frames[0]]) is None
    assert set_fast_window(frames[:1]) is None


def test_encode_set_marks_every_frame_with_the_set_window_and_decodes_the_same() -> None:
    planes = [Planes(black, red) for black, red in _set((40, 50, 2, 5), (45, 60, 4, 9))]
    fast = encode_set(planes)
    full = encode_set(planes, fast=False)
    for fast_frame, full_frame, frame_planes in zip(fast, full, planes, strict=True):
        assert fast_frame[0] == 2 and full_frame[0] == 1
        assert fast_window(fast_frame) == Window(2, 40, 7, 20)
        assert fast_window(full_frame) is None
        assert decode(fast_frame) == decode(full_frame) == (frame_planes.black, frame_planes.red)


def test_red_in_a_fast_window_is_refused_by_the_encoder() -> None:
    with pytest.raises(ValueError, match="red inside the fast window"):
        encode(WHITE, _plane((45, 46, 5, 6)), fast=Window(2, 40, 7, 20))


def test_mark_fast_recomputes_the_window_from_the_planes() -> None:
    frames = [encode(black, red) for black, red in _set((40, 50, 2, 5), (45, 60, 4, 9))]
    marked = mark_fast(frames)
    assert [fast_window(frame) for frame in marked] == [Window(2, 40, 7, 20)] * 2
    # A window claimed by a frame of another set (another red) is taken away again.
    other = encode(_plane(HEADER, (40, 50, 2, 5)), _plane((190, 199, 0, 3)), Window(2, 40, 7, 20))
    assert [fast_window(frame) for frame in mark_fast([marked[0], other])] == [None, None]
    # --full-refresh: none at all, the pictures unchanged.
    unmarked = mark_fast(marked, allow=False)
    assert [frame[0] for frame in unmarked] == [1, 1]
    assert [decode(frame) for frame in unmarked] == [decode(frame) for frame in frames]
    with pytest.raises(FrameError) as raised:
        mark_fast([b"\x03\x00"])
    assert raised.value.kind is FrameErrorKind.VERSION
