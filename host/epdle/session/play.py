"""`epdle play`: the interactive helper in a terminal (or scripted through stdin)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from typing import TextIO

from rich.console import Console

from epdle.link import LinkError
from epdle.session.commands import HELP_TEXT
from epdle.session.controller import Controller, Outcome
from epdle.session.presenter import describe_event
from epdle.session.terminal import advice_table, board_text

# How often the prompt looks for button presses while it waits for a line.
WATCH_INTERVAL_S = 0.2


def _lines(stream: TextIO, console: Console, controller: Controller) -> Iterator[str]:
    interactive = stream.isatty()
    while True:
        if interactive:
            try:
                yield read_while_watching(
                    console, controller, lambda: console.input("[bold]guess colours>[/bold] ")
                )
            except EOFError:
                return
        else:
            line = stream.readline()
            if not line:
                return
            yield line


def read_while_watching(console: Console, controller: Controller, read: Callable[[], str]) -> str:
    """`read()` (a prompt that blocks) while the device's events are shown as they come.

    Only the watcher touches the device until `read` returns, and it has stopped before
    the line is handled, so the two never talk to the device at once.
    """
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(WATCH_INTERVAL_S):
            show_device_events(console, controller)

    watcher = threading.Thread(target=watch, name="device-events", daemon=True)
    watcher.start()
    try:
        return read()
    finally:
        stop.set()
        watcher.join()


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


def run(controller: Controller, stdin: TextIO | None = None, console: Console | None = None) -> int:
    stdin = stdin or sys.stdin  # read at call time: tests and callers may swap it
    console = console or Console()
    if stdin.isatty():
        console.print("Tell me what you played, e.g. [bold]crane gybbb[/bold]; 'help' for more.")
    show_outcome(console, controller, controller.start())
    for line in _lines(stdin, console, controller):
        outcome = controller.handle(line)
        show_outcome(console, controller, outcome)
        if outcome.quit:
            break
        show_device_events(console, controller)
    controller.presenter.close()
    return 0
