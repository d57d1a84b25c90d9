"""Fast windows (docs/frame-format.md, version 2): where the frames of a set differ.

The device may show a frame by a fast black/white update of its fast window instead of
a full three-colour refresh when the panel shows another frame of the same set. That is
only right if every two frames of the set differ nowhere else, and red is the same in
all of them and absent from the window (a black/white waveform cannot drive red). The
host alone decides it: ``set_fast_window`` finds the window from the planes, and
``mark_fast`` gives frames already encoded the window their set supports (or none).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .format import (
    FAST_FORMAT_VERSION,
    FORMAT_VERSION,
    PANEL_HEIGHT,
    ROW_BYTES,
    WINDOW_HEADER_BYTES,
    Window,
)

__all__ = ["fast_header", "mark_fast", "set_fast_window", "without_header"]


def _rows(plane: bytes | np.ndarray) -> np.ndarray:
    return np.frombuffer(bytes(plane), dtype=np.uint8).reshape(PANEL_HEIGHT, ROW_BYTES)


def set_fast_window(planes: Sequence[tuple[bytes, bytes]]) -> Window | None:
    """The smallest window (whole bytes across) holding every difference in black between
    the (black, red) planes of a set; None for a set of fewer than two frames, frames that
    do not differ, or frames whose red differs or lies in that window."""
    if len(planes) < 2:
        return None
    blacks = [_rows(black) for black, _ in planes]
    reds = [_rows(red) for _, red in planes]
    if any(not np.array_equal(red, reds[0]) for red in reds[1:]):
        return None
    differs = np.zeros((PANEL_HEIGHT, ROW_BYTES), dtype=bool)
    for black in blacks[1:]:
        differs |= black != blacks[0]
    rows = np.flatnonzero(differs.any(axis=1))
    if rows.size == 0:
        return None
    columns = np.flatnonzero(differs.any(axis=0))
    window = Window(
        x_bytes=int(columns[0]),
        y=int(rows[0]),
        width_bytes=int(columns[-1] - columns[0] + 1),
        height=int(rows[-1] - rows[0] + 1),
    )
    if (reds[0][window.rows(), window.columns()] != 0xFF).any():
        return None
    return window


def fast_header(red: bytes | np.ndarray, fast: Window | None) -> bytes:
    """The frame's first bytes up to its window count: version 1 without a fast window,
    version 2 with it (ValueError if red lies in it)."""
    if fast is None:
        return bytes([FORMAT_VERSION])
    fast.check()
    if (_rows(red)[fast.rows(), fast.columns()] != 0xFF).any():
        raise ValueError(f"red inside the fast window {fast}: a fast update cannot drive it")
    return bytes([FAST_FORMAT_VERSION, fast.x_bytes, fast.y, fast.width_bytes, fast.height, 0, 0])


def without_header(frame: bytes) -> bytes:
    """The frame from its window count on (FrameError if its header is malformed)."""
    from .decoder import fast_window

    fast_window(frame)
    return frame[1 + (WINDOW_HEADER_BYTES if frame[0] == FAST_FORMAT_VERSION else 0) :]


def mark_fast(frames: Sequence[bytes], allow: bool = True) -> list[bytes]:
    """The frames of one set, each with the fast window their decoded planes support
    (none if not ``allow``: the device then shows every frame by a full refresh).
    FrameError if one does not decode."""
    from .decoder import decode

    planes = [decode(frame) for frame in frames]
    window = set_fast_window(planes) if allow else None
    return [
        fast_header(red, window) + without_header(frame)
        for frame, (_, red) in zip(frames, planes, strict=True)
    ]
