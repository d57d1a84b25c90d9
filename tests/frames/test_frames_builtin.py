"""The built-in frames: generated from images/, up to date, faithful to their images."""

from __future__ import annotations

import importlib.util
import itertools
import re
from pathlib import Path
from types import ModuleType

import pytest
from frames_vector_files import ROOT
from PIL import Image

from epdle.frames import decode
from epdle.render.planes import Planes, planes_to_image

SOURCE = ROOT / "firmware" / "app" / "builtin_frames.c"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_builtin_frames", ROOT / "tools" / "gen" / "gen_builtin_frames.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compiled_frames() -> list[bytes]:
    """The frames as the C file holds them, parsed back from its text."""
    text = SOURCE.read_text()
    data = bytes(int(value, 16) for value in re.findall(r"0x([0-9A-F]{2}),", text))
    offsets = [int(value) for value in re.findall(r"(\d+)u", text.split("offsets")[-1])]
    offsets = offsets[1:]  # the first match is the array size's 1u
    return [data[start:stop] for start, stop in itertools.pairwise(offsets)]


def test_generated_files_are_up_to_date() -> None:
    for path, text in _generator().generated().items():
        stale = f"{path.name} is stale: run tools/gen/gen_builtin_frames.py"
        assert path.read_text() == text, stale


def test_every_image_is_compiled() -> None:
    # Each built-in byte is a program word on the PIC (RETLW): the splash alone.
    assert len(_compiled_frames()) == len(_generator().image_paths()) >= 1


def test_compiled_frames_decode_to_their_images() -> None:
    for path, frame in zip(_generator().image_paths(), _compiled_frames(), strict=True):
        black, red = decode(frame)
        with Image.open(path) as img:
            expected = img.convert("RGB").tobytes()
        assert planes_to_image(Planes(black, red)).tobytes() == expected, path.name


def test_images_in_other_colours_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generator = _generator()
    Image.new("RGB", (212, 104), (0, 128, 0)).save(tmp_path / "green.png")
    monkeypatch.setattr(generator, "IMAGE_DIR", tmp_path)
    with pytest.raises(ValueError, match=r"green\.png"):
        generator.encoded_images()
