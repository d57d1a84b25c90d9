"""hardware/power.md's table of the guard's gap (tools/hardware/gen_power_gap.py): its edges
are where the simulated board puts them, and the chosen cell stays out of it through its
life. (The whole table takes minutes to measure: `gen_power_gap.py --check` does that.)"""

from __future__ import annotations

import pytest
from hardware_tools import load_tool

from epdle.sim import Board

tool = load_tool("hardware/gen_power_gap")


def committed_gaps() -> dict[tuple[int, str, str, float], tuple[float, float | None]]:
    """(temperature, trigger, trip, volts) -> (lowest, highest ohm; None: past the sweep)."""
    markdown = tool.TABLE.path.read_text(encoding="utf-8")
    table = markdown[markdown.index(tool.TABLE.begin) : markdown.index(tool.TABLE.end)]
    gaps = {}
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if not cells[0].endswith(("min", "typ", "max")):
            continue
        temp, trigger, trip = (part.strip() for part in cells[0].split(","))
        for volts, cell in zip(tool.VOLTS, cells[1:], strict=True):
            if cell == "-":
                continue
            low, high = cell.split("-")
            gaps[(int(temp.removesuffix(" C")), trigger, trip, volts)] = (
                float(low),
                None if high.endswith("+") else float(high),
            )
    return gaps


GAPS = committed_gaps()


@pytest.mark.parametrize(
    "case", [(20, "press", "max", 3.0), (20, "show", "typ", 3.0), (0, "show", "max", 2.9)]
)
def test_the_committed_edges_are_the_boards(case: tuple[int, str, str, float]) -> None:
    temp_c, trigger, trip, volts = case
    low, high = GAPS[case]
    assert high is not None

    def cut(ohms: float) -> bool:
        return tool.cut_with_pumps_on(tool.power(volts, ohms, temp_c, trigger, trip))

    assert cut(low) and cut(high)
    assert not cut(low - 2 * tool.EDGE_OHMS) and not cut(high + 2 * tool.EDGE_OHMS)


def test_the_chosen_cell_never_reaches_the_gap() -> None:
    with Board() as board:
        highest = 0.0
        for used in tool.USED:
            board.set_cell(tool.CHOSEN, used)
            highest = max(highest, float(board.supply()["cell_ohm"]))
    # The table's figures are resistances at 20 C, scaled alike by the cold: the L92's
    # highest in its life against the gap's lowest edge anywhere in it, at any voltage.
    lowest_edge = min(low for low, _ in GAPS.values())
    assert highest < lowest_edge / 2
