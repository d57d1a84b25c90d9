"""`epdle play`: the interactive helper in a terminal (or scripted through stdin).

On a terminal the prompt has line editing and history (readline); the device's
events are shown as they come while it waits. Scripted (stdin not a terminal),
one command is read per line, errors go to stderr, and the exit code is 1 if any
line failed.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TextIO

from rich.cells import cell_len
from rich.console import Console

from epdle.link import LinkError
from epdle.session.controller import Controller, Outcome
from epdle.session.presenter import describe_event

# How often the prompt looks for button presses while it waits for a line.
WATCH_INTERVAL_S = 0.2
PROMPT = "guess colours> "


def _line_editing() -> Callable[[], str] | None:
    """The prompt's line buffer when readline gives line editing and history, else None."""
    try:
        import readline
    except ImportError:  # not every Python has it
        return None
    readline.set_history_length(200)
    return readline.get_line_buffer


def _lines(stream: TextIO, console: Console, controller: Controller) -> Iterator[str]:
    interactive = stream.isatty()
    buffer = _line_editing() if interactive else None
    while True:
        if interactive:
            try:
                yield read_while_watching(
                    console, controller, lambda: input(PROMPT), lambda: PROMPT + _text(buffer)
                )
            except EOFError:
                console.print()  # Ctrl-D: leave the shell's prompt on a line of its own
                return
        else:
            line = stream.readline()
            if not line:
                return
            yield line


def _text(buffer: Callable[[], str] | None) -> str:
    return buffer() if buffer is not None else ""


def read_while_watching(
    console: Console,
    controller: Controller,
    read: Callable[[], str],
    prompt: Callable[[], str] | None = None,
) -> str:
    """`read()` (a prompt that blocks) while the device's events are shown as they come;
    after each, `prompt()` (the prompt and what was typed so far) is drawn again.

    Only the watcher touches the device until `read` returns, and it has stopped before
    the line is handled, so the two never talk to the device at once.
    """
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(WATCH_INTERVAL_S):
            if show_device_events(console, controller, redraw=prompt is not None) and prompt:
                console.file.write(prompt())
                console.file.flush()

    watcher = threading.Thread(target=watch, name="device-events", daemon=True)
    watcher.start()
    try:
        return read()
    finally:
        stop.set()
        watcher.join()


def show_device_events(console: Console, controller: Controller, redraw: bool = False) -> bool:
    """Print what the device did; True if anything was printed. A lost device is said
    once (the presenter backs off its reconnects), and again when it is back."""
    presenter = controller.presenter
    lines: list[str] = []
    was_lost = presenter.lost
    try:
        events = presenter.poll_events(timeout=0.05)
    except LinkError:
        events = []
    if presenter.lost is not None and was_lost is None:
        lines.append(f"[yellow]device lost ({presenter.lost}); will reconnect[/yellow]")
    if presenter.take_reconnected():
        lines.append("[green]device back: it shows the current suggestions[/green]")
    lines += [f"[cyan]device:[/cyan] {describe_event(event)}" for event in events]
    if lines and redraw:
        console.file.write("\r\x1b[K")  # over the prompt, which is drawn again after
    for line in lines:
        console.print(line, highlight=False)
    return bool(lines)


# A help line: the command, two spaces or more, what it does; a line under the
# description goes on with it, one indented further is an example, on a line of its own.
_HELP_ROW = re.compile(r"  (\S.*?)\s{2,}(.*)")


def show_help(console: Console, text: str) -> None:
    """The commands' help (`Controller.help_text`) as wide as the terminal: each
    description wraps between its words, under itself (or under its command when the
    terminal is too narrow beside the commands), each example kept whole."""
    rows: list[tuple[str, list[tuple[bool, str]]]] = []  # command, (example?, text)...
    for line in text.splitlines():
        if row := _HELP_ROW.fullmatch(line):
            rows.append((row[1], [(False, row[2])]))
            under = len(line) - len(row[2])
        elif line.startswith(" " * (under + 1)):
            rows[-1][1].append((True, line.strip()))
        elif rows[-1][1][-1][0]:
            rows[-1][1].append((False, line.strip()))
        else:
            rows[-1][1][-1] = (False, f"{rows[-1][1][-1][1]} {line.strip()}")
    column = 2 + max(len(command) for command, _ in rows) + 3
    widest = max(
        cell_len(part) + 2 if example else max(map(cell_len, part.split()))
        for _, parts in rows
        for example, part in parts
    )
    indent = column if console.width - column >= widest else 6
    shown = []
    for command, parts in rows:
        lines = [
            line
            for example, part in parts
            for line in (["  " + part] if example else _wrap(part, console.width - indent))
        ]
        if indent == column:
            shown.append(f"  {command}".ljust(column) + lines.pop(0))
        else:
            shown.append(f"  {command}")
        shown.extend(" " * indent + line for line in lines)
    console.print("\n".join(shown), markup=False, highlight=False, soft_wrap=True)


def _wrap(line: str, width: int) -> list[str]:
    """`line` in lines of at most `width` cells, broken between words only."""
    lines = [""]
    for word in line.split():
        if lines[-1] and cell_len(lines[-1]) + 1 + cell_len(word) > width:
            lines.append(word)
        else:
            lines[-1] = f"{lines[-1]} {word}" if lines[-1] else word
    return lines


def show_outcome(
    console: Console, controller: Controller, outcome: Outcome, errors: TextIO | None = None
) -> None:
    """What a line did; with `errors` (scripted), an error goes there as one plain line."""
    error = outcome.error
    if error and outcome.unknown:
        error += "; type 'help' for the commands"
    if error and errors is not None:
        print(f"epdle play: error: {error}", file=errors, flush=True)
    elif error:
        console.print(f"[red]error:[/red] {error}", highlight=False)
    if outcome.help:
        show_help(console, controller.help_text())
    for note in outcome.notes[: outcome.ahead]:  # read before the new advice
        console.print(f"[yellow]{note}[/yellow]", highlight=False)
    if outcome.changed:
        controller.show(console)
    for note in outcome.notes[outcome.ahead :]:
        console.print(f"[dim]{note}[/dim]", highlight=False)


def run(controller: Controller, stdin: TextIO | None = None, console: Console | None = None) -> int:
    """Play until 'quit' or the end of input; 0, or 1 when a scripted line failed."""
    stdin = stdin or sys.stdin  # read at call time: tests and callers may swap it
    console = console or Console()
    interactive = stdin.isatty()
    # Scripted, errors go to stderr (one line each) and make the exit code 1.
    errors = None if interactive else sys.stderr
    failed = 0
    if interactive:
        console.print("Tell me what you played, e.g. [bold]crane gybbb[/bold]; 'help' for more.")
    show_outcome(console, controller, controller.start())
    for line in _lines(stdin, console, controller):
        outcome = controller.handle(line)
        failed += outcome.error is not None
        show_outcome(console, controller, outcome, errors)
        if outcome.quit:
            break
        show_device_events(console, controller)
    controller.presenter.close()
    return 1 if failed and not interactive else 0
