"""Warnings that a flood repeats (refused requests, closed connections, failed accepts),
logged at a bounded rate: each kind at most one line per LOG_PERIOD_S, however many come.

The first of a kind is logged at once; those that follow within the period are counted
and, a period after that line, one line says how many came and quotes the latest. So a
hundred thousand refused requests write a line per kind per period, not one each, and
the count of the last ones is not lost when the flood stops.
"""

from __future__ import annotations

import asyncio
import logging
import time

LOG_PERIOD_S = 10.0


class Repeated:
    """The warnings of `log` by kind, each kind logged at most once per `period` seconds
    (in the event loop that calls `warn`)."""

    def __init__(self, log: logging.Logger, period: float) -> None:
        self.log = log
        self.period = period
        self.logged_at: dict[str, float] = {}
        # By kind: how many came since its last line, and the latest one's text.
        self.pending: dict[str, tuple[int, str]] = {}

    def warn(self, text: str, kind: str | None = None) -> None:
        """Log `text` now, or count it (its kind, by default the text itself, was logged
        less than a period ago) for the line a period after that one."""
        kind = text if kind is None else kind
        now = time.monotonic()
        last = self.logged_at.get(kind)
        if last is None or (now - last >= self.period and kind not in self.pending):
            self.log.warning("%s", text)
            self.logged_at[kind] = now
            return
        count, _ = self.pending.get(kind, (0, text))
        if not count:
            delay = max(last + self.period - now, 0.0)
            asyncio.get_running_loop().call_later(delay, self._flush, kind)
        self.pending[kind] = (count + 1, text)

    def _flush(self, kind: str) -> None:
        count, text = self.pending.pop(kind)
        self.log.warning("%s (%d such since the last such line)", text, count)
        self.logged_at[kind] = time.monotonic()
