"""The fonts shipped with the package (DejaVu, licence in fonts/LICENSE-DejaVu.txt)."""

from __future__ import annotations

from enum import Enum
from functools import cache
from importlib import resources
from io import BytesIO

from PIL import ImageFont


class Face(Enum):
    BOLD = "DejaVuSans-Bold.ttf"
    CONDENSED_BOLD = "DejaVuSansCondensed-Bold.ttf"
    REGULAR = "DejaVuSans.ttf"


@cache
def font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    """A shipped face at ``size`` pixels per em (cached: frames reuse a few sizes)."""
    data = resources.files(__package__).joinpath("fonts", face.value).read_bytes()
    return ImageFont.truetype(BytesIO(data), size)
