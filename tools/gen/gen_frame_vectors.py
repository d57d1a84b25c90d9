"""Write the frame-format test vectors both decoders are tested against.

tests/vectors/frames/manifest.txt lists `name status` (status: 0 = valid, else
the FrameErrorKind / frame_status_t number); NAME.frame holds the encoded bytes
and, for valid frames, NAME.planes the 2 x 2756 native bytes (DTM1 then DTM2)
the panel ends up with. Run from the repository root:
    PYTHONPATH=host python tools/gen/gen_frame_vectors.py [--check]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from epdle.frames import FrameError, FrameErrorKind, decode, encode
from epdle.frames.encoder import encode_windows
from epdle.frames.format import PANEL_HEIGHT, PLANE_BYTES, ROW_BYTES, Window
from epdle.render.fonts import Face, font
from epdle.render.planes import LANDSCAPE_SIZE, image_to_planes

VECTOR_DIR = Path(__file__).resolve().parents[2] / "tests" / "vectors" / "frames"
WHITE_PLANE = b"\xff" * PLANE_BYTES

Planes = tuple[bytes, bytes]


def _plane(fill: Callable[[np.ndarray], None]) -> bytes:
    rows = np.full((PANEL_HEIGHT, ROW_BYTES), 0xFF, dtype=np.uint8)
    fill(rows)
    return rows.tobytes()


def _tiny() -> Planes:
    def ink(rows: np.ndarray) -> None:
        rows[10:14, 2] = [0x0F, 0x81, 0x00, 0xF0]

    return _plane(ink), WHITE_PLANE


def _checkerboard() -> Planes:
    def black(rows: np.ndarray) -> None:
        rows[0::2, :] = 0xAA
        rows[1::2, :] = 0x55

    def red(rows: np.ndarray) -> None:
        rows[100:140, 4:9] = 0x00

    return _plane(black), _plane(red)


def _noise() -> Planes:
    rng = np.random.default_rng(4)
    return tuple(rng.integers(0, 256, PLANE_BYTES, dtype=np.uint8).tobytes() for _ in range(2))


def _text() -> Planes:
    img = Image.new("RGB", LANDSCAPE_SIZE, "white")
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"
    draw.text((6, 4), "CRANE", font=font(Face.BOLD, 36), fill="black")
    draw.text((6, 60), "231 left", font=font(Face.BOLD, 14), fill="red")
    draw.rectangle((150, 10, 200, 90), outline="black", width=3)
    planes = image_to_planes(img)
    return planes.black, planes.red


def _stripes() -> Planes:
    def ink(rows: np.ndarray) -> None:
        rows[0::13, :] = 0x00

    return _plane(ink), WHITE_PLANE


def _valid_vectors() -> Iterator[tuple[str, bytes, Planes]]:
    blank = (WHITE_PLANE, WHITE_PLANE)
    yield "blank", encode(*blank), blank
    yield "tiny", encode(*_tiny()), _tiny()
    yield "checkerboard", encode(*_checkerboard()), _checkerboard()
    yield "noise", encode(*_noise()), _noise()
    yield "text", encode(*_text()), _text()
    stripes = [Window(0, y, ROW_BYTES, 1) for y in range(0, PANEL_HEIGHT, 13)][:16]
    yield "sixteen_windows", encode_windows(*_stripes(), stripes), _stripes_in(stripes)
    corners = [Window(12, 211, 1, 1), Window(0, 0, 1, 1), Window(0, 0, ROW_BYTES, PANEL_HEIGHT)]
    yield "full_and_corners", encode_windows(*_noise(), corners), _noise()
    # Version 2: version 1 with a fast window, in a window header's form.
    yield "fast_window", encode(*_tiny(), fast=Window(1, 8, 3, 10)), _tiny()


def _stripes_in(windows: list[Window]) -> Planes:
    black, _ = _stripes()
    source = np.frombuffer(black, dtype=np.uint8).reshape(PANEL_HEIGHT, ROW_BYTES)

    def keep(rows: np.ndarray) -> None:
        for window in windows:
            rows[window.rows(), window.columns()] = source[window.rows(), window.columns()]

    return _plane(keep), WHITE_PLANE


def _with(frame: bytes, index: int, value: int) -> bytes:
    changed = bytearray(frame)
    changed[index] = value
    return bytes(changed)


def _invalid_vectors() -> Iterator[tuple[str, bytes, FrameErrorKind]]:
    tiny = encode(*_tiny())
    header, orders, codes = tiny[:2], tiny[6:8], tiny[8:]
    one_byte_window = b"\x01\x01" + bytes([0, 0, 1, 1, 0, 0])  # 8 pixels a plane, orders 0

    def window(x_bytes: int, y: int, width_bytes: int, height: int) -> bytes:
        return header + bytes([x_bytes, y, width_bytes, height]) + orders + codes

    yield "empty", b"", FrameErrorKind.TRUNCATED
    yield "version_only", b"\x01", FrameErrorKind.TRUNCATED
    yield "bad_version", _with(tiny, 0, 3), FrameErrorKind.VERSION
    fast = b"\x02" + bytes([2, 200, 1, 13, 0, 0]) + tiny[1:]
    yield "fast_window_off_bottom", fast, FrameErrorKind.WINDOW
    yield "fast_window_zero_width", _with(_with(fast, 2, 10), 3, 0), FrameErrorKind.WINDOW
    yield "fast_window_order_too_big", _with(_with(fast, 2, 10), 5, 0x08), FrameErrorKind.WINDOW
    yield "fast_window_cut", b"\x02\x00\x00", FrameErrorKind.TRUNCATED
    yield "seventeen_windows", b"\x01\x11", FrameErrorKind.WINDOW
    yield "window_off_right", window(12, 10, 2, 4), FrameErrorKind.WINDOW
    yield "window_x_wraps", window(255, 10, 2, 4), FrameErrorKind.WINDOW
    yield "window_off_bottom", window(2, 200, 1, 13), FrameErrorKind.WINDOW
    yield "window_zero_width", window(2, 10, 0, 4), FrameErrorKind.WINDOW
    yield "window_zero_height", window(2, 10, 1, 0), FrameErrorKind.WINDOW
    yield "order_too_big", _with(tiny, 7, 0x80), FrameErrorKind.WINDOW
    yield "header_cut", tiny[:5], FrameErrorKind.TRUNCATED
    yield "codes_cut", tiny[:-1], FrameErrorKind.TRUNCATED
    yield "window_missing", _with(tiny, 1, 2), FrameErrorKind.TRUNCATED
    yield "trailing_byte", tiny + b"\x00", FrameErrorKind.TRAILING
    yield "padding_set", tiny[:-1] + bytes([tiny[-1] | 0x01]), FrameErrorKind.PADDING
    # Order 0: 0001010 codes 9, one more than the window's 8 pixels.
    yield "run_past_plane", one_byte_window + b"\x14", FrameErrorKind.CODE
    yield "code_too_long", one_byte_window + b"\x00\x00\x80", FrameErrorKind.CODE
    yield "code_cut_in_zeros", one_byte_window + b"\x00", FrameErrorKind.TRUNCATED


def vectors() -> dict[str, bytes]:
    """File name -> content of every vector file, manifest included."""
    files: dict[str, bytes] = {}
    manifest: list[str] = []
    for name, frame, (black, red) in _valid_vectors():
        if decode(frame) != (black, red):
            raise AssertionError(f"vector {name} does not decode to its planes")
        files[f"{name}.frame"] = frame
        files[f"{name}.planes"] = black + red
        manifest.append(f"{name} 0")
    for name, frame, kind in _invalid_vectors():
        try:
            decode(frame)
        except FrameError as error:
            if error.kind != kind:
                raise AssertionError(f"vector {name}: {error.kind}, meant {kind}") from error
        else:
            raise AssertionError(f"vector {name} decodes but is meant to fail with {kind}")
        files[f"{name}.frame"] = frame
        manifest.append(f"{name} {kind.value}")
    files["manifest.txt"] = ("\n".join(manifest) + "\n").encode()
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the files are stale")
    args = parser.parse_args()
    stale = []
    for name, content in vectors().items():
        path = VECTOR_DIR / name
        if args.check:
            if not path.exists() or path.read_bytes() != content:
                stale.append(name)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
    if stale:
        print(f"stale frame vectors: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
