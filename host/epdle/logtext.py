"""Text from outside (a client's path, a feed line) made safe for a log line: control
characters escaped, so that no input can start a line of its own or drive a terminal."""

from __future__ import annotations

import logging
import re

# C0 and C1 controls, DEL, and the line and paragraph separators.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def escaped(text: str) -> str:
    r"""`text` with each control character written as an escape (\n, \x1b, \u2028)."""
    return _CONTROLS.sub(lambda found: repr(found[0])[1:-1], text)


class EscapeControls(logging.Filter):
    """Escapes control characters in every message of the logger it filters (its
    arguments filled in first; tracebacks are not messages and stay as they are)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = escaped(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def escaping(logger: logging.Logger) -> logging.Logger:
    """`logger`, its messages escaped (the filter added once)."""
    if not any(isinstance(f, EscapeControls) for f in logger.filters):
        logger.addFilter(EscapeControls())
    return logger
