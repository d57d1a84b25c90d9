"""The frames kept as golden PNGs (tests/render/golden/<name>.png).

Advice is written by hand so the goldens change only when the design does,
never because the solver ranks differently. Regenerate with `make golden`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from epdle.render.planes import LANDSCAPE_SIZE, planes_to_image
from epdle.render.review import TurnFigures, render_review
from epdle.render.suggestions import StatusKind, render_advice, render_status

GOLDEN_DIR = Path(__file__).parent / "golden"


def assert_matches_golden(rendered: Image.Image, path: Path) -> Image.Image:
    """`rendered` equals the golden PNG at `path` pixel for pixel, both landscape-sized;
    the golden, as RGB."""
    with Image.open(path) as stored:
        golden = stored.convert("RGB")
    assert rendered.size == golden.size == LANDSCAPE_SIZE
    differing = int((np.asarray(rendered) != np.asarray(golden)).any(axis=2).sum())
    assert differing == 0, f"{differing} pixels differ from {path.name}; if intended: make golden"
    return golden


@dataclass(frozen=True)
class HandSuggestion:
    word: str
    bits: float
    expected_left: float
    is_candidate: bool
    chance: float = 0.0  # that it is the answer (0: the golden frames say "could win")


@dataclass(frozen=True)
class HandAdvice:
    candidates_left: int
    solved: bool
    suggestions: list[HandSuggestion]


MIDGAME = [("salet", "BBYBB"), ("crony", "BGYBB")]
# Six letters in German (umlauts on the board and in the word), nine letters in English.
SIX_GERMAN = [("säulen", "BYBBGB"), ("straße", "YBYBBG"), ("führen", "BBYBYG")]
NINE_LETTERS = [("sheltered", "YBBBYBBYB"), ("mammogram", "GGBBYBBYB")]
# Reviews: a game of three (CIGAR) and a lost game of six, each guess's skill and luck.
REVIEW_THREE = [
    TurnFigures("crane", "GYYBB", 97, 89),
    TurnFigures("chart", "GBYYB", 37, 31),
    TurnFigures("cigar", "GGGGG", 99, 89),
]
REVIEW_SIX = [
    TurnFigures(word, colours, skill, luck)
    for word, colours, skill, luck in [
        ("salet", "BYBBY", 99, 61),
        ("daunt", "BGGGG", 84, 12),
        ("gaunt", "BGGGG", 71, 30),
        ("haunt", "BGGGG", 71, 33),
        ("taunt", "BGGGG", 70, 40),
        ("vaunt", "BGGGG", 50, 0),
    ]
]
SOLVED_IN_FOUR = [("salet", "BYBBB"), ("croak", "BBYBB"), ("humid", "GYBBB"), ("hippo", "GGGGG")]


def _first_frame(history, advice: HandAdvice) -> Image.Image:
    return planes_to_image(render_advice(history, advice, top=5)[0])


GOLDEN_CASES: dict[str, Callable[[], Image.Image]] = {
    "opening": lambda: _first_frame(
        [], HandAdvice(2315, False, [HandSuggestion("salet", 5.84, 71.3, True)])
    ),
    "midgame_wide_word": lambda: _first_frame(
        MIDGAME, HandAdvice(23, False, [HandSuggestion("mummy", 3.41, 2.1, True)])
    ),
    "midgame_probe": lambda: planes_to_image(
        render_advice(
            MIDGAME,
            HandAdvice(
                23,
                False,
                [
                    HandSuggestion("mummy", 3.41, 2.1, True),
                    HandSuggestion("blimp", 3.9, 1.6, False),
                ],
            ),
            top=5,
        )[1]
    ),
    "solved": lambda: planes_to_image(render_status(StatusKind.SOLVED, SOLVED_IN_FOUR)),
    "no_match": lambda: planes_to_image(render_status(StatusKind.NO_MATCH, MIDGAME)),
    "waiting": lambda: planes_to_image(render_status(StatusKind.WAITING)),
    "six_letters_german": lambda: _first_frame(
        SIX_GERMAN, HandAdvice(14, False, [HandSuggestion("größte", 2.95, 1.4, True)])
    ),
    "nine_letters": lambda: _first_frame(
        NINE_LETTERS, HandAdvice(9, False, [HandSuggestion("mayflower", 2.81, 1.2, False)])
    ),
    "nine_letters_solved": lambda: planes_to_image(
        render_status(StatusKind.SOLVED, [*NINE_LETTERS, ("marigolds", "GGGGGGGGG")])
    ),
    "review": lambda: planes_to_image(render_review(REVIEW_THREE, 78, 70)),
    "review_six_rows": lambda: planes_to_image(render_review(REVIEW_SIX, 74, 29)),
}
