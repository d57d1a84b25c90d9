"""sigrok on the simulated pins: a fast update's SPI, recorded in the board's VCD and
decoded by sigrok-cli's own SPI decoder, equals what the panel model received and what the
host expects (the driver's waveform in the LUTs, its settings, PARTIAL_IN and the frame's
fast window, and in the panel's RAM inside that window the frame on the glass as DTM1, the
OLD picture, and the new frame's black as DTM2, the NEW one).

The panel's bus has a fourth wire, D/C (low: a command byte, high: data), steady through
each byte: the decoder reads it as a second data line (MISO), one byte of all zeros or all
ones beside each byte of SDA. sigrok-cli comes from Debian (`bash tools/setup/bootstrap.sh
test`); without it this test fails, it is not skipped."""

from __future__ import annotations

import shutil
import subprocess
import zlib
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from test_fast_updates import press_through, suggestion_set

from epdle.frames import decode
from epdle.frames.decoder import fast_window
from epdle.link import Device
from epdle.sim import board_behind

PANEL_NETS = ("EPD_SCL", "EPD_SDA", "EPD_CS", "EPD_DC")
# sigrok samples the 1 ns VCD every 50 ns (one sample per 50 of its time stamps), and
# shortens a stretch without an edge to 1000 samples: a bus whose edges are at least two
# samples apart decodes the same (the CPU takes 125 ns for a pin write).
DOWNSAMPLE_NS = 50
IDLE_SAMPLES = 1000
ROW_BYTES = 13
HEIGHT = 212
PANEL_SETTING, DTM1, DTM2, LUT_VCOM, VCOM_DATA_INTERVAL = 0x00, 0x10, 0x13, 0x20, 0x50
DISPLAY_REFRESH, PARTIAL_WINDOW, PARTIAL_IN, PLL_CONTROL = 0x12, 0x90, 0x91, 0x30

Transaction = tuple[int, bytes]


def crop_vcd(source: Path, target: Path, start_ns: int, end_ns: int) -> int:
    """The panel's four bus nets from start_ns to end_ns, as a VCD of their own that
    starts at 0 with their levels at start_ns (sigrok then samples only the update); the
    shortest time between two of their edges (ns)."""
    ids: dict[str, str] = {}
    level: dict[str, str] = {}
    changes: list[tuple[int, str]] = []
    now = 0
    with source.open() as vcd:
        for line in vcd:
            fields = line.split()
            if line.startswith("$var") and fields[4] in PANEL_NETS:
                ids[fields[3]] = fields[4]
            elif line.startswith("#"):
                now = int(line[1:])
                if now > end_ns:
                    break
            elif fields and fields[0][:1] in "01" and fields[0][1:] in ids:
                if now < start_ns:
                    level[fields[0][1:]] = fields[0][0]
                else:
                    changes.append((now - start_ns, fields[0]))
    lines = ["$timescale 1ns $end", "$scope module board $end"]
    lines += [f"$var wire 1 {net_id} {name} $end" for net_id, name in ids.items()]
    lines += ["$upscope $end", "$enddefinitions $end", "#0"]
    lines += [level.get(net_id, "0") + net_id for net_id in ids]
    stamped = 0
    for at, change in changes:
        if at != stamped:
            lines.append(f"#{at}")
            stamped = at
        lines.append(change)
    lines.append(f"#{end_ns - start_ns}")
    target.write_text("\n".join(lines) + "\n")
    stamps = sorted({at for at, _ in changes})
    return min(b - a for a, b in pairwise(stamps))


def sigrok_spi(vcd: Path, stream: str) -> bytes:
    """One of the SPI decoder's binary outputs (mosi: SDA's bytes, miso: D/C's)."""
    sigrok = shutil.which("sigrok-cli")
    if sigrok is None:
        pytest.fail("sigrok-cli is not installed: run `bash tools/setup/bootstrap.sh test`")
    decoded = subprocess.run(
        [
            sigrok,
            "--input-file",
            str(vcd),
            "--input-format",
            f"vcd:downsample={DOWNSAMPLE_NS}:compress={IDLE_SAMPLES}",
            "--protocol-decoders",
            "spi:clk=EPD_SCL:mosi=EPD_SDA:miso=EPD_DC:cs=EPD_CS:cpol=0:cpha=0",
            "--protocol-decoder-binary",
            f"spi={stream}",
        ],
        capture_output=True,
        timeout=120,
        check=True,
    )
    return decoded.stdout


def transactions(sda: bytes, dc: bytes) -> list[Transaction]:
    """Commands (D/C low) with the data bytes (D/C high) that follow each."""
    assert len(sda) == len(dc) and set(dc) <= {0x00, 0xFF}, "D/C changed inside a byte"
    out: list[Transaction] = []
    data = bytearray()
    for byte, level in zip(sda, dc, strict=True):
        if level == 0x00:
            if out:
                out[-1] = (out[-1][0], bytes(data))
            out.append((byte, b""))
            data = bytearray()
        else:
            assert out, "a data byte before any command"
            data.append(byte)
    if out:
        out[-1] = (out[-1][0], bytes(data))
    return out


