"""The stripboard layout connects exactly the schematic's nets, and its drawing is current."""

from __future__ import annotations

import dataclasses

import pytest
from hardware_tools import ROOT, load_tool

board = load_tool("hardware/gen_stripboard")


def netlist() -> dict[tuple[str, str], tuple[str, str]]:
    return board.read_netlist(board.NETLIST.read_text(encoding="utf-8"))


def test_the_layout_connects_the_netlist() -> None:
    assert board.problems(netlist()) == []


def test_a_missing_cut_shorts_two_nets(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the cut under U1's pin 1 row, VDD and GND share a strip.
    monkeypatch.setattr(board, "CUTS", board.CUTS - {(13, 5)})
    assert "shorted: GND, VDD" in board.problems(netlist())


def test_a_missing_link_splits_a_net(monkeypatch: pytest.MonkeyPatch) -> None:
    links = tuple(link for link in board.LINKS if link != ((8, 21), (8, 7)))
    monkeypatch.setattr(board, "LINKS", links)
    assert "EPD_BUSY is split into 2 unconnected pieces" in board.problems(netlist())


def test_a_lead_in_the_wrong_hole_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    r1 = next(part for part in board.PARTS if part.ref == "R1")
    moved = dataclasses.replace(r1, pins={"1": (9, 5), "2": (9, 9)})  # MCLR row -> EPD_DC row
    parts = tuple(moved if part is r1 else part for part in board.PARTS)
    monkeypatch.setattr(board, "PARTS", parts)
    assert any(problem.startswith("shorted:") for problem in board.problems(netlist()))


@pytest.mark.parametrize("ref", ["C4", "C5"])
def test_the_reservoir_sits_next_to_the_load_switch(ref: str) -> None:
    # Each reservoir capacitor's VDD end on U2's VIN strip piece, at most four holes from
    # the pin.
    holes = {(part.ref, pin): hole for part in board.PARTS for pin, hole in part.pins.items()}
    vin, cap = holes[("U2", "4")], holes[(ref, "1")]
    assert board.segment(vin) == board.segment(cap)
    assert abs(vin[0] - cap[0]) <= 4
    assert board.segment(holes[(ref, "2")]) != board.segment(cap)


def test_committed_drawing_is_current() -> None:
    committed = (ROOT / "hardware" / "stripboard.svg").read_text(encoding="utf-8")
    assert committed == board.drawing(netlist()), "run python tools/hardware/gen_stripboard.py"


def test_smd_bodies_side_by_side_one_column_apart_are_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # C4 and C5 (1210, up to 2.7 mm wide) one column (2.54 mm) apart touch.
    c4 = next(part for part in board.PARTS if part.ref == "C4")
    moved = dataclasses.replace(c4, pins={"1": (28, 16), "2": (28, 17)})
    parts = tuple(moved if part is c4 else part for part in board.PARTS)
    monkeypatch.setattr(board, "PARTS", parts)
    assert board.body_overlaps() == ["C4 and C5 are -0.16 mm apart (at least 0.5 mm)"]
