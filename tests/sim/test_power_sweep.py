"""`epdle sim power` over every path that powers the panel: the button (a tap and a
deliberate press) and the host's SHOW (the host talking through the refresh), a fresh, a
half-used and a spent CR2032, each point of the brown-out reset's trip range, at 20 C and
0 C. Whatever the case: the CPU never runs below the VDD its clock needs, no brown-out,
and the panel's supply is never cut with its charge pumps on; a cell the guard takes is
refreshed, one it refuses is refused before the panel is powered."""

from __future__ import annotations

import json

import pytest

from epdle.cli import main

# (open-circuit volts, ohms at 20 C), and whether the device refreshes with it at 20 C and
# at 0 C (where the cell's resistance is higher: epdle.sim.power.cell_ohms_at).
CELLS = {
    "fresh": ((3.0, 15.0), {20: True, 0: True}),
    "half-used": ((2.9, 30.0), {20: True, 0: False}),
    "spent": ((2.8, 50.0), {20: False, 0: False}),
}
TRIGGERS = [("press", 45), ("press", 120), ("show", None)]
TRIPS = ["min", "typ", "max"]
TEMPERATURES = [20, 0]


def sim_power(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["sim", "power", "--json", *args]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


@pytest.mark.parametrize("temp_c", TEMPERATURES)
@pytest.mark.parametrize("bor", TRIPS)
@pytest.mark.parametrize("cell", list(CELLS))
@pytest.mark.parametrize(("trigger", "tap_ms"), TRIGGERS)
def test_every_path_keeps_the_cpu_in_spec_and_the_panel_safe(
    capsys: pytest.CaptureFixture[str],
    trigger: str,
    tap_ms: int | None,
    cell: str,
    bor: str,
    temp_c: int,
) -> None:
    (volts, ohms), refreshes = CELLS[cell]
    args = ["--trigger", trigger, "--cell-volts", str(volts), "--cell-ohms", str(ohms)]
    args += ["--bor", bor, "--temp-c", str(temp_c)]
    if tap_ms is not None:
        args += ["--tap-ms", str(tap_ms)]
    result = sim_power(capsys, *args)
    assert result["cpu_out_of_spec_ms"] == 0
    assert result["brownouts"] == 0
    assert result["violations"] == []  # among them: a cut with the charge pumps on
    assert result["ended_asleep"] is True
    if refreshes[temp_c]:
        assert result["refreshed"] is True and result["battery_low"] is False
    else:
        assert result["refreshed"] is False and result["battery_low"] is True
        # Refused before the panel was powered: it never saw U2's switch-on.
        assert result["min_vdd_switch_on"] is None