def panel_ram(decoded: list[Transaction]) -> np.ndarray:
    """The two planes as the windows and DTM1/DTM2 writes leave them (rows x row bytes)."""
    ram = np.zeros((2, HEIGHT, ROW_BYTES), dtype=np.uint8)
    x0 = x1 = y0 = y1 = 0
    for command, data in decoded:
        if command == PARTIAL_WINDOW:
            x0, x1, y0, y1 = (
                data[0] // 8,
                data[1] // 8,
                data[2] << 8 | data[3],
                data[4] << 8 | data[5],
            )
        elif command in (DTM1, DTM2):
            window = (y1 - y0 + 1, x1 - x0 + 1)
            assert len(data) == window[0] * window[1], "a plane write that is not its window"
            plane = ram[0 if command == DTM1 else 1]
            plane[y0 : y1 + 1, x0 : x1 + 1] = np.frombuffer(data, np.uint8).reshape(window)
    return ram


def expected_fast_commands(frame: bytes) -> list[Transaction]:
    """From the LUTs to DISPLAY_REFRESH: GxEPD2's refresh_bw waveform for this panel (one
    group of 0x1F + 1 frames, repeated once; BW at VDL 0x80, WB at VDH 0x40, the rest
    grounded), the LUT from registers in black/white, GxEPD2's VCOM and data interval,
    PARTIAL_IN and the frame's fast window as the host encoded it."""
    window = fast_window(frame)
    assert window is not None
    x, w = window.x_bytes * 8, window.width_bytes * 8
    last_row = window.y + window.height - 1
    luts = [
        (LUT_VCOM + n, bytes([level, 0x1F, 0x01, 0x00, 0x00, 0x01]) + bytes(38 if n == 0 else 36))
        for n, level in enumerate((0x00, 0x00, 0x80, 0x40, 0x00))
    ]
    return [
        *luts,
        (PANEL_SETTING, bytes([0xBF])),
        (VCOM_DATA_INTERVAL, bytes([0xF7])),
        (PARTIAL_IN, b""),
        (PARTIAL_WINDOW, bytes([x, x + w - 1, 0, window.y, 0, last_row, 0x01])),
        (DISPLAY_REFRESH, b""),
    ]


def test_sigrok_decodes_a_fast_update_as_the_panel_received_and_the_host_expects(
    tmp_path: Path,
) -> None:
    vcd = tmp_path / "board.vcd"
    frames = suggestion_set()
    with Device.open(f"sim://?vcd={vcd}", timeout=0.5, retries=4) as device:
        board = board_behind(device.serial)
        assert board is not None
        device.push(frames)
        press_through(board, frames[:1])
        seen = len(board.epd_transactions())
        pressed_ns = int(board.time_ms * 1e6)
        assert [press["kind"] for press in press_through(board, frames[1:2])] == ["fast"]
        received = board.epd_transactions()[seen:]
    refresh_ns = round(next(t["t_ms"] for t in received if t["cmd"] == DISPLAY_REFRESH) * 1e6)
    update = tmp_path / "fast-update.vcd"
    assert crop_vcd(vcd, update, pressed_ns, refresh_ns + 1_000) >= 2 * DOWNSAMPLE_NS
    decoded = transactions(sigrok_spi(update, "mosi"), sigrok_spi(update, "miso"))

    # What sigrok decoded is what the panel model received, byte for byte.
    received = [t for t in received if t["t_ms"] <= refresh_ns / 1e6]
    assert [(c, len(d), d[:16].hex(), zlib.crc32(d)) for c, d in decoded] == [
        (t["cmd"], t["len"], t["data"], t["crc32"]) for t in received
    ]
    # The fast update's commands are the host's expectation, and the planes the frame's.
    tail = expected_fast_commands(frames[1])
    assert decoded[-len(tail) :] == tail
    # No PLL_CONTROL: the waveform runs at the PLL's reset value (0x3C, 50 Hz), as GxEPD2's.
    assert PLL_CONTROL not in [command for command, _ in decoded]
    window = fast_window(frames[1])
    assert window is not None
    inside = np.s_[
        window.y : window.y + window.height,
        window.x_bytes : window.x_bytes + window.width_bytes,
    ]
    old, new = (
        np.frombuffer(decode(frame)[0], np.uint8).reshape(HEIGHT, ROW_BYTES) for frame in frames[:2]
    )
    ram = panel_ram(decoded)
    assert (ram[0][inside] == old[inside]).all() and (ram[1][inside] == new[inside]).all()
    assert (old[inside] != new[inside]).any()
