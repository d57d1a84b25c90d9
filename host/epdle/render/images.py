"""Pictures of any size made ready for the panel: fitted to 212 x 104, then planes."""

from __future__ import annotations

import os
import struct
import threading
import zlib

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from .options import MAX_PICTURE_PIXELS, WHITE, Fit
from .planes import LANDSCAPE_SIZE, Planes, flatten_to_rgb, image_to_planes

# What a damaged file raises from Pillow's decoders.
_DAMAGED = (OSError, SyntaxError, ValueError, EOFError, struct.error, zlib.error)
# Pillow's own decompression-bomb limit is lifted while a header is read (the limit
# here is checked instead, with the picture's size in the message): one at a time.
_OPENING = threading.Lock()


class NotAPicture(ValueError):
    """The file is no picture Pillow can read."""


def open_picture(path: str | os.PathLike[str]) -> Image.Image:
    """The picture in `path`, decoded. ValueError naming the file if Pillow cannot read
    it, if it has more than MAX_PICTURE_PIXELS (told from its header, before decoding),
    or if it is damaged or cut short."""
    name = os.fspath(path)
    try:
        with _OPENING:
            limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
            try:
                picture = Image.open(name)
            finally:
                Image.MAX_IMAGE_PIXELS = limit
    except UnidentifiedImageError:
        raise NotAPicture(f"{name} is not a picture Pillow can read") from None
    except _DAMAGED as error:
        raise ValueError(f"{name}: the picture is damaged or cut short ({error})") from None
    with picture:
        width, height = picture.size
        if width * height > MAX_PICTURE_PIXELS:
            raise ValueError(
                f"{name}: {width} x {height} pixels, over the {MAX_PICTURE_PIXELS:,} a "
                "picture may have; scale it down first"
            )
        try:
            picture.load()
        except _DAMAGED as error:
            raise ValueError(f"{name}: the picture is damaged or cut short ({error})") from None
    return picture


def fit_to_panel(img: Image.Image, fit: Fit = Fit.CONTAIN, *, upright: bool = False) -> Image.Image:
    """``img`` scaled to the landscape panel size, RGB on white.

    ``upright``: the picture is for the device held upright (104 x 212, the
    controller's native orientation), so it is turned a quarter counter-clockwise
    into the landscape frame, which planes.py turns back.
    """
    return _fit(_landscape_rgb(img, upright), fit)


def picture_to_planes(
    img: Image.Image,
    fit: Fit = Fit.CONTAIN,
    *,
    upright: bool = False,
    dither: bool = False,
    threshold: int = 128,
) -> Planes:
    """Any picture -> the panel's planes (fit, then palette-map or dither).

    Lines thinner than the scaling's step (a line drawing shrunk tenfold) fade to light
    grey and would vanish at the threshold: when the fitted picture keeps under a quarter
    of the picture's ink, the picture is shrunk instead by keeping the darkest pixel of
    each step x step block, which keeps every line at least a pixel wide. Nothing here
    filters or resamples the picture at its own size: its cost grows with its pixels,
    not with pixels x step squared.
    """
    source = _landscape_rgb(img, upright)
    fitted = _fit(source, fit)
    if not dither:
        scale = max(source.width / LANDSCAPE_SIZE[0], source.height / LANDSCAPE_SIZE[1])
        if scale >= 2 and ink_share(fitted, threshold) < ink_share(source, threshold) / 4:
            fitted = _fit(darkest_of_blocks(source, int(scale) | 1), fit)
    return image_to_planes(fitted, dither=dither, threshold=threshold)


def darkest_of_blocks(img: Image.Image, step: int) -> Image.Image:
    """``img`` (RGB) shrunk ``step`` times: each pixel the per-channel minimum of a
    ``step`` x ``step`` block (a side shorter than ``step`` is one block; the last blocks
    are padded with white)."""
    down, across = min(step, img.height), min(step, img.width)
    rows, columns = -(-img.height // down), -(-img.width // across)
    padded = np.full((rows * down, columns * across, 3), 255, dtype=np.uint8)
    padded[: img.height, : img.width] = np.asarray(img)
    blocks = padded.reshape(rows, down, columns, across, 3)
    return Image.fromarray(blocks.min(axis=(1, 3)))


def _landscape_rgb(img: Image.Image, upright: bool) -> Image.Image:
    if img.width < 1 or img.height < 1:
        raise ValueError("the image is empty")
    # Honour a camera's orientation tag before judging the aspect.
    rgb = flatten_to_rgb(ImageOps.exif_transpose(img))
    return rgb.transpose(Image.Transpose.ROTATE_90) if upright else rgb


def _fit(rgb: Image.Image, fit: Fit) -> Image.Image:
    """An RGB landscape picture fitted to the panel. A large one is first shrunk by a
    whole factor (Pillow's block average, one pass over its pixels) to at least twice
    the size the fit scales it to, so the Lanczos filter runs on a small picture."""
    if rgb.size == LANDSCAPE_SIZE:
        return rgb
    across, down = rgb.width / LANDSCAPE_SIZE[0], rgb.height / LANDSCAPE_SIZE[1]
    if fit is Fit.STRETCH:
        factor: tuple[int, int] = (max(1, int(across / 2)), max(1, int(down / 2)))
    else:
        scale = max(across, down) if fit is Fit.CONTAIN else min(across, down)
        factor = (max(1, int(scale / 2)),) * 2
    if factor != (1, 1):
        rgb = rgb.reduce(factor)
    if fit is Fit.STRETCH:
        return rgb.resize(LANDSCAPE_SIZE, Image.Resampling.LANCZOS)
    if fit is Fit.COVER:
        return ImageOps.fit(rgb, LANDSCAPE_SIZE, Image.Resampling.LANCZOS)
    return ImageOps.pad(rgb, LANDSCAPE_SIZE, Image.Resampling.LANCZOS, color=WHITE)


def ink_share(img: Image.Image, threshold: int = 128) -> float:
    """The share of ``img``'s pixels darker than ``threshold`` (black or red ink)."""
    return float((np.asarray(img.convert("L")) < threshold).mean())
