"""What the solver answers for a turn: plain value classes.

Written out rather than as dataclasses: a one-shot `epdle suggest` answered from the
shipped tree imports nothing else heavy, and `dataclasses` (with `inspect`) would cost it
a tenth of its time.
"""

from __future__ import annotations


class _Value:
    """Immutable-by-convention value: equality, hash and repr over its slots."""

    __slots__ = ()

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(tuple(map(repr, self._fields())))

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({inner})"


class Suggestion(_Value):
    __slots__ = ("bits", "expected_left", "is_candidate", "word")

    def __init__(self, word: str, bits: float, expected_left: float, is_candidate: bool) -> None:
        self.word = word
        self.bits = bits  # expected information of its feedback
        self.expected_left = expected_left  # expected candidates left (0 when it is the answer)
        self.is_candidate = is_candidate  # could itself be the answer


class Advice(_Value):
    __slots__ = ("candidates", "candidates_left", "solved", "suggestions")

    def __init__(
        self,
        candidates_left: int,
        solved: bool,
        suggestions: list[Suggestion],
        candidates: list[str] | None = None,
    ) -> None:
        self.candidates_left = candidates_left
        self.solved = solved
        self.suggestions = suggestions  # best first
        self.candidates = [] if candidates is None else candidates  # likeliest first (<= 100)
