"""The Wordle solver: scoring, pattern engine, strategies, decision tree and bench.

Scoring, parsing and the strategy names import eagerly (pure Python: `from epdle import
score`, the command line's choices); the numpy engine loads on first use of its names.
"""

from __future__ import annotations

from epdle.solver.names import DEFAULT_STRATEGY, STRATEGIES
from epdle.solver.scoring import parse_feedback, parse_history, score

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from epdle.solver.engine import Advice, HistoryError, Solver, Suggestion

_ENGINE_NAMES = {"Advice", "HistoryError", "Solver", "Suggestion"}

__all__ = [
    "DEFAULT_STRATEGY",
    "STRATEGIES",
    "Advice",
    "HistoryError",
    "Solver",
    "Suggestion",
    "parse_feedback",
    "parse_history",
    "score",
]


def __getattr__(name: str) -> Any:
    if name in _ENGINE_NAMES:
        from epdle.solver import engine

        return getattr(engine, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
