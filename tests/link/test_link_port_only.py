"""The link is protocol over a port, as for any pyserial user: Device knows nothing of
the simulated board; what needs the board finds it through the sim package."""

from __future__ import annotations

import ast
from pathlib import Path

from epdle.link import Device
from epdle.sim import Board, board_behind

LINK = Path(__file__).resolve().parents[2] / "host" / "epdle" / "link"


def test_device_names_no_board() -> None:
    source = (LINK / "device.py").read_text()
    tree = ast.parse(source)
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert "Board" not in names
    assert not {a for a in attributes if "board" in a.lower()}
    assert not hasattr(Device, "simulated_board")


def test_the_board_behind_a_sim_port_and_none_behind_others() -> None:
    with Device.open("sim://") as device:
        board = board_behind(device.serial)
        assert isinstance(board, Board)
        assert device.push([bytes([1, 1, 0, 0, 1, 1, 0, 0, 0xFF, 0xFF])]).erase_cycles == 2
    assert board_behind(object()) is None
    with Device.open("loop://") as device:
        assert board_behind(device.serial) is None
    closed = Device.open("sim://")
    closed.close()
    assert board_behind(closed.serial) is None
