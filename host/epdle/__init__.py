"""epdle: a pocket Wordle helper - solver, e-paper frames, UART link, simulated board."""

from epdle.solver.scoring import score

__version__ = "0.1.0"

__all__ = ["__version__", "score"]
