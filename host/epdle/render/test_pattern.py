"""The bring-up test pattern: three frames that drive every pixel of both planes.

1. The pattern: a black border on the outermost pixels, a red corner mark at the top
   left (the picture's orientation), then side by side: solid black, solid red, a
   one-pixel black/white checkerboard and a one-pixel red/white checkerboard (each pixel
   the opposite of its neighbours), with two rulers: one-pixel stripes alternately black
   and red along the top (each panel row on its own) and eight-pixel blocks alternately
   black and red down the left (each byte of a row on its own: a bit or byte order error
   breaks the blocks).
2. The whole panel black: every black-plane bit 0, every red-plane bit 1.
3. The whole panel red: every red-plane bit 0 (the black plane white).

Frames 2 and 3 between them set every bit of both planes to 0 and to 1.
"""

from __future__ import annotations

import numpy as np

from epdle.panel import LANDSCAPE_SIZE, NATIVE_SIZE, Planes

WIDTH, HEIGHT = LANDSCAPE_SIZE
RULER = slice(2, 10)  # the top ruler's rows, the left ruler's columns
BANDS_TOP = 14  # the four bands below the top ruler
BANDS_LEFT = 12  # right of the left ruler
BAND_WIDTH = (WIDTH - 2 - BANDS_LEFT) // 4


def pattern() -> Planes:
    black = np.zeros((HEIGHT, WIDTH), dtype=bool)
    red = np.zeros((HEIGHT, WIDTH), dtype=bool)
    black[0, :] = black[-1, :] = black[:, 0] = black[:, -1] = True
    red[RULER, RULER] = True  # orientation: the top-left corner

    # Top ruler: landscape column x is native row x, so one-pixel stripes alternate rows.
    columns = np.arange(BANDS_LEFT, WIDTH - 2)
    black[RULER, columns[columns % 2 == 0]] = True
    red[RULER, columns[columns % 2 == 1]] = True

    # Left ruler: landscape row y is native column 103 - y, byte (103 - y) // 8 of a row.
    rows = np.arange(BANDS_TOP, HEIGHT - 2)
    byte_is_odd = ((NATIVE_SIZE[0] - 1 - rows) // 8) % 2 == 1
    black[rows[~byte_is_odd], RULER] = True
    red[rows[byte_is_odd], RULER] = True

    bands = [
        slice(BANDS_LEFT + i * BAND_WIDTH, BANDS_LEFT + (i + 1) * BAND_WIDTH) for i in range(4)
    ]
    area = slice(BANDS_TOP, HEIGHT - 2)
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH]
    checker = (yy + xx) % 2 == 0
    black[area, bands[0]] = True
    red[area, bands[1]] = True
    black[area, bands[2]] = checker[area, bands[2]]
    red[area, bands[3]] = checker[area, bands[3]]
    return Planes.from_masks(black, red)


def pattern_frames() -> list[Planes]:
    """The pattern, all black, all red: the frames `epdle show --test-pattern` sends."""
    ink = np.ones((HEIGHT, WIDTH), dtype=bool)
    none = np.zeros((HEIGHT, WIDTH), dtype=bool)
    return [pattern(), Planes.from_masks(ink, none), Planes.from_masks(none, ink)]
