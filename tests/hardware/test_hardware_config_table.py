"""hardware/flashing.md's configuration table: main.c's `#pragma config` lines, value for value."""

from __future__ import annotations

import pytest
from hardware_tools import ROOT, load_tool

tool = load_tool("hardware/gen_config_table")
FLASHING_MD = ROOT / "hardware" / "flashing.md"


def committed_rows() -> dict[str, str]:
    """setting -> value, as the table in flashing.md states it."""
    text = FLASHING_MD.read_text(encoding="utf-8")
    block = text[text.index(tool.TABLE.begin) : text.index(tool.TABLE.end)]
    rows = [line.split("|")[1:3] for line in block.splitlines()[3:]]
    return {name.strip(): value.strip() for name, value in rows}


def test_the_table_states_what_main_c_sets() -> None:
    source = tool.MAIN_C.read_text(encoding="utf-8")
    assert committed_rows() == dict(tool.settings(source))
    markdown = FLASHING_MD.read_text(encoding="utf-8")
    assert tool.TABLE.filled(markdown, tool.table(source)) == markdown, (
        "python tools/hardware/gen_config_table.py --write"
    )


def test_a_changed_setting_in_main_c_changes_the_table() -> None:
    source = tool.MAIN_C.read_text(encoding="utf-8")
    assert "BORV = HIGH" in source or "BORV = LOW" in source
    flipped = source.replace("BORV = HIGH", "BORV = X").replace("BORV = LOW", "BORV = HIGH")
    flipped = flipped.replace("BORV = X", "BORV = LOW")
    assert tool.table(flipped) != tool.table(source)


def test_every_setting_is_read_from_a_pragma_line() -> None:
    source = "#pragma config A = ON, B = OFF /* B = ON */\n// #pragma config C = ON\n"
    assert tool.settings(source) == [("A", "ON"), ("B", "OFF")]


def test_a_value_without_a_meaning_stops_the_tool() -> None:
    with pytest.raises(SystemExit, match="no meaning for BORV = MEDIUM"):
        tool.table("#pragma config BORV = MEDIUM\n")
