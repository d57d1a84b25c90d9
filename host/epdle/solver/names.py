"""Strategy names, kept free of numpy so the command line can list them without loading it."""

ONE_PLY_STRATEGIES = ("freq", "expected", "minimax", "entropy")
STRATEGIES = (*ONE_PLY_STRATEGIES, "best")
DEFAULT_STRATEGY = "best"
