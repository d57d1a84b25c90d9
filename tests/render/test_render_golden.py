"""Golden frames: the rendered design must match the stored PNGs pixel for pixel."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image
from render_golden_cases import GOLDEN_CASES, GOLDEN_DIR

from epdle.render.options import BLACK, RED, WHITE
from epdle.render.planes import LANDSCAPE_SIZE


def test_every_golden_file_has_a_case_and_every_case_a_file() -> None:
    stored = {path.stem for path in GOLDEN_DIR.glob("*.png")}
    assert stored == set(GOLDEN_CASES)


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_frame_matches_its_golden_png(name: str) -> None:
    rendered = GOLDEN_CASES[name]()
    with Image.open(GOLDEN_DIR / f"{name}.png") as stored:
        golden = stored.convert("RGB")
    assert rendered.size == golden.size == LANDSCAPE_SIZE
    differing = int((np.asarray(rendered) != np.asarray(golden)).any(axis=2).sum())
    assert differing == 0, f"{differing} pixels differ from {name}.png; if intended: make golden"


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_png_holds_only_panel_colours(name: str) -> None:
    with Image.open(GOLDEN_DIR / f"{name}.png") as stored:
        colours = {colour for _, colour in stored.convert("RGB").getcolors()}
    assert colours <= {WHITE, BLACK, RED}
    assert {WHITE, BLACK} <= colours
