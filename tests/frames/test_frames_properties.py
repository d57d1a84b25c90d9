"""Property tests: any planes round-trip; any bytes decode or raise FrameError."""

from __future__ import annotations

import numpy as np
from frames_vector_files import valid_frames
from hypothesis import given, settings
from hypothesis import strategies as st

from epdle.frames import FrameError, decode, encode
from epdle.frames.format import PANEL_HEIGHT, ROW_BYTES

VALID_FRAMES = valid_frames()
SMALL_VALID_FRAMES = [frame for frame in VALID_FRAMES if len(frame) < 400]


@st.composite
def planes(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """White planes with a few rectangles of arbitrary byte patterns in either plane."""
    arrays = [np.full((PANEL_HEIGHT, ROW_BYTES), 0xFF, dtype=np.uint8) for _ in range(2)]
    for _ in range(draw(st.integers(0, 5))):
        plane = arrays[draw(st.integers(0, 1))]
        y = draw(st.integers(0, PANEL_HEIGHT - 1))
        x = draw(st.integers(0, ROW_BYTES - 1))
        height = draw(st.integers(1, PANEL_HEIGHT - y))
        width = draw(st.integers(1, ROW_BYTES - x))
        pattern = draw(st.binary(min_size=1, max_size=8))
        tile = np.resize(np.frombuffer(pattern, dtype=np.uint8), height * width)
        plane[y : y + height, x : x + width] = tile.reshape(height, width)
    return arrays[0].tobytes(), arrays[1].tobytes()


@settings(max_examples=60, deadline=None)
@given(planes())
def test_decode_inverts_encode(black_red: tuple[bytes, bytes]) -> None:
    assert decode(encode(*black_red)) == black_red


def _decodes_or_refuses(frame: bytes) -> None:
    try:
        black, red = decode(frame)
    except FrameError:
        return
    assert len(black) == len(red) == PANEL_HEIGHT * ROW_BYTES


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=64))
def test_arbitrary_bytes_decode_or_raise_frame_error(frame: bytes) -> None:
    _decodes_or_refuses(frame)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(SMALL_VALID_FRAMES),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=4),
    st.integers(0, 10_000),
)
def test_mutated_vectors_decode_or_raise_frame_error(
    frame: bytes, changes: list[tuple[int, int]], cut: int
) -> None:
    mutated = bytearray(frame)
    for index, value in changes:
        mutated[index % len(mutated)] = value
    _decodes_or_refuses(bytes(mutated[: max(cut, 2)]))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(VALID_FRAMES), st.integers(1, 10_000))
def test_every_valid_frame_loses_to_truncation(frame: bytes, cut: int) -> None:
    shorter = frame[: len(frame) - 1 - cut % len(frame)]
    try:
        decode(shorter)
    except FrameError:
        return
    raise AssertionError(f"a {len(shorter)}-byte prefix of a valid frame decoded")
