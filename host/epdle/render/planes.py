"""The panel's two 1-bit planes as landscape pictures, and pictures as planes.

`epdle.panel` holds the planes and the one mapping between the landscape
picture a person sees (212 x 104, device held sideways) and the panel's native
rows (104 px wide, 212 rows): a quarter turn clockwise, landscape pixel (x, y)
is native column ``103 - y`` of native row ``x``. This module adds the colours:
Pillow images in, Pillow images out (its names of the geometry and of `Planes`
are epdle.panel's).
"""

from __future__ import annotations

import numpy as np
from PIL import Image

# The geometry and the planes themselves live at the bottom of the layers (no Pillow).
from epdle.panel import (
    LANDSCAPE_SIZE,
    NATIVE_SIZE,
    PLANE_BYTES,
    ROW_BYTES,
    Planes,
)

from .options import ACCENT_COLOURS, BLACK, RED, WHITE

__all__ = [
    "LANDSCAPE_SIZE",
    "NATIVE_SIZE",
    "PLANE_BYTES",
    "ROW_BYTES",
    "Planes",
    "flatten_to_rgb",
    "image_to_planes",
    "planes_to_image",
]


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
