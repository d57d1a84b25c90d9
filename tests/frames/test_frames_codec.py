"""Encoder and reference decoder: round trips, window choice, sizes, refusals."""

from __future__ import annotations

import numpy as np
import pytest

from epdle.frames import FrameError, FrameErrorKind, Window, decode, encode
from epdle.frames.encoder import encode_windows
from epdle.frames.format import PANEL_HEIGHT, PLANE_BYTES, ROW_BYTES
from epdle.render.planes import Planes
from epdle.render.suggestions import render_suggestion
from epdle.solver.engine import Suggestion

WHITE = b"\xff" * PLANE_BYTES


def _plane_with(rows: slice, columns: slice, value: int) -> bytes:
    plane = np.full((PANEL_HEIGHT, ROW_BYTES), 0xFF, dtype=np.uint8)
    plane[rows, columns] = value
    return plane.tobytes()


def test_blank_frame_is_header_only() -> None:
    assert encode(WHITE, WHITE) == b"\x01\x00"
    assert decode(b"\x01\x00") == (WHITE, WHITE)


def test_window_hugs_the_ink() -> None:
    black = _plane_with(slice(40, 60), slice(3, 5), 0x00)
    frame = encode(black, WHITE)
    assert frame[:2] == b"\x01\x01"
    assert tuple(frame[2:6]) == (3, 40, 2, 20)  # x / 8, y, w / 8, h
    assert decode(frame) == (black, WHITE)


def test_far_apart_ink_gets_separate_windows() -> None:
    plane = np.full((PANEL_HEIGHT, ROW_BYTES), 0xFF, dtype=np.uint8)
    plane[0:10, 0] = 0x0F
    plane[150:160, 12] = 0xF0
    black = plane.tobytes()
    frame = encode(black, WHITE)
    assert frame[1] == 2
    assert decode(frame) == (black, WHITE)


def test_red_only_frame_round_trips() -> None:
    red = _plane_with(slice(0, PANEL_HEIGHT), slice(0, ROW_BYTES), 0x3C)
    assert decode(encode(WHITE, red)) == (WHITE, red)


def test_worst_case_noise_round_trips_and_fits_the_device_length() -> None:
    rng = np.random.default_rng(7)
    black, red = (rng.integers(0, 256, PLANE_BYTES, dtype=np.uint8).tobytes() for _ in range(2))
    frame = encode(black, red)
    assert len(frame) < 0xFFFF  # the device counts frame bytes in 16 bits
    assert decode(frame) == (black, red)


def test_encode_windows_sends_only_the_windows() -> None:
    black = _plane_with(slice(0, PANEL_HEIGHT), slice(0, ROW_BYTES), 0x00)
    window = Window(x_bytes=2, y=5, width_bytes=3, height=7)
    decoded_black, decoded_red = decode(encode_windows(black, WHITE, [window]))
    assert decoded_black == _plane_with(slice(5, 12), slice(2, 5), 0x00)
    assert decoded_red == WHITE


def test_encode_windows_refuses_a_window_off_the_panel() -> None:
    with pytest.raises(FrameError) as raised:
        encode_windows(WHITE, WHITE, [Window(x_bytes=12, y=0, width_bytes=2, height=1)])
    assert raised.value.kind is FrameErrorKind.WINDOW


def test_encode_refuses_planes_of_the_wrong_size() -> None:
    with pytest.raises(ValueError, match="2756"):
        encode(WHITE[:-1], WHITE)


@pytest.mark.parametrize(
    "history",
    [
        (),
        (("SLATE", "BBYBY"),),
        (("SLATE", "BBYBY"), ("CRONY", "GYBBG"), ("CORER", "GGBGG")),
        (
            ("SLATE", "BBYBY"),
            ("CRONY", "GYBBG"),
            ("CORER", "GGBGG"),
            ("MOVER", "BGBGG"),
            ("WOWED", "BYBYB"),
        ),
        (
            ("SLATE", "BBYBY"),
            ("CRONY", "GYBBG"),
            ("CORER", "GGBGG"),
            ("MOVER", "BGBGG"),
            ("WOWED", "BYBYB"),
            ("FIXER", "BBBGG"),
        ),
    ],
)
@pytest.mark.parametrize("word", ["CRANE", "MUMMY", "WOWED"])
def test_typical_suggestion_frame_fits_one_kilobyte(history: tuple, word: str) -> None:
    planes: Planes = render_suggestion(history, Suggestion(word, 5.91, 12.3, True), 2, 8, 231)
    frame = encode(planes.black, planes.red)
    assert len(frame) <= 1024
    assert decode(frame) == (planes.black, planes.red)


@pytest.mark.parametrize(
    ("frame", "kind"),
    [
        (b"", FrameErrorKind.TRUNCATED),
        (b"\x03\x00", FrameErrorKind.VERSION),
        (b"\x02\x00", FrameErrorKind.TRUNCATED),
        (b"\x01\x00\x00", FrameErrorKind.TRAILING),
        (b"\x01\x01\x00\x00\x01\x01\x08\x00", FrameErrorKind.WINDOW),
    ],
)
def test_malformed_frames_raise_frame_error(frame: bytes, kind: FrameErrorKind) -> None:
    with pytest.raises(FrameError) as raised:
        decode(frame)
    assert raised.value.kind is kind
    assert kind.name.lower() in str(raised.value)
