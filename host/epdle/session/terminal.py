"""How a game looks in the terminal: the board in colour and the ranked suggestions."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from epdle.solver import names
from epdle.words.languages import display_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rich.text import Text

    from epdle.session.boards import MultiGame

    # Only a type here: at run time it would load the numpy engine on the cold path.
    from epdle.session.one_board import Game
    from epdle.solver.advice import Advice
    from epdle.solver.multi.advice import MultiSuggestion
    from epdle.solver.universe import Universe

TILE_STYLES = {
    "G": "bold white on green4",
    "Y": "bold black on yellow3",
    "B": "bold white on grey35",
}


def board_text(history: list[tuple[str, str]], coloured: bool = True) -> Text:
    """The board: coloured tiles, or (no colours, e.g. piped) each word beside its
    colours as letters, G/Y/B."""
    from rich.text import Text  # here: a one-shot `suggest` prints without rich

    text = Text()
    for guess, feedback in history:
        if not coloured:
            text.append(f"{display_word(guess)} {feedback}\n")
            continue
        for column, (letter, colour) in enumerate(zip(display_word(guess), feedback, strict=True)):
            text.append(" " if column else "")
            text.append(f" {letter} ", style=TILE_STYLES[colour])
        text.append("\n")
    return text


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def mode_text(game: Game | MultiGame) -> str:
    """The game's mode as the terminal says it (names.mode_text)."""
    return names.mode_text(game.solver.hard, game.solver.blind, game.widened, game.lists)


def prior_line(universe: object) -> str | None:
    """Under the history prior, the prior and how old its answers are, as a turn's heading
    and the page say it (names.history_text); None under another (the words the heading
    names say which)."""
    history = getattr(universe, "history", None)
    if history is None:
        return None
    last = history.last.date.isoformat() if history.last else None
    return names.history_text(last, history.days_behind)


def history_note(universe: object) -> str | None:
    """Under the history prior, when its answers lack the day before the day played, one
    line saying so and how to bring them up to date (history_prior.stale_note); else None."""
    history = getattr(universe, "history", None)
    if history is None:
        return None
    from epdle.solver.history_prior import stale_note

    return stale_note(history.puzzle, history.last)


def prior_state(universe: Universe) -> dict[str, object]:
    """The prior the game weighs the candidates by, as the page says it: its name, in a
    line (under the history prior, how old its answers are: prior_line), in words, and the
    note when its history is behind (None when not)."""
    return {
        "prior_name": universe.prior_name,
        "prior_line": prior_line(universe) or universe.prior_text,
        "prior": universe.prior_text,
        "history_note": history_note(universe),
    }


# The suggestion table's columns, the same in `play` and `suggest`, and how each is
# aligned. The last one is right-aligned and nothing pads the edges: no line ends in
# spaces when piped.
COLUMNS = ("#", "guess", "could win", "info (bits)", "left after (avg)")
Align = Callable[[str, int], str]
_ALIGN: tuple[Align, ...] = (str.rjust, str.ljust, str.center, str.rjust, str.rjust)
# `best` ranks by expected guesses to finish: that figure is its column (Suggestion.guesses,
# epdle.solver.ranking.figure).
GUESSES_COLUMN = "guesses (est.)"
# Several boards rank by the guesses their open boards would still need (MultiSuggestion.
# board_guesses): shown beside the game's expected guesses; near the end, an exact search
# ranks by the expected guesses themselves.
BOARDS_SUM = "boards' guesses"
MULTI_RANKED_BY = "the guesses the open boards still need, summed (exact near the end)"


def boards_sum(suggestion: MultiSuggestion) -> str:
    """A several-board suggestion's cell of BOARDS_SUM ("exact": the endgame search's)."""
    return "exact" if suggestion.board_guesses is None else f"{suggestion.board_guesses:.2f}"


def columns_text(rows: Sequence[Sequence[str]], align: Sequence[Align]) -> str:
    """Rows of cells as text columns two spaces apart, each as wide as its widest cell.

    Plain text rather than a rich Table: importing rich cost a one-shot `suggest` about
    60 ms, nearly half its time on the tree (align: str.rjust, str.ljust or str.center)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(align))]
    return "\n".join(
        "  ".join(
            how(cell, width) for how, cell, width in zip(align, row, widths, strict=True)
        ).rstrip()
        for row in rows
    )


def advice_text(
    advice: Advice,
    strategy: str | None = None,
    mode: str | None = None,
    prior: str | None = None,
    played: int = 0,
) -> str:
    """The ranked suggestions under a line that says how many candidates are left (and of
    which words: ``mode``), what the ranking is by (the strategy's own measure, not
    always the columns shown) and under which prior (``prior``: prior_line's). On the last
    guesses (``played`` so far) a word that could win says its chance; where the first row
    shows more guesses than a runner-up, a line under the table says why it leads."""
    from epdle.odds import chance_shown, chance_text
    from epdle.solver.names import REGISTRY
    from epdle.solver.ranking.figure import lead_reason

    heading = f"{plural(advice.candidates_left, 'candidate')} left"
    if mode is not None:
        heading += f" of {mode}"
    if strategy is not None:  # on a line of its own: neither wraps on a terminal
        heading += f"\nranked by {strategy}: {REGISTRY[strategy].ranked_by}"
    if prior is not None:
        heading += f"\nprior: {prior}"
    # `best` ranks by expected guesses: the figure is shown.
    figured = strategy == "best" or any(s.guesses is not None for s in advice.suggestions)
    chances = chance_shown(advice.candidates_left, played)
    rows: list[tuple[str, ...]] = [(*COLUMNS, GUESSES_COLUMN) if figured else COLUMNS]
    for rank, suggestion in enumerate(advice.suggestions, start=1):
        could_win = "yes" if suggestion.is_candidate else ""
        if chances and suggestion.is_candidate:
            could_win = chance_text(suggestion.chance) or could_win
        row: tuple[str, ...] = (
            str(rank),
            display_word(suggestion.word),
            could_win,
            f"{suggestion.bits if suggestion.bits > 0 else 0.0:.2f}",  # never -0.00
            f"{suggestion.expected_left:.1f}",
        )
        if figured:
            guesses = suggestion.guesses
            row += ("" if guesses is None else f"{guesses:.2f}",)
        rows.append(row)
    text = heading + "\n" + columns_text(rows, (*_ALIGN, str.rjust) if figured else _ALIGN)
    reason = lead_reason(advice.suggestions) if figured else None
    if reason is not None:
        text += f"\n{display_word(advice.suggestions[0].word)} leads: {reason}"
    return text


def candidates_text(advice: Advice, limit: int | None = None) -> str:
    """The candidates left, likeliest first (the advice keeps 100 at most)."""
    words = advice.candidates if limit is None else advice.candidates[:limit]
    more = advice.candidates_left - len(words)
    text = "candidates: " + " ".join(word.upper() for word in words)
    return text + (f" ... and {more} more" if more > 0 else "")


def lost_text(game: Game) -> str:
    """A game played out without the answer: what was still possible."""
    advice = game.advice
    if advice.candidates_left == 1:
        return f"Not solved in {len(game.history)}: the answer was {advice.candidates[0].upper()}."
    return (
        f"Not solved in {len(game.history)}: {advice.candidates_left} words were left; "
        + candidates_text(advice, 10)
        + "."
    )
