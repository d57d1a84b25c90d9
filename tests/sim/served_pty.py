"""`epdle sim serve --pty --real-time` in its own process, its event log followed: the board
as a desk has it (a refresh takes its seconds of wall time), for the tests that press its
button (SIGUSR1) against what the host does on its terminal. They wait on log lines,
bounded, never on a fixed time."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import IO

# The longest a test waits for the board to log a state (a full refresh is ~17 s).
STATE_TIMEOUT_S = 90.0
LOG_LINE = re.compile(r"^\s*(?P<t>\d+\.\d+) s  (?P<text>.*)$")

Line = tuple[float, str]  # the board's clock in seconds, what happened


class ServedPty:
    """The server process and the lines of its event log (stderr)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "epdle", "sim", "serve", "--pty", "--real-time"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None and self.process.stderr is not None
        self.path = self.process.stdout.readline().strip()
        if not self.path:
            self.process.kill()
            raise RuntimeError(f"the server did not start: {self.process.communicate()[1]}")
        self.lines: list[Line] = []
        self.changed = threading.Condition()
        threading.Thread(target=self._follow, args=(self.process.stderr,), daemon=True).start()

    def __enter__(self) -> ServedPty:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _follow(self, stream: IO[str]) -> None:
        for line in stream:
            match = LOG_LINE.match(line)
            if match:
                with self.changed:
                    self.lines.append((float(match["t"]), match["text"]))
                    self.changed.notify_all()

    def wait_until(self, predicate: Callable[[list[Line]], bool], what: str) -> None:
        """Until the log shows a state (bounded)."""
        with self.changed:
            if not self.changed.wait_for(lambda: predicate(self.lines), STATE_TIMEOUT_S):
                raise AssertionError(f"the board never logged {what}: {self.lines[-5:]}")

    def wait_for(self, text: str, after: int) -> int:
        """The index of the first log line from `after` on that starts with `text` (bounded)."""

        def found() -> int | None:
            lines = self.lines
            return next((i for i in range(after, len(lines)) if lines[i][1].startswith(text)), None)

        self.wait_until(lambda _: found() is not None, repr(text))
        with self.changed:
            index = found()
        assert index is not None
        return index

    def press(self) -> None:
        self.process.send_signal(signal.SIGUSR1)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
