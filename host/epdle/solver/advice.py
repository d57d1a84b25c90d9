"""What the solver answers for a turn (plain data, free of numpy for the light paths)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Suggestion:
    word: str
    bits: float  # expected information of its feedback
    expected_left: float  # expected candidates left after it (0 when it is the answer)
    is_candidate: bool  # could itself be the answer


@dataclass(frozen=True)
class Advice:
    candidates_left: int
    solved: bool
    suggestions: list[Suggestion]  # best first
    candidates: list[str] = field(default_factory=list)  # most likely first (at most 100)
