"""Encoder: choose windows around the ink, code each plane's transitions compactly."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .bits import golomb_code, golomb_code_length
from .format import (
    FORMAT_VERSION,
    MAX_GOLOMB_ORDER,
    MAX_WINDOWS,
    PANEL_HEIGHT,
    PLANE_BYTES,
    ROW_BYTES,
    Window,
)
from .transitions import pixels_to_transitions

# Blank rows that split the ink into separate windows; each candidate split is encoded
# and the smallest frame wins (a window header costs 5 bytes, a long blank run ~3).
BAND_GAPS = (4, 12, 32)


def encode(black: bytes, red: bytes) -> bytes:
    """The smallest frame this encoder finds for the native planes (2756 bytes each)."""
    planes = [_plane_array(plane, name) for plane, name in ((black, "black"), (red, "red"))]
    ink_rows, ink_columns = _ink(planes)
    if not ink_rows.any():
        return bytes([FORMAT_VERSION, 0])
    window_sets = _window_sets(ink_rows, ink_columns)
    candidates = [_encode_arrays(planes, windows) for windows in window_sets]
    return min(candidates, key=len)


def encode_windows(black: bytes, red: bytes, windows: Sequence[Window]) -> bytes:
    """A frame of exactly these windows, in order (what lies outside them is not sent)."""
    if len(windows) > MAX_WINDOWS:
        raise ValueError(f"{len(windows)} windows, at most {MAX_WINDOWS}")
    for window in windows:
        window.check()
    planes = [_plane_array(plane, name) for plane, name in ((black, "black"), (red, "red"))]
    return _encode_arrays(planes, windows)


def _plane_array(plane: bytes, name: str) -> np.ndarray:
    if len(plane) != PLANE_BYTES:
        raise ValueError(f"{name} plane must be {PLANE_BYTES} bytes, got {len(plane)}")
    return np.frombuffer(bytes(plane), dtype=np.uint8).reshape(PANEL_HEIGHT, ROW_BYTES)


def _ink(planes: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Per row and per byte column: does either plane hold anything but white?"""
    inked = (planes[0] != 0xFF) | (planes[1] != 0xFF)
    return inked.any(axis=1), inked


def _window_sets(ink_rows: np.ndarray, inked: np.ndarray) -> Iterable[list[Window]]:
    for gap in BAND_GAPS:
        yield [_bounding_window(inked, band) for band in _bands(ink_rows, gap)]


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
    out = bytearray([FORMAT_VERSION, len(windows)])
    for window in windows:
        gap_lists = [_gaps(plane[window.rows(), window.columns()]) for plane in planes]
        orders = [_best_order(gaps) for gaps in gap_lists]
        header = (window.x_bytes, window.y, window.width_bytes, window.height)
        out += bytes([*header, orders[0] | orders[1] << 4])
        codes = "".join(
            golomb_code(gap, order)
            for gaps, order in zip(gap_lists, orders, strict=True)
            for gap in gaps
        )
        codes += "0" * (-len(codes) % 8)
        out += int(codes, 2).to_bytes(len(codes) // 8, "big")
    return bytes(out)


def _gaps(window_bytes: np.ndarray) -> list[int]:
    """Run-length codes of a window plane: zeros before each 1 of T, then the tail."""
    transitions = pixels_to_transitions(np.unpackbits(window_bytes, axis=1)).ravel()
    ones = np.flatnonzero(transitions)
    gaps = np.diff(ones, prepend=-1) - 1
    tail = transitions.size - (int(ones[-1]) + 1 if ones.size else 0)
    return [int(gap) for gap in gaps] + ([tail] if tail else [])


def _best_order(gaps: list[int]) -> int:
    return min(
        range(MAX_GOLOMB_ORDER + 1),
        key=lambda order: sum(golomb_code_length(gap, order) for gap in gaps),
    )
