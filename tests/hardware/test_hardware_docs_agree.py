"""What the pin table and the docs say of the design is what the design is: every resistor
value they name is the netlist's (hardware/kicad/epdle.net, written from gen_schematic.py),
and every brown-out trip range they give is the one of the BORV the firmware configures."""

from __future__ import annotations

import re

import pytest
from hardware_tools import PIC_DIR, ROOT

DOCS = (
    "hardware/pins.csv",
    "hardware/README.md",
    "hardware/bom.md",
    "README.md",
    "docs/sim-fidelity.md",
)
# DS40001839, RST06: the brown-out trip range (min-max) of each BORV setting.
TRIP_RANGES = {"LOW": ("2.30", "2.60"), "HIGH": ("2.55", "2.85")}


def netlist_values() -> dict[str, str]:
    text = (ROOT / "hardware" / "kicad" / "epdle.net").read_text(encoding="utf-8")
    return dict(re.findall(r'\(comp \(ref "(\w+)"\)\s*\(value "([^"]*)"\)', text))


def ohms(value: str) -> float:
    """'220', '10k', '1 kOhm', '470 Ohm' -> ohms."""
    number, unit = re.fullmatch(r"([\d.]+)\s*(k|M)?(?:\s*Ohm)?", value.strip()).groups()  # type: ignore[union-attr]
    return float(number) * {"k": 1e3, "M": 1e6, None: 1.0}[unit]


def resistor_mentions(text: str) -> list[tuple[str, str]]:
    """'R2 (220 Ohm)', 'R4 (10 kOhm)': a resistor named with its value in brackets."""
    return re.findall(r"\b(R\d+) \(([\d.]+ ?k?Ohm)\)", text)


def test_the_netlist_is_read() -> None:
    values = netlist_values()
    assert values["R2"] == "220" and values["R4"] == "10k"


@pytest.mark.parametrize("doc", DOCS)
def test_resistor_values_named_are_the_netlist_s(doc: str) -> None:
    values = netlist_values()
    text = (ROOT / doc).read_text(encoding="utf-8")
    for ref, value in resistor_mentions(text):
        assert ohms(value) == ohms(values[ref]), (
            f"{doc} names {ref} {value}, the netlist {values[ref]}"
        )


def test_a_stale_value_is_found() -> None:
    assert resistor_mentions("through R2 (470 Ohm) and D1") == [("R2", "470 Ohm")]
    assert ohms("470 Ohm") != ohms(netlist_values()["R2"])


def configured_borv() -> str:
    match = re.search(r"BORV = (LOW|HIGH)", (PIC_DIR / "main.c").read_text(encoding="utf-8"))
    assert match is not None
    return match[1]


@pytest.mark.parametrize("doc", ["hardware/README.md", "hardware/pins.csv", "README.md"])
def test_the_brown_out_range_named_is_the_configured_one(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    named = re.findall(
        r"(\d\.\d\d)-(\d\.\d\d) V where the brown-out reset|"
        r"BORV = (LOW|HIGH)`?, stops the chip at (\d\.\d\d)-(\d\.\d\d) V",
        text,
    )
    for found in named:
        low, high = (found[0], found[1]) if found[0] else (found[3], found[4])
        assert (low, high) == TRIP_RANGES[configured_borv()], f"{doc}: {low}-{high} V"
        if found[2]:
            assert found[2] == configured_borv()


def awake_floor_v() -> str:
    """The guard's awake floor (firmware/drivers/supply.h), in volts as the docs write it."""
    text = (ROOT / "firmware" / "drivers" / "supply.h").read_text(encoding="utf-8")
    match = re.search(r"#define SUPPLY_AWAKE_MIN_MV (\d+)u", text)
    assert match is not None
    return f"{int(match[1]) / 1000:.2f}"


def awake_floors_named(text: str) -> list[tuple[str, str, str]]:
    """'refuses updates under 2.83 V', 'under 2.83 V awake', 'the device's 2.83 V check'."""
    return re.findall(
        r"refuses updates under\s+(\d\.\d\d) V|under\s+(?:about\s+)?(\d\.\d\d) V awake|"
        r"device's\s+(\d\.\d\d) V check",
        text,
    )


@pytest.mark.parametrize(
    "doc", ["hardware/README.md", "hardware/bringup.md", "hardware/power.md", "README.md"]
)
def test_the_awake_floor_named_is_the_guard_s(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    for found in awake_floors_named(text):
        assert "".join(found) == awake_floor_v(), f"{doc}: {''.join(found)} V"


def test_a_stale_awake_floor_is_found() -> None:
    assert awake_floors_named("the device refuses updates under\n2.75 V, and") == [("2.75", "", "")]
    assert awake_floor_v() != "2.75"
