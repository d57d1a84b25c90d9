"""`--port auto`: the device's port found with pyserial's list_ports."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from epdle.cli import main
from epdle.link import LinkError
from epdle.link.ports import Port, choose


def _info(device: str, vid: int | None = None, pid: int | None = None, text: str = "n/a"):
    return SimpleNamespace(device=device, vid=vid, pid=pid, description=text)


def test_a_known_bridge_wins_over_other_ports() -> None:
    ports = [
        Port("/dev/ttyS0", "ttyS0", None, None),
        Port("/dev/ttyACM0", "a phone", 0x1234, 0x0001),
        Port("/dev/ttyUSB0", "CP2102 USB to UART", 0x10C4, 0xEA60),
    ]
    assert choose(ports).device == "/dev/ttyUSB0"


def test_one_unknown_usb_port_is_taken_and_none_is_an_error_listing_what_was_seen() -> None:
    assert choose([Port("/dev/ttyACM0", "USB serial", 0x1234, 1)]).device == "/dev/ttyACM0"
    with pytest.raises(LinkError, match=r"no USB serial adapter found .*/dev/ttyS0"):
        choose([Port("/dev/ttyS0", "ttyS0", None, None)])


def test_two_bridges_are_for_the_user_to_choose() -> None:
    ports = [Port(f"/dev/ttyUSB{i}", "CH340", 0x1A86, 0x7523) for i in range(2)]
    with pytest.raises(LinkError, match=r"several USB serial adapters.*pick one with --port"):
        choose(ports)


def test_info_with_auto_says_which_port_it_chose(monkeypatch, capsys) -> None:
    ports = [_info("/dev/ttyUSB7", 0x0403, 0x6001, "FT232R USB UART")]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: ports)
    assert main(["info", "--port", "auto"]) == 1  # the port itself does not exist here
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "epdle: using /dev/ttyUSB7 (FTDI FT232R) [0403:6001]"
    assert err[1].startswith("epdle info: error: cannot open /dev/ttyUSB7")
