"""hardware/power.md's battery-life tables are what tools/hardware/gen_battery_life.py measures on
the simulated board today, and the cell the BOM carries is the one that meets the goal there."""

from __future__ import annotations

import csv

from hardware_tools import ROOT, load_tool

tool = load_tool("hardware/gen_battery_life")


def test_the_committed_tables_are_what_the_simulated_board_gives() -> None:
    markdown = tool.TABLE.path.read_text(encoding="utf-8")
    assert tool.TABLE.filled(markdown, tool.tables()) == markdown, (
        "python tools/hardware/gen_battery_life.py --write"
    )


def test_fast_runner_ups_cost_the_cell_a_fraction_of_full_refreshes() -> None:
    before, after = tool.one_hour(5, fast=False), tool.one_hour(5, fast=True)
    assert before.kinds == ("full",) * 5
    assert after.kinds == ("full",) + ("fast",) * 4
    # Four fast updates cost less than one full refresh.
    assert before.charge_mc > 3 * after.charge_mc


def test_the_chosen_cell_meets_the_goal_and_a_coin_cell_does_not() -> None:
    chosen = tool.life(tool.CHOSEN)
    assert chosen.day.kinds.count("full") == 5 and chosen.day.kinds.count("fast") == 10
    assert chosen.years(tool.LEAK_TYPICAL_OHM) >= tool.GOAL_YEARS
    assert tool.life("CR2032").years(tool.LEAK_TYPICAL_OHM) < tool.GOAL_YEARS


def test_the_bom_carries_the_chosen_cell() -> None:
    with (ROOT / "hardware" / "bom.csv").open(encoding="utf-8") as rows:
        bt1 = next(row for row in csv.DictReader(rows) if row["Refs"] == "BT1")
    assert bt1["Value"] == tool.CHOSEN
