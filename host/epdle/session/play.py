"""`epdle play`: the interactive helper in a terminal (or scripted through stdin)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import TextIO

from rich.console import Console

from epdle.link import LinkError
from epdle.session.commands import HELP_TEXT
from epdle.session.controller import Controller, Outcome
from epdle.session.presenter import describe_event
from epdle.session.terminal import advice_table, board_text


def _lines(stream: TextIO, console: Console, interactive: bool) -> Iterator[str]:
    while True:
        if interactive:
            try:
                yield console.input("[bold]guess colours>[/bold] ")
            except EOFError:
                return
        else:
            line = stream.readline()
            if not line:
                return
            yield line


def show_device_events(console: Console, controller: Controller) -> None:
    try:
        events = controller.presenter.poll_events(timeout=0.05)
    except LinkError as error:
        console.print(f"[yellow]device lost ({error}); reconnecting[/yellow]")
        return
    for event in events:
        console.print(f"[cyan]device:[/cyan] {describe_event(event)}")


def show_outcome(console: Console, controller: Controller, outcome: Outcome) -> None:
    if outcome.error:
        console.print(f"[red]error:[/red] {outcome.error}")
    if outcome.help:
        console.print(HELP_TEXT, markup=False)
    if outcome.changed:
        game = controller.game
        if game.history:
            console.print(board_text(game.history))
        if game.solved:
            console.print(f"[green]Solved in {len(game.history)}![/green] 'new' for another game.")
        else:
            console.print(advice_table(game.advice))
    for note in outcome.notes:
        console.print(f"[dim]{note}[/dim]")


def run(controller: Controller, stdin: TextIO = sys.stdin, console: Console | None = None) -> int:
    console = console or Console()
    interactive = stdin.isatty()
    if interactive:
        console.print("Tell me what you played, e.g. [bold]crane gybbb[/bold]; 'help' for more.")
    show_outcome(console, controller, controller.start())
    for line in _lines(stdin, console, interactive):
        outcome = controller.handle(line)
        show_outcome(console, controller, outcome)
        if outcome.quit:
            break
        show_device_events(console, controller)
    controller.presenter.close()
    return 0
