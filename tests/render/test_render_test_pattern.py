"""The bring-up test pattern (epdle show --test-pattern): what each frame drives."""

from __future__ import annotations

import numpy as np

from epdle.frames import decode, encode
from epdle.panel import PLANE_BYTES, ROW_BYTES
from epdle.render.test_pattern import pattern, pattern_frames

INK, WHITE = 0x00, 0xFF


def test_the_black_and_red_frames_set_every_bit_of_both_planes_both_ways() -> None:
    _, black, red = pattern_frames()
    assert black.black == bytes([INK]) * PLANE_BYTES and black.red == bytes([WHITE]) * PLANE_BYTES
    assert red.red == bytes([INK]) * PLANE_BYTES and red.black == bytes([WHITE]) * PLANE_BYTES


def test_the_pattern_has_its_border_corner_mark_and_bands() -> None:
    black, red = pattern().masks()
    height = black.shape[0]
    edges = np.zeros_like(black)
    edges[0, :] = edges[-1, :] = edges[:, 0] = edges[:, -1] = True
    assert black[edges].all() and not red[edges].any()
    assert red[2:10, 2:10].all() and not black[2:10, 2:10].any()  # top left, as held
    band = slice(14, height - 2)
    # Four bands of 49 columns from column 12: black, red, then the checkerboards, in which
    # every pixel differs from its right and lower neighbours.
    assert black[band, 12:61].all() and red[band, 61:110].all()
    for mask, columns in ((black, slice(110, 159)), (red, slice(159, 208))):
        cells = mask[band, columns]
        assert (cells[:, 1:] != cells[:, :-1]).all() and (cells[1:, :] != cells[:-1, :]).all()


def test_the_top_ruler_alternates_every_panel_row() -> None:
    black, red = pattern().masks()
    for x in range(12, 210):
        assert (black[5, x], red[5, x]) == ((True, False) if x % 2 == 0 else (False, True)), x


def test_the_left_ruler_alternates_whole_bytes_of_the_native_rows() -> None:
    planes = pattern()
    # Native row 5 is landscape column 5: bytes 1..10 lie wholly in the ruler (columns 14..101).
    row = slice(5 * ROW_BYTES, 6 * ROW_BYTES)
    black, red = planes.black[row], planes.red[row]
    for byte in range(1, 11):
        ink_plane, other = (red, black) if byte % 2 else (black, red)
        assert (ink_plane[byte], other[byte]) == (INK, WHITE), byte


def test_every_frame_encodes_and_decodes_to_itself() -> None:
    for planes in pattern_frames():
        frame = encode(planes.black, planes.red)
        assert decode(frame) == (planes.black, planes.red)
        assert len(frame) < 1200
