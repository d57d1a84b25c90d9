"""The daemon's device lost in the middle of a push, at pyserial's flush() (termios.error,
as a pulled USB adapter or a closed terminal gives): the daemon logs it, reconnects,
plays on and pushes to the device that is back; it ended with a traceback before."""

from __future__ import annotations

import errno
import logging
import os
import termios
import threading
import time
from pathlib import Path

import pytest
import serial
from support.serial_port import PortInFront

from epdle.cli import main

# The 2023 list's game (its candidate counts below).
ARGS = ["--port", "sim://", "--strategy", "entropy", "--top", "2", "--prior", "uniform"]
STATE_TIMEOUT_S = 60.0


class FlushFails(PortInFront):
    """A sim:// port whose `at`-th flush() raises termios.error (and every write, read,
    flush and timeout set after)."""

    def __init__(self, inner: serial.SerialBase, at: int) -> None:
        super().__init__(inner)
        self.flushes = 0
        self.at = at

    def before(self, kind: str) -> None:
        self.flushes += kind == "flush"
        if kind in ("timeout", "write", "flush", "read") and self.flushes >= self.at:
            raise termios.error(errno.EIO, "Input/output error")


@pytest.mark.parametrize("at", [1, 4, 9])
def test_a_flush_that_fails_mid_push_is_device_lost_and_the_daemon_goes_on(
    at: int, tmp_path: Path, caplog, monkeypatch
) -> None:
    opened: list[object] = []
    open_port = serial.serial_for_url

    def first_fails(url: str, *args, **kwargs):
        port = open_port(url, *args, **kwargs)
        opened.append(port)
        return FlushFails(port, at) if len(opened) == 1 else port

    monkeypatch.setattr(serial, "serial_for_url", first_fails)
    caplog.set_level(logging.DEBUG)  # a first connection that fails is logged so
    feed = tmp_path / "feed"
    os.mkfifo(feed)

    def logged(text: str) -> bool:
        return any(text in record.getMessage() for record in list(caplog.records))

    def write() -> None:
        with feed.open("w", buffering=1) as writer:
            writer.write("salet bbybb\n")
            deadline = time.monotonic() + STATE_TIMEOUT_S
            while not logged("device back") and time.monotonic() < deadline:
                time.sleep(0.05)
            writer.write("crony bbbbb\nquit\n")

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    code = main(["daemon", "--feed", str(feed), *ARGS])
    writer.join(STATE_TIMEOUT_S)
    messages = [record.getMessage() for record in caplog.records]
    assert code == 0
    lost = next(i for i, m in enumerate(messages) if "flush on sim:// failed" in m)
    back = messages.index("device back", lost)
    assert any(m.startswith("pushed") for m in messages[back:])  # to the device back
    assert any("13 candidate(s) left" in m for m in messages[back:])  # CRONY played
