"""The Python decoder against the firmware's C decoder (frame.c in the sim library).

Both must give the same verdict (error kind) for any bytes, and the same
planes for every frame they accept.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator

import pytest
from frames_vector_files import VECTOR_DIR, manifest, valid_frames
from hypothesis import given, settings
from hypothesis import strategies as st

from epdle.frames import FrameError, decode
from epdle.frames.format import PANEL_HEIGHT, ROW_BYTES
from epdle.sim import library_path

READER = ctypes.CFUNCTYPE(ctypes.c_uint8)
PLANE_BYTES = PANEL_HEIGHT * ROW_BYTES


class _Window(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint8) for name in ("x", "y", "w", "h")]


class CDecoder:
    """frame.c through ctypes: a dry run (frame_check) and a streaming decode into planes."""

    def __init__(self) -> None:
        self.lib = ctypes.CDLL(str(library_path()))
        # The decoder charges its work to the board's clock (HAL_WORK): a booted board.
        self.lib.sim_boot.restype = ctypes.c_int
        self.lib.sim_boot.argtypes = [ctypes.c_char_p]
        assert self.lib.sim_boot(None) == 0
        self.lib.frame_check.restype = ctypes.c_int
        self.lib.frame_check.argtypes = [READER, ctypes.c_uint16]
        self.lib.frame_open.restype = ctypes.c_int
        self.lib.frame_open.argtypes = [READER, ctypes.c_uint16]
        self.lib.frame_windows_left.restype = ctypes.c_uint8
        self.lib.frame_next_window.restype = ctypes.c_int
        self.lib.frame_next_byte.restype = ctypes.c_uint8
        self.lib.frame_end_window.restype = ctypes.c_int
        self.lib.frame_close.restype = ctypes.c_int
        self.window = _Window.in_dll(self.lib, "frame_window")

    @staticmethod
    def _reader(data: bytes) -> tuple[object, list[int]]:
        position = [0]

        def read() -> int:
            # An exception would not cross the C frames: count reads, check them after.
            position[0] += 1
            return data[position[0] - 1] if position[0] <= len(data) else 0

        return READER(read), position

    def check(self, data: bytes) -> int:
        reader, position = self._reader(data)
        status = self.lib.frame_check(reader, len(data))
        assert position[0] <= len(data), "frame_check read past the end of the frame"
        return int(status)

    def decode(self, data: bytes) -> tuple[int, bytes, bytes]:
        reader, position = self._reader(data)
        planes = [bytearray(b"\xff" * PLANE_BYTES) for _ in range(2)]
        window = self.window
        self.lib.frame_open(reader, len(data))
        while self.lib.frame_windows_left():
            if self.lib.frame_next_window() != 0:
                break
            for plane in planes:
                for row in range(window.y, window.y + window.h):
                    start = row * ROW_BYTES + window.x // 8
                    for column in range(start, start + window.w // 8):
                        plane[column] = self.lib.frame_next_byte()
            self.lib.frame_end_window()
        assert position[0] <= len(data), "the streaming decode read past the end of the frame"
        return int(self.lib.frame_close()), bytes(planes[0]), bytes(planes[1])


@pytest.fixture(scope="module")
def c_decoder() -> Iterator[CDecoder]:
    yield CDecoder()


def _python_verdict(data: bytes) -> tuple[int, tuple[bytes, bytes] | None]:
    try:
        return 0, decode(data)
    except FrameError as error:
        return error.kind.value, None


def _assert_same(c_decoder: CDecoder, data: bytes) -> None:
    status, planes = _python_verdict(data)
    assert c_decoder.check(data) == status
    if planes is not None:
        c_status, black, red = c_decoder.decode(data)
        assert c_status == 0
        assert (black, red) == planes


@pytest.mark.parametrize(("name", "status"), manifest())
def test_vectors_decode_alike(c_decoder: CDecoder, name: str, status: int) -> None:
    data = (VECTOR_DIR / f"{name}.frame").read_bytes()
    assert c_decoder.check(data) == status
    _assert_same(c_decoder, data)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=48))
def test_arbitrary_bytes_get_the_same_verdict(c_decoder: CDecoder, data: bytes) -> None:
    _assert_same(c_decoder, b"\x01" + data)


SMALL_VALID = [frame for frame in valid_frames() if len(frame) < 400]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(SMALL_VALID),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 7)), min_size=1, max_size=3),
    st.integers(0, 3),
)
def test_bit_flipped_frames_get_the_same_verdict(
    c_decoder: CDecoder, frame: bytes, flips: list[tuple[int, int]], cut: int
) -> None:
    mutated = bytearray(frame)
    for index, bit in flips:
        mutated[index % len(mutated)] ^= 1 << bit
    _assert_same(c_decoder, bytes(mutated[: len(mutated) - cut]))
