"""epdle: a pocket Wordle helper - solver, e-paper frames, UART link, simulated board."""

__version__ = "0.1.0"
