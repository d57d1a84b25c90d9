"""How a game looks in the terminal: the board in colour and the ranked suggestions."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from epdle.solver import Advice
from epdle.words.languages import display_word

_TILE_STYLES = {
    "G": "bold white on green4",
    "Y": "bold black on yellow3",
    "B": "bold white on grey35",
}


def board_text(history: list[tuple[str, str]]) -> Text:
    text = Text()
    for guess, feedback in history:
        for letter, colour in zip(display_word(guess), feedback, strict=True):
            text.append(f" {letter} ", style=_TILE_STYLES[colour])
            text.append(" ")
        text.append("\n")
    return text


def advice_table(advice: Advice) -> Table:
    table = Table(
        title=f"{advice.candidates_left} candidate(s) left", title_justify="left", box=None
    )
    table.add_column("#", justify="right")
    table.add_column("guess", style="bold")
    table.add_column("bits", justify="right")
    table.add_column("left after (avg)", justify="right")
    table.add_column("could win", justify="center")
    for rank, suggestion in enumerate(advice.suggestions, start=1):
        table.add_row(
            str(rank),
            display_word(suggestion.word),
            f"{suggestion.bits:.2f}",
            f"{suggestion.expected_left:.1f}",
            "yes" if suggestion.is_candidate else "",
        )
    return table
