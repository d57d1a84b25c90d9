"""Frame files: PNG previews, encoded frames, C headers and the size budget."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from render_golden_cases import MIDGAME, HandSuggestion

from epdle.frames import decode, encode
from epdle.render.export import c_header, c_identifier, encoded_frames, write_frames
from epdle.render.planes import Planes, image_to_planes
from epdle.render.suggestions import StatusKind, render_status, render_suggestion

FRAME_BUDGET = 1024

SIX_GUESSES = [
    ("salet", "BYBBB"),
    ("croak", "BBYBB"),
    ("humid", "GYBBB"),
    ("hippo", "GGBBB"),
    ("hiker", "GGBYB"),
    ("hyped", "GBBYB"),
]


def sample_frames() -> list[Planes]:
    suggestion = HandSuggestion("mummy", 3.41, 2.1, True)
    return [
        render_suggestion(MIDGAME, suggestion, 1, 5, 23),
        render_status(StatusKind.WAITING),
    ]


@pytest.mark.parametrize(
    ("history", "word", "left"),
    [([], "salet", 2315), (MIDGAME, "mummy", 23), (SIX_GUESSES, "whows", 1234)],
    ids=["opening", "midgame", "full-board-wide-word"],
)
def test_suggestion_frames_encode_within_one_kilobyte(history, word: str, left: int) -> None:
    planes = render_suggestion(history, HandSuggestion(word, 10.25, 88.5, True), 5, 5, left)
    encoded = encode(planes.black, planes.red)
    assert len(encoded) <= FRAME_BUDGET
    assert decode(encoded) == (planes.black, planes.red)


def test_status_frames_encode_within_one_kilobyte() -> None:
    for kind in StatusKind:
        planes = render_status(kind, SIX_GUESSES)
        assert len(encode(planes.black, planes.red)) <= FRAME_BUDGET


def test_png_output_round_trips_to_the_same_planes(tmp_path: Path) -> None:
    frame = sample_frames()[0]
    sizes = write_frames([frame], tmp_path / "preview.png")
    with Image.open(tmp_path / "preview.png") as preview:
        assert image_to_planes(preview) == frame
    assert sizes == [len(encode(frame.black, frame.red))]


def test_yellow_png_variant_round_trips(tmp_path: Path) -> None:
    frame = sample_frames()[0]
    write_frames([frame], tmp_path / "preview.png", variant="yellow")
    with Image.open(tmp_path / "preview.png") as preview:
        assert (255, 0, 0) not in {colour for _, colour in preview.convert("RGB").getcolors()}
        assert image_to_planes(preview) == frame


def test_frame_output_is_the_encoded_frame(tmp_path: Path) -> None:
    frame = sample_frames()[1]
    write_frames([frame], tmp_path / "splash.FRAME")
    assert decode((tmp_path / "splash.FRAME").read_bytes()) == (frame.black, frame.red)


def header_arrays(text: str) -> dict[str, bytes]:
    arrays = {}
    for name, body in re.findall(r"uint8_t (\w+)\[\d+\] = \{(.*?)\};", text, re.S):
        arrays[name] = bytes(int(value, 16) for value in re.findall(r"0x([0-9A-F]{2})", body))
    return arrays


def test_header_holds_every_frame_byte_for_byte(tmp_path: Path) -> None:
    frames = sample_frames()
    write_frames(frames, tmp_path / "built-in frames.h")
    text = (tmp_path / "built-in frames.h").read_text()
    assert header_arrays(text) == {
        "built_in_frames_frame_0": encoded_frames(frames)[0],
        "built_in_frames_frame_1": encoded_frames(frames)[1],
    }
    assert "#define BUILT_IN_FRAMES_FRAME_COUNT 2u" in text


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_header_compiles_as_strict_c99_and_holds_the_frames(tmp_path: Path) -> None:
    encoded = encoded_frames(sample_frames())
    (tmp_path / "splash.h").write_text(c_header(encoded, "splash"))
    (tmp_path / "main.c").write_text(
        '#include <stdio.h>\n#include "splash.h"\n#include "splash.h"\n'
        "int main(void) {\n"
        "    unsigned i, j;\n"
        "    for (i = 0; i < SPLASH_FRAME_COUNT; i++) {\n"
        "        for (j = 0; j < splash_frame_lengths[i]; j++)\n"
        '            printf("%02x", splash_frames[i][j]);\n'
        '        printf("\\n");\n'
        "    }\n"
        "    return 0;\n"
        "}\n"
    )
    subprocess.run(
        ["gcc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-o", "dump", "main.c"],
        cwd=tmp_path,
        check=True,
    )
    dumped = subprocess.run([tmp_path / "dump"], capture_output=True, text=True, check=True)
    assert dumped.stdout.split() == [frame.hex() for frame in encoded]


@pytest.mark.parametrize(
    ("name", "identifier"),
    [
        ("splash", "splash"),
        ("Built-in Frames", "built_in_frames"),
        ("2024 logo", "frame_2024_logo"),
    ],
)
def test_c_identifier(name: str, identifier: str) -> None:
    assert c_identifier(name) == identifier


def test_c_identifier_needs_something_usable() -> None:
    with pytest.raises(ValueError, match="C name"):
        c_identifier("---")


@pytest.mark.parametrize(
    ("count", "out", "message"),
    [
        (1, "frame.bmp", "unknown output type"),
        (2, "two.png", "one frame"),
        (2, "two.frame", "one frame"),
        (0, "none.h", "no frames"),
    ],
)
def test_unusable_requests_are_rejected_and_write_nothing(
    tmp_path: Path, count: int, out: str, message: str
) -> None:
    frames = sample_frames()[:1] * count
    with pytest.raises(ValueError, match=message):
        write_frames(frames, tmp_path / out)
    assert not (tmp_path / out).exists()


def test_hex_output_places_the_committed_set_at_the_store_address(tmp_path: Path) -> None:
    from intelhex import IntelHex

    from epdle.frames.store import committed_set_words

    frames = sample_frames()
    write_frames(frames, tmp_path / "frames.hex")
    image = IntelHex(str(tmp_path / "frames.hex"))
    addresses = image.addresses()
    assert len(addresses) % 2 == 0
    words = {address // 2: image[address] | image[address + 1] << 8 for address in addresses[::2]}
    assert words == committed_set_words(encoded_frames(frames))
    assert all(word <= 0x3FFF for word in words.values())
    # store_layout.h: the journal starts at row 320 (word 0x2800, byte 0x5000) with the magic.
    assert words[0x2800] == 0x2E5D
    assert image[0x5000] == 0x5D and image[0x5001] == 0x2E


def test_hex_output_refuses_more_frames_than_the_store_holds(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at most"):
        write_frames(sample_frames()[:1] * 33, tmp_path / "too-many.hex")
    assert not (tmp_path / "too-many.hex").exists()
