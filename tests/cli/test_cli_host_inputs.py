"""Host inputs that are broken or hostile: a clear one-line error naming the file, no
traceback, and pictures bounded by a stated pixel limit before they are decoded."""

from __future__ import annotations

import contextlib
import json
import random
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from epdle.cli import main
from epdle.render.options import MAX_PICTURE_PIXELS

FAILURE = 1
FAST = ["--strategy", "entropy"]


def png_header_only(path: Path, width: int, height: int) -> Path:
    """A PNG that claims `width` x `height` (a few bytes of pixels follow): what a
    decompression bomb looks like to a reader that trusts the header."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    pixels = zlib.compress(b"\0" * 1000)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )
    return path


def truncated_png(path: Path) -> Path:
    rng = random.Random(3)
    picture = Image.frombytes("RGB", (300, 200), rng.randbytes(300 * 200 * 3))
    picture.save(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def picture_commands(picture: Path, tmp_path: Path) -> list[list[str]]:
    return [
        ["image", str(picture), "--out", str(tmp_path / "out.png")],
        ["push", "--port", "sim://", str(picture)],
    ]


@pytest.mark.parametrize("size", [(10_000, 10_000), (40_000, 40_000), (2**31 - 1, 1)])
def test_a_picture_over_the_pixel_limit_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], size: tuple[int, int]
) -> None:
    picture = png_header_only(tmp_path / "huge.png", *size)
    for argv in picture_commands(picture, tmp_path):
        assert main(argv) == FAILURE
        line = one_error_line(capsys)
        assert str(picture) in line
        assert f"{size[0]} x {size[1]} pixels" in line
        assert f"{MAX_PICTURE_PIXELS:,}" in line


def test_the_pixel_limit_lets_a_large_photo_through(tmp_path: Path) -> None:
    """A picture at the limit is taken (a 6000 x 4000 camera photo)."""
    assert MAX_PICTURE_PIXELS >= 6000 * 4000
    picture = tmp_path / "photo.png"
    Image.new("1", (6000, 4000), 1).save(picture)
    assert main(["image", str(picture), "--out", str(tmp_path / "out.png")]) == 0


def test_a_truncated_picture_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = truncated_png(tmp_path / "cut.png")
    for argv in picture_commands(picture, tmp_path):
        assert main(argv) == FAILURE
        line = one_error_line(capsys)
        assert str(picture) in line and "damaged or cut short" in line


def test_a_word_list_that_is_not_utf8_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = tmp_path / "answers.txt"
    words.write_bytes(b"crane\nsl\xe9te\n")
    assert main(["suggest", "--answers", str(words), *FAST]) == FAILURE
    line = one_error_line(capsys)
    assert str(words) in line and "not UTF-8" in line and "line 2" in line


def test_a_word_list_may_start_with_a_byte_order_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = tmp_path / "answers.txt"
    words.write_bytes(b"\xef\xbb\xbfcrane\nslate\ntrace\n")
    assert main(["suggest", "--answers", str(words), *FAST, "--json"]) == 0
    assert "crane" in capsys.readouterr().out


@pytest.mark.parametrize("word", ["fähre", "möwen", "mühle", "straß", "niñas"])
@pytest.mark.parametrize("option", ["--answers", "--guesses"])
def test_a_word_list_with_letters_the_game_has_not_is_refused_naming_the_word(
    tmp_path: Path, word: str, option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    words = tmp_path / "words.txt"
    words.write_text(f"crane\nslate\n{word}\ntrace\n", encoding="utf-8")
    assert main(["suggest", option, str(words), *FAST]) == FAILURE
    line = one_error_line(capsys)
    assert line.endswith(f"{words}:3: {word!r} is not a word of English letters (a-z)")


def test_a_german_list_of_ones_own_is_a_german_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = tmp_path / "answers.txt"
    words.write_text("fähre\nmöwen\nmühle\nblume\n", encoding="utf-8")
    assert main(["suggest", "--language", "de", "--answers", str(words), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["candidates_left"] == 4


@pytest.mark.parametrize("command", ["image", "push"])
def test_the_help_states_the_pixel_limit(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with contextlib.suppress(SystemExit):
        main([command, "--help"])
    assert f"{MAX_PICTURE_PIXELS:,} pixels" in " ".join(capsys.readouterr().out.split())
