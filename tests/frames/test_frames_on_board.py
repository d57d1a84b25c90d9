"""Frames on the simulated board: the firmware's decoder, display path and panel model."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from frames_vector_files import ROOT, VECTOR_DIR
from PIL import Image

from epdle.frames import decode, encode
from epdle.link.device import Device, DeviceRejected
from epdle.link.protocol import ErrorCode
from epdle.render.suggestions import render_suggestion
from epdle.sim import Board
from epdle.solver.engine import Suggestion

IMAGES = sorted((ROOT / "images").glob("*.png"))
BOOT_MS = 10_000
UPDATE_MS = 60_000


def _settled(board: Board, refreshes: int) -> bool:
    return board.refresh_count >= refreshes and board.asleep and not board.panel_powered


def test_presses_show_the_builtin_frames_pixel_for_pixel(tmp_path: Path) -> None:
    with Board(png_dir=tmp_path) as board:
        assert board.run_until(lambda b: b.asleep, BOOT_MS)
        # One more press than there are images: the last one wraps to the first.
        while board.refresh_count <= len(IMAGES):
            refreshes = board.refresh_count + 1
            board.press_button()
            assert board.run_until(lambda b, n=refreshes: _settled(b, n), UPDATE_MS)
        assert board.violations() == []
    for number in range(1, len(IMAGES) + 2):
        # Refresh n shows frame n - 1: presses step through the frames from the first.
        source = IMAGES[(number - 1) % len(IMAGES)]
        shown = np.asarray(Image.open(tmp_path / f"panel-{number}.png").convert("RGB"))
        expected = np.asarray(Image.open(source).convert("RGB"))
        mismatched = int(np.any(shown != expected, axis=2).sum())
        assert mismatched == 0, f"panel {number} differs from {source.name} in {mismatched} px"


def _suggestion_frames() -> list[bytes]:
    history = (("SLATE", "BBYBY"), ("CRONY", "GYBBB"), ("CORER", "GGBGG"))
    frames = []
    for rank, word in enumerate(("MOVER", "COVER", "HOVER"), start=1):
        suggestion = Suggestion(word, 1.5, 1.0, True)
        planes = render_suggestion(history[: rank + 1], suggestion, rank, 3, 3)
        frames.append(encode(planes.black, planes.red))
    return frames


@pytest.fixture
def device() -> Iterator[Device]:
    with Device.open("sim://") as opened:
        yield opened


def test_pushed_frames_show_exactly_their_planes(device: Device) -> None:
    frames = [*_suggestion_frames(), (VECTOR_DIR / "full_and_corners.frame").read_bytes()]
    device.push(frames)
    board: Board = device.serial.board
    for index, frame in enumerate(frames):
        device.show(index)
        assert board.run_until(lambda b: not b.panel_powered, UPDATE_MS)
        assert board.panel_planes() == decode(frame)
    assert board.violations() == []


def test_a_set_with_a_malformed_frame_is_refused_and_the_old_one_kept(device: Device) -> None:
    good = _suggestion_frames()[0]
    truncated = good[:-1]
    device.push([good])
    board: Board = device.serial.board
    device.show(0)
    assert board.run_until(lambda b: not b.panel_powered, UPDATE_MS)
    refreshes = board.refresh_count
    # The device decodes every frame of a set before it commits it.
    with pytest.raises(DeviceRejected) as refused:
        device.push([good, truncated])
    assert refused.value.code == ErrorCode.FRAME_FORMAT and refused.value.detail == 1
    assert device.info().frames == 1
    assert board.refresh_count == refreshes
    assert board.panel_planes() == decode(good)
    assert board.violations() == []
