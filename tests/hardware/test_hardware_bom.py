"""The bill of materials: every part of the schematic, each with a part number."""

from __future__ import annotations

import csv

from hardware_tools import ROOT, load_tool

check = load_tool("hardware/check_hardware")


def bom_rows() -> list[dict[str, str]]:
    with check.BOM_CSV.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_every_part_of_the_netlist_has_a_part_number() -> None:
    parts = {ref for ref, _ in check.gen_schematic.read_netlist(check.NETLIST.read_text())}
    parts = {ref for ref in parts if not ref.startswith("#")}  # power flags are no parts
    listed = {ref for row in bom_rows() for ref in row["Refs"].split(",")}
    assert listed == parts
    for row in bom_rows():
        assert row["Manufacturer"] and row["Part number"] and row["Substitute"], row["Refs"]


def test_the_panel_is_the_revision_the_firmware_drives() -> None:
    (panel,) = [row for row in bom_rows() if row["Refs"] == "J3"]
    assert "V3" in panel["Part number"] and "212x104" in panel["Part number"]
    assert "NOT the V4" in panel["Substitute"]


def test_bom_md_shows_bom_csv() -> None:
    markdown = (ROOT / "hardware" / "bom.md").read_text(encoding="utf-8")
    table = check.bom_table(check.BOM_CSV.read_text(encoding="utf-8"))
    assert check.with_bom_table(markdown, table) == markdown, (
        "python tools/hardware/check_hardware.py --update"
    )
