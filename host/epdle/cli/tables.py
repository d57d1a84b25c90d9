"""The tables the bench commands print (one board's and several boards')."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rich.console import Console


def print_bench(
    title: str,
    lost_column: str,
    row: tuple[int, float, int, int, float],
    histogram: dict[int, int],
) -> Console:
    """A bench's summary (games, mean, max, games lost, seconds) and its histogram, printed;
    the console, for what the caller adds."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for column in ("games", "mean", "max", lost_column, "seconds"):
        table.add_column(column, justify="right")
    games, mean, worst, lost, seconds = row
    table.add_row(str(games), f"{mean:.4f}", str(worst), str(lost), f"{seconds:.1f}")
    counts = Table(title="guesses per game")
    for turns in histogram:
        counts.add_column(str(turns), justify="right")
    counts.add_row(*(str(count) for count in histogram.values()))
    console = Console()
    console.print(table)
    console.print(counts)
    return console
