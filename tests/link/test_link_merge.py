"""`epdle merge`: the firmware's HEX plus a frame set, which the board boots with."""

from __future__ import annotations

from pathlib import Path

import pytest
from intelhex import IntelHex
from link_sim_support import encoded, small_planes

from epdle.cli import main
from epdle.frames import store
from epdle.link import Device


def _firmware(path: Path, byte_address: int = 0) -> Path:
    image = IntelHex()
    for offset, byte in enumerate(b"\x8c\x31\x00\x28"):  # a few instruction words
        image[byte_address + offset] = byte
    image.write_hex_file(str(path))
    return path


def test_merged_image_holds_the_firmware_and_the_committed_set(tmp_path: Path, capsys) -> None:
    frames = encoded(small_planes(2, seed=3))
    paths = []
    for index, frame in enumerate(frames):
        paths.append(tmp_path / f"{index}.frame")
        paths[-1].write_bytes(frame)
    firmware = _firmware(tmp_path / "fw.hex")
    out = tmp_path / "device.hex"
    assert main(["merge", str(firmware), *map(str, paths), "--out", str(out)]) == 0
    assert "plus 2 frame(s)" in capsys.readouterr().out
    words = store.words_from_hex(out)
    assert words[0] == 0x318C and words[1] == 0x2800  # the firmware is untouched
    assert store.committed_frames(words) == frames
    # The board boots from such a flash with the set current.
    with Device.open(f"sim://?flash_hex={out}") as device:
        assert device.info().frames == 2


def test_firmware_inside_the_store_region_is_refused(tmp_path: Path, capsys) -> None:
    firmware = _firmware(tmp_path / "fw.hex", byte_address=2 * store.REGION_FIRST_ROW * 32)
    frame = tmp_path / "f.frame"
    frame.write_bytes(encoded(small_planes(1, seed=1))[0])
    out = tmp_path / "device.hex"
    assert main(["merge", str(firmware), str(frame), "--out", str(out)]) == 1
    assert "frame store's flash region" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("name", ["device.bin", "device.png"])
def test_merge_writes_hex_only(tmp_path: Path, name: str) -> None:
    firmware = _firmware(tmp_path / "fw.hex")
    assert main(["merge", str(firmware), str(firmware), "--out", str(tmp_path / name)]) == 2
