"""First-turn rankings, the costliest turn, cached on disk per lists, strategy and mode."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from epdle.solver.cache import cache_dir, write_atomically
from epdle.solver.names import mode_name
from epdle.solver.settings import TIE_ORDER
from epdle.solver.state import GameState, initial_state

if TYPE_CHECKING:
    from epdle.solver.universe import Universe

log = logging.getLogger(__name__)


def _opener_path(universe: Universe, strategy: str, hard: bool) -> Path:
    name = f"openers-{universe.key}-{strategy}-{mode_name(hard)}-{TIE_ORDER}.json"
    return cache_dir() / name


def ranked_openers(
    universe: Universe, strategy: str, hard: bool, rank: Callable[[GameState], list[int]]
) -> list[int]:
    """The ranked first guesses of `strategy`: from the cache, or ranked now (`rank` of the
    opening state) and stored."""
    path = _opener_path(universe, strategy, hard)
    index = universe.guess_index
    try:
        words = json.loads(path.read_text())
        if isinstance(words, list) and words and all(word in index for word in words):
            return [index[word] for word in words]
        log.warning("opener cache %s does not fit these lists; re-ranking", path)
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as error:
        log.warning("opener cache %s unreadable (%s); re-ranking", path, error)
    ranked = rank(initial_state(universe, hard))
    words = [universe.guesses[guess] for guess in ranked]
    try:
        write_atomically(path, lambda temporary: temporary.write_text(json.dumps(words)))
    except OSError as error:
        log.warning("cannot write opener cache %s: %s", path, error)
    return ranked
