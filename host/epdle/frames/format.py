"""Constants and header layout of the frame format, shared by encoder and decoder."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from epdle.panel import NATIVE_SIZE, PLANE_BYTES, ROW_BYTES

FORMAT_VERSION = 1
# Version 2 is version 1 with the frame's fast window between the version and the window
# count, in a window header's form (x / 8, y, w / 8, h, then two order bytes of 0): where
# the frames of its set differ, in black only, so the device may show it by a fast
# black/white update of that window. A frame without one is version 1.
FAST_FORMAT_VERSION = 2
# x / 8, y, w / 8, h, then per plane (DTM1, DTM2) the Exp-Golomb orders of its codes:
# low nibble for codes read where the error to the left is 0, high nibble where it is 1.
WINDOW_HEADER_BYTES = 6
MAX_WINDOWS = 16
MAX_GOLOMB_ORDER = 7
# A code's value 1 << order | value fits 16 bits on the device: the prefix zeros plus the
# order may not exceed this.
MAX_CODE_BITS = 15
PANEL_WIDTH, PANEL_HEIGHT = NATIVE_SIZE

__all__ = [
    "FAST_FORMAT_VERSION",
    "FORMAT_VERSION",
    "MAX_CODE_BITS",
    "MAX_GOLOMB_ORDER",
    "MAX_WINDOWS",
    "PANEL_HEIGHT",
    "PANEL_WIDTH",
    "PLANE_BYTES",
    "ROW_BYTES",
    "WINDOW_HEADER_BYTES",
    "FrameError",
    "FrameErrorKind",
    "Window",
]


class FrameErrorKind(Enum):
    """Why a frame was refused; the values are the C decoder's frame_status_t codes."""

    VERSION = 1  # first byte is neither FORMAT_VERSION nor FAST_FORMAT_VERSION
    WINDOW = 2  # too many windows, a window outside the panel or empty, order > 7
    TRUNCATED = 3  # the data ends inside a header or a window's bit stream
    CODE = 4  # a run-length code too long or running past the end of its plane
    PADDING = 5  # non-zero bits after a window's last code
    TRAILING = 6  # bytes left after the last window


class FrameError(ValueError):
    """A frame that breaks the format (the device would refuse it: DISPLAY_ERR_BAD_FRAME)."""

    def __init__(self, kind: FrameErrorKind, detail: str) -> None:
        super().__init__(f"bad frame ({kind.name.lower()}): {detail}")
        self.kind = kind


@dataclass(frozen=True)
class Window:
    """A rectangle of the panel in native coordinates: bytes across, rows down."""

    x_bytes: int
    y: int
    width_bytes: int
    height: int

    def check(self) -> None:
        """Raise FrameError unless the window is non-empty and inside the panel."""
        if self.width_bytes < 1 or self.height < 1:
            raise FrameError(FrameErrorKind.WINDOW, f"empty window {self}")
        if self.x_bytes + self.width_bytes > ROW_BYTES or self.y + self.height > PANEL_HEIGHT:
            raise FrameError(
                FrameErrorKind.WINDOW,
                f"{self} reaches outside the {PANEL_WIDTH} x {PANEL_HEIGHT} panel",
            )

    @property
    def plane_bits(self) -> int:
        """Pixels of one plane inside the window."""
        return self.width_bytes * 8 * self.height

    def rows(self) -> slice:
        return slice(self.y, self.y + self.height)

    def columns(self) -> slice:
        """Byte columns of a (rows, ROW_BYTES) plane array."""
        return slice(self.x_bytes, self.x_bytes + self.width_bytes)
