"""The note a command says when the answer history its game's prior reads is behind.

A command says it once, on stderr, in one line (`epdle play: note: ...`), when its game
is played under the history prior and the history lacks the answer of the day before the
day played: a one-shot `suggest` each time it runs; `play`, `daemon`, `demo`, `web` and
`review` when they start, however many games follow. `--json` carries it as a field
(`history.stale`); every turn's heading and the page say how old the history is.
"""

from __future__ import annotations

import sys

from epdle.session.terminal import history_note


def say_history_note(prog: str, universe: object) -> str | None:
    """Say `universe`'s history_note on stderr, if it has one; the note."""
    note = history_note(universe)
    if note is not None:
        print(f"{prog}: note: {note}", file=sys.stderr)
    return note
