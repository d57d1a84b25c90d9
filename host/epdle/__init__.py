"""epdle: a pocket Wordle helper - solver, e-paper frames, UART link, simulated board."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from epdle.solver.scoring import score

__version__ = "0.1.0"

__all__ = ["__version__", "score"]


def __getattr__(name: str) -> Any:
    # `from epdle import score` without every layer paying for the solver on import.
    if name == "score":
        from epdle.solver.scoring import score

        return score
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
