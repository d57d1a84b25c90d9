"""Several boards at once (Dordle, Quordle, Octordle, up to 32): one guess played on
every unsolved board.

The history parser and the value classes import without numpy; MultiSolver and the
bench load the pattern engine on first use of their names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from epdle.solver.multi.advice import BoardAdvice, MultiAdvice, MultiSuggestion
from epdle.solver.multi.history import (
    MultiHistory,
    MultiHistoryError,
    guess_limit,
    parse_multi_history,
)

if TYPE_CHECKING:
    from epdle.solver.multi.engine import MultiSolver

__all__ = [
    "BoardAdvice",
    "MultiAdvice",
    "MultiHistory",
    "MultiHistoryError",
    "MultiSolver",
    "MultiSuggestion",
    "guess_limit",
    "parse_multi_history",
]


def __getattr__(name: str) -> Any:
    if name == "MultiSolver":
        from epdle.solver.multi.engine import MultiSolver

        return MultiSolver
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
