"""The panel's two 1-bit planes and their conversion to and from landscape images.

This module is the only place that knows how the landscape picture a person
sees (212 x 104, device held sideways) maps onto the panel's native rows
(104 px wide, 212 rows). The mapping is a quarter turn clockwise: landscape
pixel (x, y) is native column ``103 - y`` of native row ``x``, so the
landscape top-left corner is the native top-right corner.

Plane bytes run row by row, 13 bytes a row, most significant bit = leftmost
pixel. Bit 1 is white in both planes; bit 0 is black in the black plane and
red (or yellow) in the red plane; where both are 0, red wins.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image

from .options import ACCENT_COLOURS, BLACK, RED, WHITE

NATIVE_SIZE = (104, 212)  # (width, height) as the controller scans it
LANDSCAPE_SIZE = (NATIVE_SIZE[1], NATIVE_SIZE[0])  # (width, height) as frames are designed
ROW_BYTES = NATIVE_SIZE[0] // 8
PLANE_BYTES = ROW_BYTES * NATIVE_SIZE[1]


@dataclass(frozen=True)
class Planes:
    """One frame in the controller's native layout: DTM1 (black) and DTM2 (red) bytes.

    Planes made here leave the black bit white under red ink (red wins anyway),
    so one picture always gives the same bytes.
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
    # Quarter turn clockwise: landscape row y becomes native column 103 - y.
    native_ink = np.rot90(landscape_ink.astype(bool), k=-1)
    return np.packbits(~native_ink, axis=1).tobytes()


def _unpack_native(plane: bytes) -> np.ndarray:
    bits = np.unpackbits(np.frombuffer(plane, dtype=np.uint8)).reshape(
        NATIVE_SIZE[1], NATIVE_SIZE[0]
    )
    return np.rot90(bits == 0, k=1)


def image_to_planes(img: Image.Image, *, dither: bool = False, threshold: int = 128) -> Planes:
    """Map a landscape 212 x 104 image (any mode) onto white, black and red.

    Without dithering each pixel takes its nearest panel colour; between black
    and white the luminance ``threshold`` decides (below = black). With
    ``dither`` (for photos) red still goes where it is nearest and the rest is
    Floyd-Steinberg dithered to black and white; ``threshold`` is then unused.
    Transparent pixels count as white.
    """
    if img.size != LANDSCAPE_SIZE:
        raise ValueError(
            f"image must be {LANDSCAPE_SIZE[0]} x {LANDSCAPE_SIZE[1]} (landscape), "
            f"got {img.size[0]} x {img.size[1]}; fit or crop it first"
        )
    if not 0 <= threshold <= 256:
        raise ValueError(f"threshold must be within 0..256, got {threshold}")
    rgb = flatten_to_rgb(img)
    red = _nearest_is_red(rgb)
    if dither:
        # Red only where red is the nearest colour: diffusing error into red would
        # speckle every grey area of a photo with red dots.
        dithered = np.asarray(rgb.convert("L").convert("1", dither=Image.Dither.FLOYDSTEINBERG))
        return Planes.from_masks(~red & ~dithered, red)
    luminance = np.asarray(rgb.convert("L"), dtype=np.int32)
    return Planes.from_masks(~red & (luminance < threshold), red)


def _nearest_is_red(rgb: Image.Image) -> np.ndarray:
    pixels = np.asarray(rgb, dtype=np.int32)
    to_red, to_black, to_white = (
        ((pixels - np.array(colour, dtype=np.int32)) ** 2).sum(axis=2)
        for colour in (RED, BLACK, WHITE)
    )
    return (to_red < to_black) & (to_red < to_white)


def flatten_to_rgb(img: Image.Image) -> Image.Image:
    """``img`` as RGB, transparent parts on white (the panel's background)."""
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (*WHITE, 255))
        return Image.alpha_composite(background, rgba).convert("RGB")
    return img.convert("RGB")


def planes_to_image(planes: Planes, variant: str = "red") -> Image.Image:
    """Landscape RGB preview with exactly the panel's colours (``variant`` red or yellow)."""
    if variant not in ACCENT_COLOURS:
        raise ValueError(f"variant must be one of {sorted(ACCENT_COLOURS)}, got {variant!r}")
    black, red = planes.masks()
    pixels = np.empty((*black.shape, 3), dtype=np.uint8)
    pixels[...] = WHITE
    pixels[black] = BLACK
    pixels[red] = ACCENT_COLOURS[variant]
    return Image.fromarray(pixels)
