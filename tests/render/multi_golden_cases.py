"""The several-board frames kept as golden PNGs (tests/render/golden/multi/<name>.png).

Advice is written by hand so the goldens change only when the design does. Regenerate
with `make golden`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PIL import Image

from epdle.render.multi import render_multi
from epdle.render.planes import planes_to_image
from epdle.solver.multi import BoardAdvice, MultiAdvice, MultiSuggestion

GOLDEN_DIR = Path(__file__).parent / "golden" / "multi"

NEXT = [MultiSuggestion("mummy", 6.3, ()), MultiSuggestion("blimp", 6.4, ())]


def solved(guess: int, word: str) -> BoardAdvice:
    return BoardAdvice(guess, 1, [word])


def left(*words: str, count: int | None = None) -> BoardAdvice:
    return BoardAdvice(None, count or len(words), list(words))


QUORDLE = [solved(2, "crane"), left("cigar", "vigor"), left("about", count=37), left("humph")]
OCTORDLE = [
    *QUORDLE,
    left("about", count=120),
    solved(5, "slate"),
    left("about", "other", "their"),
    left("about", count=9),
]


ALL_SOLVED = [solved(2, "crane"), solved(7, "cigar"), solved(4, "about"), solved(9, "humph")]


def advice(boards: list[BoardAdvice], used: int, **end: bool) -> MultiAdvice:
    limit = len(boards) + 5
    suggestions = [] if end else [MultiSuggestion("cigar", 6.1, (1,)), *NEXT]
    return MultiAdvice(
        suggestions, boards, used, limit - used, end.get("solved", False), end.get("lost", False)
    )


def _frame(case: MultiAdvice, index: int = 0, mode: str = "") -> Image.Image:
    return planes_to_image(render_multi(case, top=5, mode=mode)[index])


MULTI_GOLDEN_CASES: dict[str, Callable[[], Image.Image]] = {
    "dordle": lambda: _frame(advice(QUORDLE[:2], 2)),
    "quordle_hard": lambda: _frame(advice(QUORDLE, 3), mode="hard"),
    "quordle_second": lambda: _frame(advice(QUORDLE, 3), index=1),
    "octordle": lambda: _frame(advice(OCTORDLE, 5)),
    "quordle_lost": lambda: _frame(advice(QUORDLE, 9, lost=True)),
    "quordle_solved": lambda: _frame(advice(ALL_SOLVED, 9, solved=True)),
}
