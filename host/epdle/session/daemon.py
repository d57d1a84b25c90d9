"""`epdle daemon`: the helper without a terminal UI, fed one line at a time.

The feed is a file, a FIFO or stdin. A FIFO is reopened when its writer
closes it, so other programs can keep writing to it; a file or stdin ends
the daemon at its end. Device trouble never ends it: the presenter
reconnects and re-pushes the current set.
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

from epdle.link import LinkError
from epdle.session.controller import Controller, Outcome
from epdle.session.presenter import describe_event
from epdle.session.terminal import lost_text

log = logging.getLogger("epdle.daemon")


class _End:
    """The feed is finished; `error` says why if it broke off."""

    def __init__(self, error: str | None = None) -> None:
        self.error = error


def _feed_lines(feed: str) -> Iterator[str]:
    if feed == "-":
        yield from sys.stdin
        return
    path = Path(feed)
    is_fifo = stat.S_ISFIFO(os.stat(path).st_mode)
    while True:
        with path.open(encoding="utf-8") as stream:
            yield from stream
        if not is_fifo:
            return


def _reader(feed: str, lines: queue.Queue[str | _End]) -> None:
    try:
        for line in _feed_lines(feed):
            lines.put(line)
    except (OSError, UnicodeDecodeError) as error:
        lines.put(_End(f"cannot read feed {feed}: {error}"))
        return
    lines.put(_End())


class Daemon:
    def __init__(self, controller: Controller, feed: str, poll_interval: float = 0.2) -> None:
        self.controller = controller
        self.feed = feed
        self.poll_interval = poll_interval
        self._stop = threading.Event()

    def stop(self, signum: int | None = None, _frame: FrameType | None = None) -> None:
        if signum is not None:
            log.info("signal %s: stopping", signal.Signals(signum).name)
        self._stop.set()

    def run(self) -> int:
        """Serve the feed; 0 at its end (or a stop), 1 if it could not be read."""
        lines: queue.Queue[str | _End] = queue.Queue()
        threading.Thread(target=_reader, args=(self.feed, lines), daemon=True).start()
        self._report(self.controller.start(), "start")
        code = 0
        while not self._stop.is_set():
            self._poll_device()
            try:
                line = lines.get(timeout=self.poll_interval)
            except queue.Empty:
                continue
            if isinstance(line, _End):
                if line.error is not None:
                    log.error("%s", line.error)
                    code = 1
                else:
                    log.info("feed ended")
                break
            outcome = self.controller.handle(line)
            self._report(outcome, line.strip())
            if outcome.quit:
                break
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
            game = self.controller.game
            if game.solved:
                log.info("solved in %d", len(game.history))
            elif game.lost:
                log.info("%s", lost_text(game))
            else:
                advice = game.advice
                words = ", ".join(s.word for s in advice.suggestions)
                log.info("%d candidate(s) left; next: %s", advice.candidates_left, words)
        for note in outcome.notes:
            log.info("%s", note)


def run(controller: Controller, feed: str) -> int:
    daemon = Daemon(controller, feed)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, daemon.stop)
    return daemon.run()
