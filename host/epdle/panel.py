"""The panel's geometry and its two 1-bit planes: the bottom of the host's layers.

The panel is natively 104 px wide by 212 rows (docs/architecture.md); frames are
designed in landscape, 212 x 104, and this is the only place that turns one into the
other: a quarter turn clockwise, landscape pixel (x, y) is native column ``103 - y``
of native row ``x``, so the landscape top-left corner is the native top-right corner. Plane bytes
run row by row, 13 bytes a row, most significant bit = leftmost pixel. Bit 1 is
white in both planes; bit 0 is black in the black plane (DTM1) and red (or yellow)
in the red plane (DTM2); where both are 0, red wins.

No Pillow here, and numpy only inside the methods that convert masks: the frame
format, the flash store, the link and the simulated board all build on this module.
`epdle.render.planes` converts planes to and from the landscape pictures people see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

NATIVE_SIZE = (104, 212)  # (width, height) as the controller scans it
LANDSCAPE_SIZE = (NATIVE_SIZE[1], NATIVE_SIZE[0])  # (width, height) as frames are designed
ROW_BYTES = NATIVE_SIZE[0] // 8
PLANE_BYTES = ROW_BYTES * NATIVE_SIZE[1]


@dataclass(frozen=True)
class Planes:
    """One frame in the controller's native layout: DTM1 (black) and DTM2 (red) bytes.

    Planes made from pictures leave the black bit white under red ink (red wins
    anyway), so one picture always gives the same bytes.
    """

    black: bytes
    red: bytes

    def __post_init__(self) -> None:
        for name in ("black", "red"):
            plane = getattr(self, name)
            if not isinstance(plane, bytes):
                raise TypeError(f"{name} plane must be bytes, got {type(plane).__name__}")
            if len(plane) != PLANE_BYTES:
                raise ValueError(f"{name} plane must be {PLANE_BYTES} bytes, got {len(plane)}")

    @classmethod
    def blank(cls) -> Planes:
        """An all-white frame."""
        return cls(black=b"\xff" * PLANE_BYTES, red=b"\xff" * PLANE_BYTES)

    @classmethod
    def from_masks(cls, black: np.ndarray, red: np.ndarray) -> Planes:
        """Build planes from landscape boolean masks (True = ink), shape (104, 212)."""
        expected = (LANDSCAPE_SIZE[1], LANDSCAPE_SIZE[0])
        for name, mask in (("black", black), ("red", red)):
            if mask.shape != expected:
                raise ValueError(f"{name} mask must have shape {expected}, got {mask.shape}")
        return cls(black=_pack_native(black), red=_pack_native(red))

    def masks(self) -> tuple[np.ndarray, np.ndarray]:
        """Landscape boolean masks (black ink, red ink), shape (104, 212); red wins overlaps."""
        black = _unpack_native(self.black)
        red = _unpack_native(self.red)
        return black & ~red, red


def _pack_native(landscape_ink: np.ndarray) -> bytes:
    import numpy as np

    # Quarter turn clockwise: landscape row y becomes native column 103 - y.
    native_ink = np.rot90(landscape_ink.astype(bool), k=-1)
    return np.packbits(~native_ink, axis=1).tobytes()


def _unpack_native(plane: bytes) -> np.ndarray:
    import numpy as np

    bits = np.unpackbits(np.frombuffer(plane, dtype=np.uint8)).reshape(
        NATIVE_SIZE[1], NATIVE_SIZE[0]
    )
    return np.rot90(bits == 0, k=1)
