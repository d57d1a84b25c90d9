"""`epdle daemon`: the helper without a terminal UI, fed one line at a time.

The feed is a file, a FIFO or stdin. A FIFO is reopened when its writer
closes it, so other programs can keep writing to it; a file or stdin ends
the daemon at its end. Device trouble never ends it: the presenter
reconnects and re-pushes the current set. Nor does a bad line: one that is
not UTF-8, or is longer than MAX_LINE_BYTES (read no further than that), is
skipped with a warning, and a line is quoted in the log cut to a few dozen
characters.

The daemon keeps up with a feed faster than the device: at most FEED_BACKLOG lines
are read ahead (the reader waits beyond), and the device gets the advice once the
lines read so far are played, not after each of them. Nor is the advice worked out
for a line that other lines already follow: each is checked (a guess against the
game, its errors logged), and the game is summed up in the log once the lines read
so far are played.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import stat
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import BinaryIO

from epdle.link import LinkError
from epdle.logtext import escaping
from epdle.session.controller import Controller, Outcome
from epdle.session.presenter import describe_event
from epdle.solver.scoring import MAX_QUOTED, quoted

# Every message escaped: a feed line (or a word in an error) cannot forge a log line.
log = escaping(logging.getLogger("epdle.daemon"))
# No command or guess comes near this; a longer line is skipped unread.
MAX_LINE_BYTES = 4096
# Lines read ahead of the game at most (a bound on the memory a fast feed takes).
FEED_BACKLOG = 256


class _End:
    """The feed is finished; `error` says why if it broke off."""

    def __init__(self, error: str | None = None) -> None:
        self.error = error


class _Skipped:
    """A feed line that is no line of text; `reason` says why."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _lines(stream: BinaryIO) -> Iterator[str | _Skipped]:
    """The stream's lines as text, reading at most MAX_LINE_BYTES of a line; a UTF-8
    byte order mark before the first is dropped."""
    number = 0
    while raw := stream.readline(MAX_LINE_BYTES + 1):
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            length = len(raw)
            while not raw.endswith(b"\n") and (raw := stream.readline(MAX_LINE_BYTES + 1)):
                length += len(raw)
            yield _Skipped(
                f"feed line {number}: {length} bytes, over the {MAX_LINE_BYTES} a line may "
                "have: skipped"
            )
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            yield _Skipped(
                f"feed line {number}: not UTF-8 (byte {error.start + 1} is "
                f"{raw[error.start]:#04x}): skipped"
            )
            continue
        yield text.removeprefix("\ufeff") if number == 1 else text


def _feed_lines(feed: str) -> Iterator[str | _Skipped]:
    if feed == "-":
        yield from _lines(sys.stdin.buffer)
        return
    path = Path(feed)
    is_fifo = stat.S_ISFIFO(os.stat(path).st_mode)
    while True:
        with path.open("rb") as stream:
            yield from _lines(stream)
        if not is_fifo:
            return


def _shown(line: str) -> str:
    """A feed line as the log quotes it: cut to MAX_QUOTED characters."""
    return line if len(line) <= MAX_QUOTED else quoted(line)


def _reader(feed: str, lines: queue.Queue[str | _Skipped | _End]) -> None:
    try:
        for line in _feed_lines(feed):
            lines.put(line)
    except OSError as error:
        lines.put(_End(f"cannot read feed {feed}: {error}"))
        return
    lines.put(_End())


class Daemon:
    def __init__(self, controller: Controller, feed: str, poll_interval: float = 0.2) -> None:
        self.controller = controller
        self.feed = feed
        self.poll_interval = poll_interval
        self._stop = threading.Event()
        self._changed = False  # the game changed since its last summary line

    def stop(self, signum: int | None = None, _frame: FrameType | None = None) -> None:
        """Stop at once: a push under way is given up (the device keeps the set it had
        committed), no line is played after it and nothing is pushed."""
        if signum is not None:
            log.info("signal %s: stopping", signal.Signals(signum).name)
        self._stop.set()
        self.controller.presenter.stop()

    def run(self) -> int:
        """Serve the feed; 0 at its end (or a stop), 1 if it could not be read."""
        lines: queue.Queue[str | _Skipped | _End] = queue.Queue(FEED_BACKLOG)
        threading.Thread(target=_reader, args=(self.feed, lines), daemon=True).start()
        # The device gets the advice once no line waits (catch_up), not after each line.
        self.controller.defer_pushes = True
        self._report(self.controller.start(), "start")
        code = 0
        while not self._stop.is_set():
            self._poll_device()
            try:
                line = lines.get_nowait()
            except queue.Empty:
                self._summarise()
                self._report(self.controller.catch_up(), "device")
                try:
                    line = lines.get(timeout=self.poll_interval)
                except queue.Empty:
                    continue
            if self._stop.is_set():  # stopped while the device was busy: play no more
                break
            if isinstance(line, _End):
                self._summarise()
                if line.error is not None:
                    log.error("%s", line.error)
                    code = 1
                else:
                    log.info("feed ended")
                break
            if isinstance(line, _Skipped):
                log.warning("%s", line.reason)
                continue
            # With more lines waiting, only the position after the last of them matters:
            # each line is checked (its errors reported), the advice worked out once.
            self.controller.game.defer_advice = not lines.empty()
            outcome = self.controller.handle(line)
            self._report(outcome, _shown(line.strip()))
            if outcome.quit:
                break
        self.controller.game.defer_advice = False
        self._summarise()
        if not self._stop.is_set():
            self._report(self.controller.catch_up(), "device")
        self.controller.presenter.close()
        return code

    def _poll_device(self) -> None:
        try:
            for event in self.controller.presenter.poll_events(timeout=0.0):
                log.info("device: %s", describe_event(event))
        except LinkError as error:
            log.warning("device lost (%s); reconnecting", error)
        if self.controller.presenter.take_reconnected():
            log.info("device back")

    def _report(self, outcome: Outcome, line: str) -> None:
        if outcome.error:
            log.error("%s: %s", line or "input", outcome.error)
        if outcome.changed:
            self._changed = True
            if not self.controller.game.defer_advice:
                self._summarise()
        for note in outcome.notes:
            log.info("%s", note)

    def _summarise(self) -> None:
        """The game in one line, once it changed since the last such line."""
        if self._changed:
            log.info("%s", self.controller.summary())
            self._changed = False


def run(controller: Controller, feed: str) -> int:
    daemon = Daemon(controller, feed)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, daemon.stop)
    return daemon.run()
