"""The renderer's choices as plain values (colours, fits, output types).

Kept free of Pillow and numpy so the command line can offer them without loading either.
"""

from __future__ import annotations

from enum import Enum

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
RED = (255, 0, 0)
YELLOW = (255, 204, 0)
# The third ink of the panel variants: black/white/red or black/white/yellow.
ACCENT_COLOURS = {"red": RED, "yellow": YELLOW}

FORMATS = (".png", ".frame", ".h", ".hex")
# The largest picture taken (a 6000 x 4000 camera photo): decoded, fitted and converted
# it peaks at a few hundred MB; a larger one is refused before it is decoded.
MAX_PICTURE_PIXELS = 24_000_000
SINGLE_FRAME_FORMATS = (".png", ".frame")


class Fit(Enum):
    CONTAIN = "contain"  # whole picture, white bars where the aspect differs
    COVER = "cover"  # fill the panel, centre-crop what sticks out
    STRETCH = "stretch"  # fill the panel, distorting the aspect
