"""Helpers for the link tests that run the simulated board: frames, damage for the line
between host and board (support.serial_port.PortInFront), wrong-baud noise."""

from __future__ import annotations

import random

from support.serial_port import Mangle

from epdle.frames import encode
from epdle.link import Device
from epdle.render.planes import Planes
from epdle.render.suggestions import render_suggestion
from epdle.solver.engine import Suggestion

HISTORY = [("crane", "bgybb"), ("sloth", "bbgyb")]


def suggestion_planes(words: list[str]) -> list[Planes]:
    """Typical suggestion frames: a big word, a few lines, the board so far."""
    return [
        render_suggestion(
            HISTORY,
            Suggestion(word, 3.2 - 0.1 * rank, 5.0, rank % 2 == 0),
            rank + 1,
            len(words),
            23,
        )
        for rank, word in enumerate(words)
    ]


def small_planes(count: int, seed: int, black_rows: int = 20) -> list[Planes]:
    """Frames of a few hundred bytes (a short power-cut sweep): a band of
    random ink in each plane."""
    rng = random.Random(seed)
    planes = []
    for _ in range(count):
        black = bytearray(b"\xff" * 2756)
        red = bytearray(b"\xff" * 2756)
        for at in range(13 * 40, 13 * (40 + black_rows)):
            black[at] = rng.randrange(256) | rng.randrange(256)
        for at in range(13 * 100, 13 * 108):
            red[at] = rng.randrange(256) | rng.randrange(256) | rng.randrange(256)
        planes.append(Planes(black=bytes(black), red=bytes(red)))
    return planes


def frame_of_length(length: int, seed: int = 0) -> bytes:
    """A frame that decodes, of exactly `length` bytes (even, 10 to about 88,000): windows
    whose every pixel is coded "1" (an order-0 run of none), 2 * width bytes a row;
    full-width windows first, a one-byte-wide one to end on the exact length."""
    if length < 10 or length % 2:
        raise ValueError(f"no such frame of {length} bytes")
    windows = []
    left = length - 2
    while left:
        y = (seed + len(windows)) % 8
        if left - 6 <= 2 * (212 - y):
            rows, width, x = (left - 6) // 2, 1, (seed + len(windows)) % 13
        else:
            rows, width, x = min(212 - y, (left - 16) // 26), 13, 0
        windows.append(bytes([x, y, width, rows, 0, 0]) + b"\xff" * 2 * width * rows)
        left -= 6 + 2 * width * rows
    return bytes([1, len(windows)]) + b"".join(windows)


def encoded(planes: list[Planes]) -> list[bytes]:
    return [encode(p.black, p.red) for p in planes]


def shows(dev: Device, planes: list[Planes]) -> bool:
    """The device holds exactly this set: it shows each frame as drawn."""
    if dev.info().frames != len(planes):
        return False
    board = dev.serial.board
    for index, expected in enumerate(planes):
        dev.show(index)
        if board.panel_planes() != (expected.black, expected.red):
            return False
    assert board.violations() == []
    return True


def every_nth(n: int, damage: Mangle, seed: int = 1, shortest: int = 6) -> Mangle:
    """Damage one write (or read) in n, skipping those under `shortest` bytes (a host's
    wake preamble; the device's replies come a few bytes a read, so reads use 1)."""
    rng = random.Random(seed)
    count = 0

    def mangle(data: bytes) -> bytes:
        nonlocal count
        if len(data) < shortest:
            return data
        count += 1
        return damage(data) if count % n == 0 or rng.random() < 0.02 else data

    return mangle


def drop_byte(data: bytes) -> bytes:
    at = len(data) // 3
    return data[:at] + data[at + 1 :]


def flip_bit(data: bytes) -> bytes:
    at = len(data) // 2
    return data[:at] + bytes([data[at] ^ 0x10]) + data[at + 1 :]


def repeat_byte(data: bytes) -> bytes:
    at = len(data) // 4
    return data[: at + 1] + data[at:]


def swap_bytes(data: bytes) -> bytes:
    at = len(data) // 2
    return data[: at - 1] + bytes([data[at], data[at - 1]]) + data[at + 1 :]


def truncate(data: bytes) -> bytes:
    return data[: len(data) // 2]


def repeat_packet(data: bytes) -> bytes:
    return data + data


def wrong_baud_noise(rng: random.Random, count: int, baud: int, line_baud: int = 115200) -> bytes:
    """What a 115200 8N1 receiver makes of `count` random bytes sent at
    `baud`: the line level is resampled at the receiver's bit time, and
    each start bit it sees begins a character."""
    bits: list[int] = [1] * 20
    for _ in range(count):
        byte = rng.randrange(256)
        bits += [0] + [(byte >> i) & 1 for i in range(8)] + [1] + [1] * rng.randrange(3)
    bits += [1] * 20
    level_at = [bits[int(t * baud / line_baud)] for t in range(int(len(bits) * line_baud / baud))]
    received = bytearray()
    t = 0
    while t + 10 <= len(level_at):
        if level_at[t] == 1:
            t += 1
            continue
        received.append(sum(level_at[t + 1 + i] << i for i in range(8)))
        t += 10
    return bytes(received)
