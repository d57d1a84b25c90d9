"""Golden frames: the rendered design must match the stored PNGs pixel for pixel."""

from __future__ import annotations

import pytest
from PIL import Image
from render_golden_cases import GOLDEN_CASES, GOLDEN_DIR, assert_matches_golden

from epdle.render.options import BLACK, RED, WHITE


def test_every_golden_file_has_a_case_and_every_case_a_file() -> None:
    stored = {path.stem for path in GOLDEN_DIR.glob("*.png")}
    assert stored == set(GOLDEN_CASES)


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_frame_matches_its_golden_png(name: str) -> None:
    assert_matches_golden(GOLDEN_CASES[name](), GOLDEN_DIR / f"{name}.png")


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_png_holds_only_panel_colours(name: str) -> None:
    with Image.open(GOLDEN_DIR / f"{name}.png") as stored:
        colours = {colour for _, colour in stored.convert("RGB").getcolors()}
    assert colours <= {WHITE, BLACK, RED}
    assert {WHITE, BLACK} <= colours
