"""hardware/power.md's battery-life table is what tools/hardware/gen_battery_life.py measures on the
simulated board today: an hour of each pattern run again, its cell charge and life."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_tool() -> ModuleType:
    """tools/hardware/gen_battery_life.py (tools/ is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(
        "gen_battery_life", ROOT / "tools" / "hardware" / "gen_battery_life.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_battery_life"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_committed_table_is_what_the_simulated_board_gives() -> None:
    tool = load_tool()
    markdown = tool.POWER_MD.read_text(encoding="utf-8")
    assert tool.with_table(markdown, tool.table()) == markdown, (
        "python tools/hardware/gen_battery_life.py --write"
    )


def test_fast_runner_ups_cost_the_cell_a_fraction_of_full_refreshes() -> None:
    tool = load_tool()
    before, after = tool.one_hour(5, fast=False), tool.one_hour(5, fast=True)
    assert before.kinds == ("full",) * 5
    assert after.kinds == ("full",) + ("fast",) * 4
    # Four fast updates cost less than one full refresh: more than 3x the life.
    assert after.years > 3 * before.years
