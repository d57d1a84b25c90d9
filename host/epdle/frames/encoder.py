"""Encoder: choose windows around the ink, code each plane's transitions compactly."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .bits import golomb_code, golomb_code_length
from .fast import fast_header, set_fast_window
from .format import (
    MAX_GOLOMB_ORDER,
    MAX_WINDOWS,
    PANEL_HEIGHT,
    PLANE_BYTES,
    ROW_BYTES,
    Window,
)
from .transitions import pixels_to_transitions

if TYPE_CHECKING:
    from epdle.panel import Planes

# Blank rows that split the ink into separate windows; each candidate split is encoded
# and the smallest frame wins (a window header costs 5 bytes, a long blank run ~3).
BAND_GAPS = (4, 12, 32)


def encode(black: bytes, red: bytes, fast: Window | None = None) -> bytes:
    """The smallest frame this encoder finds for the native planes (2756 bytes each),
    with ``fast`` as its fast window (version 2; ValueError if red lies in it)."""
    planes = [_plane_array(plane, name) for plane, name in ((black, "black"), (red, "red"))]
    header = fast_header(planes[1], fast)
    ink_rows, ink_columns = _ink(planes)
    if not ink_rows.any():
        return header + bytes([0])
    window_sets = _window_sets(ink_rows, ink_columns)
    candidates = [header + _encode_arrays(planes, windows) for windows in window_sets]
    return min(candidates, key=len)


def encode_set(frames: Iterable[Planes], fast: bool = True) -> list[bytes]:
    """A frame set's planes, each encoded (what a push or a .hex/.h file carries). With
    ``fast``, every frame carries the set's fast window if it has one (``set_fast_window``)."""
    planes_list = list(frames)
    window = set_fast_window([(p.black, p.red) for p in planes_list]) if fast else None
    return [encode(planes.black, planes.red, window) for planes in planes_list]


def encode_windows(black: bytes, red: bytes, windows: Sequence[Window]) -> bytes:
    """A frame of exactly these windows, in order (what lies outside them is not sent)."""
    if len(windows) > MAX_WINDOWS:
        raise ValueError(f"{len(windows)} windows, at most {MAX_WINDOWS}")
    for window in windows:
        window.check()
    planes = [_plane_array(plane, name) for plane, name in ((black, "black"), (red, "red"))]
    return fast_header(planes[1], None) + _encode_arrays(planes, windows)


def _plane_array(plane: bytes, name: str) -> np.ndarray:
    if len(plane) != PLANE_BYTES:
        raise ValueError(f"{name} plane must be {PLANE_BYTES} bytes, got {len(plane)}")
    return np.frombuffer(bytes(plane), dtype=np.uint8).reshape(PANEL_HEIGHT, ROW_BYTES)


def _ink(planes: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Per row and per byte column: does either plane hold anything but white?"""
    inked = (planes[0] != 0xFF) | (planes[1] != 0xFF)
    return inked.any(axis=1), inked


def _window_sets(ink_rows: np.ndarray, inked: np.ndarray) -> Iterable[list[Window]]:
    """Each split's windows, largest first: the device whitens only around the first.

    The windows are disjoint row bands, so their order does not change the picture or
    the frame's size; a small first window would have the device whiten nearly the
    whole page, most of it then overwritten by the larger windows.
    """
    for gap in BAND_GAPS:
        windows = [_bounding_window(inked, band) for band in _bands(ink_rows, gap)]
        yield sorted(windows, key=lambda w: w.width_bytes * w.height, reverse=True)


def _bands(ink_rows: np.ndarray, min_gap: int) -> list[tuple[int, int]]:
    """Row ranges [start, stop) of ink separated by at least ``min_gap`` blank rows."""
    rows = np.flatnonzero(ink_rows)
    breaks = np.flatnonzero(np.diff(rows) > min_gap)
    starts = [int(rows[0]), *(int(rows[b + 1]) for b in breaks)]
    stops = [*(int(rows[b]) + 1 for b in breaks), int(rows[-1]) + 1]
    bands = list(zip(starts, stops, strict=True))
    while len(bands) > MAX_WINDOWS:
        # Merge across the smallest blank gap until the window count fits.
        smallest = min(range(len(bands) - 1), key=lambda i: bands[i + 1][0] - bands[i][1])
        bands[smallest : smallest + 2] = [(bands[smallest][0], bands[smallest + 1][1])]
    return bands


def _bounding_window(inked: np.ndarray, band: tuple[int, int]) -> Window:
    columns = np.flatnonzero(inked[band[0] : band[1]].any(axis=0))
    first, last = int(columns[0]), int(columns[-1])
    return Window(x_bytes=first, y=band[0], width_bytes=last - first + 1, height=band[1] - band[0])


def _encode_arrays(planes: list[np.ndarray], windows: Sequence[Window]) -> bytes:
    out = bytearray([len(windows)])
    for window in windows:
        plane_codes = [_codes(plane[window.rows(), window.columns()]) for plane in planes]
        plane_orders = [_best_orders(codes) for codes in plane_codes]
        out += bytes([window.x_bytes, window.y, window.width_bytes, window.height])
        out += bytes(orders[0] | orders[1] << 4 for orders in plane_orders)
        bits = "".join(
            golomb_code(run, orders[state])
            for codes, orders in zip(plane_codes, plane_orders, strict=True)
            for run, state in codes
        )
        bits += "0" * (-len(bits) % 8)
        out += int(bits, 2).to_bytes(len(bits) // 8, "big")
    return bytes(out)


def _codes(window_bytes: np.ndarray) -> list[tuple[int, int]]:
    """(run, state) of each code of a window plane: the zeros before each 1 of T, then the
    tail; state is the prediction error left of where the code is read (0 at a row start),
    which picks the code's order."""
    pixels = np.unpackbits(window_bytes, axis=1)
    transitions = pixels_to_transitions(pixels)
    errors = np.bitwise_xor.accumulate(transitions, axis=1)
    # Error of the pixel to the left of each position, 0 in the first column.
    left_errors = np.hstack([np.zeros((errors.shape[0], 1), dtype=np.uint8), errors[:, :-1]])
    flat_transitions, flat_left = transitions.ravel(), left_errors.ravel()
    ones = np.flatnonzero(flat_transitions)
    starts = np.concatenate([[0], ones + 1])
    runs = np.diff(starts) - 1
    codes = [(int(run), int(flat_left[start])) for run, start in zip(runs, starts, strict=False)]
    tail_start = int(starts[-1])
    if tail_start < flat_transitions.size:
        codes.append((flat_transitions.size - tail_start, int(flat_left[tail_start])))
    return codes


def _best_orders(codes: list[tuple[int, int]]) -> tuple[int, int]:
    """The cheapest order for the codes read in state 0 and in state 1."""
    runs_by_state = (
        [run for run, state in codes if state == 0],
        [run for run, state in codes if state == 1],
    )
    return _best_order(runs_by_state[0]), _best_order(runs_by_state[1])


def _best_order(runs: list[int]) -> int:
    return min(
        range(MAX_GOLOMB_ORDER + 1),
        key=lambda order: sum(golomb_code_length(run, order) for run in runs),
    )
