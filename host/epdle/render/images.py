"""Pictures of any size made ready for the panel: fitted to 212 x 104, then planes."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageFilter, ImageOps

from .options import WHITE, Fit
from .planes import LANDSCAPE_SIZE, Planes, flatten_to_rgb, image_to_planes


def fit_to_panel(img: Image.Image, fit: Fit = Fit.CONTAIN, *, upright: bool = False) -> Image.Image:
    """``img`` scaled to the landscape panel size, RGB on white.

    ``upright``: the picture is for the device held upright (104 x 212, the
    controller's native orientation), so it is turned a quarter counter-clockwise
    into the landscape frame, which planes.py turns back.
    """
    if img.width < 1 or img.height < 1:
        raise ValueError("the image is empty")
    # Honour a camera's orientation tag before judging the aspect.
    rgb = flatten_to_rgb(ImageOps.exif_transpose(img))
    if upright:
        rgb = rgb.transpose(Image.Transpose.ROTATE_90)
    if rgb.size == LANDSCAPE_SIZE:
        return rgb
    if fit is Fit.STRETCH:
        return rgb.resize(LANDSCAPE_SIZE, Image.Resampling.LANCZOS)
    if fit is Fit.COVER:
        return ImageOps.fit(rgb, LANDSCAPE_SIZE, Image.Resampling.LANCZOS)
    return ImageOps.pad(rgb, LANDSCAPE_SIZE, Image.Resampling.LANCZOS, color=WHITE)


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
    of the picture's ink, its dark lines are thickened by that step before the scaling.
    """
    fitted = fit_to_panel(img, fit, upright=upright)
    if not dither:
        source = flatten_to_rgb(ImageOps.exif_transpose(img))
        scale = max(source.width / LANDSCAPE_SIZE[0], source.height / LANDSCAPE_SIZE[1])
        if scale >= 2 and ink_share(fitted, threshold) < ink_share(source, threshold) / 4:
            step = int(scale) | 1  # odd: the filter is centred
            fitted = fit_to_panel(source.filter(ImageFilter.MinFilter(step)), fit, upright=upright)
    return image_to_planes(fitted, dither=dither, threshold=threshold)


def ink_share(img: Image.Image, threshold: int = 128) -> float:
    """The share of ``img``'s pixels darker than ``threshold`` (black or red ink)."""
    return float((np.asarray(img.convert("L")) < threshold).mean())
