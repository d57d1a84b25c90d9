"""`epdle show --test-pattern`: the pattern reaches the panel; N or the pattern, not both."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from epdle.cli import main
from epdle.render.planes import image_to_planes
from epdle.render.test_pattern import pattern


def test_the_panel_shows_the_pattern_and_the_set_holds_three_frames(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    png_dir = tmp_path / "panel"
    assert main(["show", "--port", f"sim://?png_dir={png_dir}", "--test-pattern"]) == 0
    assert "test pattern shown (frame 1 of 3)" in capsys.readouterr().out
    with Image.open(png_dir / "panel-1.png") as shown:
        assert image_to_planes(shown) == pattern()


@pytest.mark.parametrize(
    "argv", [["show", "--port", "sim://"], ["show", "--port", "sim://", "1", "--test-pattern"]]
)
def test_a_number_or_the_pattern_one_of_the_two(
    argv: list[str], capsys: pytest.CaptureFixture
) -> None:
    assert main(argv) == 2
    assert "give a frame number N or --test-pattern" in capsys.readouterr().err
