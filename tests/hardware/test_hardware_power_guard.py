"""hardware/power.md's tables of the switch-on and the guard (tools/hardware/gen_power_guard.py)
are what the simulated board gives on today's firmware."""

from __future__ import annotations

from hardware_tools import load_tool

tool = load_tool("hardware/gen_power_guard")


def test_the_committed_tables_are_the_boards() -> None:
    markdown = tool.POWER_MD.read_text(encoding="utf-8")
    assert tool.filled(markdown) == markdown, "run python tools/hardware/gen_power_guard.py --write"


def test_a_stale_table_is_found() -> None:
    markdown = tool.POWER_MD.read_text(encoding="utf-8")
    for table in (tool.SWITCH_ON, tool.GUARD):
        stale = table.filled(markdown, "| 2.75 V | 32 MHz |\n")
        assert stale != markdown
        assert tool.filled(stale) == markdown
