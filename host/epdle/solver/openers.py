"""First-turn rankings, the costliest turn, cached on disk per lists, strategy and mode."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from epdle.solver.cache import cache_dir, write_atomically

if TYPE_CHECKING:
    from epdle.solver.engine import GameState, Solver

log = logging.getLogger(__name__)


def _opener_path(solver: Solver) -> Path:
    mode = "hard" if solver.hard else "normal"
    return cache_dir() / f"openers-{solver.universe.key}-{solver.strategy}-{mode}.json"


def ranked_openers(solver: Solver, rank: Callable[[GameState], list[int]]) -> list[int]:
    """The ranked first guesses: from the cache, or ranked now and stored."""
    path = _opener_path(solver)
    index = solver.universe.guess_index
    try:
        words = json.loads(path.read_text())
        if isinstance(words, list) and words and all(word in index for word in words):
            return [index[word] for word in words]
        log.warning("opener cache %s does not fit these lists; re-ranking", path)
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as error:
        log.warning("opener cache %s unreadable (%s); re-ranking", path, error)
    ranked = rank(solver.initial_state())
    words = [solver.universe.guesses[guess] for guess in ranked]
    try:
        write_atomically(path, lambda temporary: temporary.write_text(json.dumps(words)))
    except OSError as error:
        log.warning("cannot write opener cache %s: %s", path, error)
    return ranked
