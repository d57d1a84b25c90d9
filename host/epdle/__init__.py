"""epdle: a pocket Wordle helper - solver, e-paper frames, UART link, simulated board."""

from __future__ import annotations

# Not typing's: importing typing costs every one-shot command (`epdle suggest`) a few ms.
# Type checkers and linters read this name as typing.TYPE_CHECKING all the same.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from epdle.solver.scoring import score

__version__ = "0.1.0"

__all__ = ["__version__", "score"]


def __getattr__(name: str) -> Any:
    # `from epdle import score` without every layer paying for the solver on import.
    if name == "score":
        from epdle.solver.scoring import score

        return score
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
