"""A frame set written as Intel HEX shows pixel for pixel on the simulated board."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from intelhex import IntelHex
from render_golden_cases import MIDGAME, HandSuggestion

from epdle.render.export import write_frames
from epdle.render.planes import planes_to_image
from epdle.render.suggestions import StatusKind, render_status, render_suggestion
from epdle.sim import Board


def test_hex_frame_set_shows_exactly_on_the_simulated_panel(tmp_path: Path) -> None:
    frames = [
        render_suggestion(MIDGAME, HandSuggestion("mummy", 3.41, 2.1, True), 1, 2, 23),
        render_status(StatusKind.SOLVED, [*MIDGAME, ("mummy", "GGGGG")]),
    ]
    write_frames(frames, tmp_path / "set.hex")
    image = IntelHex(str(tmp_path / "set.hex"))
    words = {address // 2: image[address] | image[address + 1] << 8
             for address in image.addresses()[::2]}  # fmt: skip
    shown = []
    with Board() as board:
        board.flash_load(words)  # as a programmer would, before the firmware boots
        assert board.run_until(lambda b: b.asleep, 10_000)
        for refreshes in (1, 2):
            board.press_button(bounce=False)  # debouncing is the app tests' concern
            assert board.run_until(
                lambda b, n=refreshes: b.refresh_count >= n and b.asleep and not b.panel_powered,
                60_000,
            )
            shown.append(np.asarray(board.panel_image().convert("RGB")))
        assert board.violations() == []
    # Two presses show the two frames of the set, each pixel for pixel (the app
    # decides which comes first).
    rendered = [np.asarray(planes_to_image(planes)) for planes in frames]
    matched = [
        [index for index, want in enumerate(rendered) if (got == want).all()] for got in shown
    ]
    assert sorted(matched) == [[0], [1]]
