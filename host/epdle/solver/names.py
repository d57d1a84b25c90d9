"""The strategy registry, kept free of numpy so the command line can list them without
loading it: every place that picks, lists or describes a strategy reads it here."""

from __future__ import annotations

from enum import Enum

from epdle.named_tuple import NamedTuple
from epdle.words.named import DEFAULT_LISTS, list_name


class Kind(Enum):
    FREQUENCY = "frequency"  # letter-frequency ranking (strategies.freq_choice)
    ONE_PLY = "one-ply"  # one guess ahead over the pattern matrix (strategies.rank_one_ply)
    TREE = "tree"  # decision tree with a bounded search off it (search.py, trees.py)


class Strategy(NamedTuple):
    name: str
    kind: Kind
    ranked_by: str  # what a suggestion table is sorted by, in words


REGISTRY = {
    s.name: s
    for s in (
        Strategy("freq", Kind.FREQUENCY, "letter frequency"),
        Strategy("expected", Kind.ONE_PLY, "fewest candidates left on average"),
        Strategy("minimax", Kind.ONE_PLY, "smallest worst case"),
        Strategy("entropy", Kind.ONE_PLY, "most information (bits)"),
        Strategy("best", Kind.TREE, "fewest guesses to win (decision tree)"),
    )
}
STRATEGIES = tuple(REGISTRY)
ONE_PLY_STRATEGIES = tuple(name for name, s in REGISTRY.items() if s.kind is Kind.ONE_PLY)
DEFAULT_STRATEGY = "best"
# The prior a game weighs its candidates by (`--prior`), chosen once in its GameSpec:
# name -> what it is (for --help). A blind game is weighted by frequency whatever is asked.
# Without --prior, today's game (GameSetup.todays) is played under the history prior, any
# other under the uniform one (epdle.cli.options.game_spec).
PRIORS = {
    "uniform": "the answer list's words, equally likely, every accepted word only once "
    "the feedback leaves it",
    "frequency": "every accepted word from the first guess, weighted by how likely it is "
    "to be an answer (common words more, plurals and past tenses less), as --blind",
    "history": "every accepted word, weighted by the Times' answers played before the day "
    "(never-played words of the original list most, the Times' additions and repeats at "
    "the share the history gives them; the English five-letter game of one board)",
}
UNIFORM_PRIOR = "uniform"
FREQUENCY_PRIOR = "frequency"
HISTORY_PRIOR = "history"


def prior_name(blind: bool) -> str:
    """The prior a game in this mode weighs its candidates by: a blind game's is the
    frequency prior."""
    return FREQUENCY_PRIOR if blind else UNIFORM_PRIOR


# How many ranked guesses a turn keeps (and so the most --top can ask for).
MAX_SUGGESTIONS = 50


# A game's mode, named here alone: in tables, titles and file names (mode_name), in the
# terminal's heading of a turn (mode_text), in the panel's header (panel_mode).


def mode_name(hard: bool, blind: bool = False) -> str:
    """A game mode in words, as tables, titles and file names give it: 'normal', 'hard',
    'hard, blind'."""
    return ("hard" if hard else "normal") + (", blind" if blind else "")


def mode_text(
    hard: bool, blind: bool, widened: bool = False, lists: str | None = DEFAULT_LISTS
) -> str:
    """Which words the advice weighs, and hard mode, as the terminal says it (`widened`:
    the feedback has left `lists`, the named shipped list the game started from; None: an
    answer list of one's own)."""
    if widened:
        words = f"every accepted word (not in {list_name(lists)})"
    elif blind:
        words = "every accepted word"
    else:
        words = list_name(lists)
    return words + (", hard mode" if hard else "")


def history_text(last: str | None, behind: int) -> str:
    """The history prior and how old its answers are, in a few words, as the terminal's
    heading and the page say it: 'history (answers to 2026-08-21, 107 days behind)'
    (`last`, the newest answer's date; `behind`, the days it misses before the day
    played)."""
    if last is None:
        return "history (no answers known)"
    age = f"{behind} day{'s' * (behind != 1)} behind" if behind else "up to date"
    return f"history (answers to {last}, {age})"


def panel_mode(
    hard: bool, blind: bool, widened: bool = False, history_behind: int | None = None
) -> str:
    """The mode as the panel's header says it: "hard", "all words" (every accepted word,
    not the answer list), both, or nothing; under the history prior "history" (with
    `history_behind`, the days its answers miss before today's: "history -3d")."""
    parts = ["hard"] if hard else []
    if history_behind is not None:
        parts.append("history" + (f" -{history_behind}d" if history_behind else ""))
    elif widened or blind:
        parts.append("all words")
    return ", ".join(parts)


def strategy(name: str) -> Strategy:
    """The registry entry; ValueError naming the choices for an unknown name."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}"
        ) from None
