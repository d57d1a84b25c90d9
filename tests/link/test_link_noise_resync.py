"""Line noise before a command (4,000 garbage bytes on the line, then `epdle info`): the
device reports the garbage's damaged packets one by one while the command waits behind
them; the host waits for the line to go quiet and tries again before it gives up, and
the command is answered."""

from __future__ import annotations

import os
import random

import pytest
import serial
from test_link_pty_lost import served

from epdle.cli import main
from epdle.link import Device, register_url_handler
from epdle.link.device import BAUD_RATE

GARBAGE_BYTES = 4000


@pytest.mark.parametrize("seed", range(4))
def test_info_after_line_noise_is_answered(seed: int) -> None:
    register_url_handler()
    port = serial.serial_for_url("sim://", baudrate=BAUD_RATE, timeout=2.0)
    try:
        Device(port).info()
        port.write(random.Random(seed).randbytes(GARBAGE_BYTES))
        info = Device(port).info()
        assert info.frames >= 1
    finally:
        port.close()


def test_epdle_info_after_line_noise_on_a_terminal(capsys) -> None:
    with served() as served_board:
        line = os.open(served_board.server.path, os.O_WRONLY | os.O_NOCTTY)
        try:
            os.write(line, random.Random(7).randbytes(GARBAGE_BYTES))
        finally:
            os.close(line)
        code = main(["info", "--port", served_board.server.path])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith("firmware ")
