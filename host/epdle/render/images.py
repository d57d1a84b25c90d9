"""Pictures of any size made ready for the panel: fitted to 212 x 104, then planes."""

from __future__ import annotations

from enum import Enum

from PIL import Image, ImageOps

from .planes import LANDSCAPE_SIZE, WHITE, Planes, flatten_to_rgb, image_to_planes


class Fit(Enum):
    CONTAIN = "contain"  # whole picture, white bars where the aspect differs
    COVER = "cover"  # fill the panel, centre-crop what sticks out
    STRETCH = "stretch"  # fill the panel, distorting the aspect


def fit_to_panel(img: Image.Image, fit: Fit = Fit.CONTAIN) -> Image.Image:
    """``img`` scaled to the landscape panel size, RGB on white."""
    if img.width < 1 or img.height < 1:
        raise ValueError("the image is empty")
    # Honour a camera's orientation tag before judging the aspect.
    rgb = flatten_to_rgb(ImageOps.exif_transpose(img))
    if rgb.size == LANDSCAPE_SIZE:
        return rgb
    if fit is Fit.STRETCH:
        return rgb.resize(LANDSCAPE_SIZE, Image.Resampling.LANCZOS)
    if fit is Fit.COVER:
        return ImageOps.fit(rgb, LANDSCAPE_SIZE, Image.Resampling.LANCZOS)
    return ImageOps.pad(rgb, LANDSCAPE_SIZE, Image.Resampling.LANCZOS, color=WHITE)


def picture_to_planes(
    img: Image.Image, fit: Fit = Fit.CONTAIN, *, dither: bool = False, threshold: int = 128
) -> Planes:
    """Any picture -> the panel's planes (fit, then palette-map or dither)."""
    return image_to_planes(fit_to_panel(img, fit), dither=dither, threshold=threshold)
