"""The two-dimensional transform the run-length codes describe.

A window's plane (1 = white) is predicted from the row above (white above the
first row); the prediction errors E are then XORed with their left neighbour
(0 left of the first column), leaving T, which is 1 only where an edge starts
or stops. T is sparse for text and shapes, and the device undoes the
transform with one row of memory (docs/frame-format.md).
"""

from __future__ import annotations

import numpy as np


def pixels_to_transitions(pixels: np.ndarray) -> np.ndarray:
    """(rows, width) array of 0/1 pixels -> T of the same shape."""
    above = np.vstack([np.ones((1, pixels.shape[1]), dtype=np.uint8), pixels[:-1]])
    errors = pixels ^ above
    left = np.hstack([np.zeros((errors.shape[0], 1), dtype=np.uint8), errors[:, :-1]])
    return errors ^ left


def transitions_to_pixels(transitions: np.ndarray) -> np.ndarray:
    """Inverse of pixels_to_transitions."""
    errors = np.bitwise_xor.accumulate(transitions, axis=1)
    return 1 ^ np.bitwise_xor.accumulate(errors, axis=0)
