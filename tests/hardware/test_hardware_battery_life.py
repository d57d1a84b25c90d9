"""hardware/power.md's battery-life table is what tools/hardware/gen_battery_life.py measures on the
simulated board today: an hour of each pattern run again, its cell charge and life."""

from __future__ import annotations

from hardware_tools import load_tool

tool = load_tool("hardware/gen_battery_life")


def test_the_committed_table_is_what_the_simulated_board_gives() -> None:
    markdown = tool.TABLE.path.read_text(encoding="utf-8")
    assert tool.TABLE.filled(markdown, tool.table()) == markdown, (
        "python tools/hardware/gen_battery_life.py --write"
    )


def test_fast_runner_ups_cost_the_cell_a_fraction_of_full_refreshes() -> None:
    before, after = tool.one_hour(5, fast=False), tool.one_hour(5, fast=True)
    assert before.kinds == ("full",) * 5
    assert after.kinds == ("full",) + ("fast",) * 4
    # Four fast updates cost less than one full refresh: more than 3x the life.
    assert after.years > 3 * before.years
