"""What the solver answers for a turn: plain value classes.

Written out rather than as dataclasses: a one-shot `epdle suggest` answered from the
shipped tree imports nothing else heavy, and `dataclasses` (with `inspect`) would cost it
a tenth of its time.
"""

from __future__ import annotations


class Value:
    """Immutable-by-convention value: equality, hash and repr over its slots."""

    __slots__ = ()

    def _fields(self) -> tuple[object, ...]:
        names: tuple[str, ...] = self.__slots__
        return tuple(getattr(self, name) for name in names)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Value):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(tuple(map(repr, self._fields())))

    def __repr__(self) -> str:
        names: tuple[str, ...] = self.__slots__
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__name__}({inner})"


class Suggestion(Value):
    __slots__ = ("bits", "chance", "expected_left", "guesses", "is_candidate", "source", "word")

    def __init__(
        self,
        word: str,
        bits: float,
        expected_left: float,
        is_candidate: bool,
        guesses: float | None = None,
        source: str | None = None,
        chance: float = 0.0,
    ) -> None:
        self.word = word
        self.bits = bits  # expected information of its feedback
        self.expected_left = expected_left  # expected candidates left (0 when it is the answer)
        self.is_candidate = is_candidate  # could itself be the answer
        self.chance = chance  # that it is the answer, under the prior (0: it cannot be)
        # `best`: the expected guesses to finish from here, this one included, that it is
        # ranked by (epdle.solver.ranking.figure; None: another strategy, which ranks by
        # bits or words left), and what gave it (figure.TREE, SEARCH or ESTIMATE).
        self.guesses = guesses
        self.source = source

    def figured(self, guesses: float | None, source: str | None) -> Suggestion:
        """This suggestion with another expected-guesses figure."""
        return Suggestion(
            self.word,
            self.bits,
            self.expected_left,
            self.is_candidate,
            guesses,
            source,
            self.chance,
        )


class Advice(Value):
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

    @property
    def answer(self) -> str | None:
        """The word that solved the game (None until it is solved)."""
        return self.candidates[0] if self.solved and self.candidates else None


def worth_showing(suggestions: list[Suggestion], candidates_left: int) -> list[Suggestion]:
    """The suggestions without filler. Once fewer candidates are left than suggestions
    asked for, the ranking runs into words such as AALII that only pad it: a guess that
    cannot win is dropped when a candidate ranked above it tells as much and leaves as
    few on average. The first suggestion always stays."""
    if candidates_left >= len(suggestions):
        return suggestions
    kept: list[Suggestion] = []
    for suggestion in suggestions:
        dominated = not suggestion.is_candidate and any(
            other.is_candidate
            and other.bits >= suggestion.bits - 1e-9
            and other.expected_left <= suggestion.expected_left + 1e-9
            for other in kept
        )
        if not dominated or not kept:
            kept.append(suggestion)
    return kept
