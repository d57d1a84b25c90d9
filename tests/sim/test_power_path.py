"""`epdle sim power`: one press from sleep on the simulated board's supply path."""

from __future__ import annotations

import json

import pytest

from epdle.cli import main

KEYS = {
    "min_vdd_switch_on",
    "min_vdd_refresh",
    "bor_trip_v",
    "brownouts",
    "refreshed",
    "battery_low",
    "charge_uc",
}


def sim_power(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["sim", "power", "--json", *args]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def test_sim_power_reports_every_figure_of_a_press(capsys: pytest.CaptureFixture[str]) -> None:
    result = sim_power(capsys)
    assert set(result) >= KEYS
    assert result["refreshed"] is True
    assert result["brownouts"] == 0
    # A refresh is about 15 s at 8 mA: 0.12 C, whatever else the press draws.
    assert 110_000 < float(result["charge_uc"]) < 140_000  # type: ignore[arg-type]
    switch_on = float(result["min_vdd_switch_on"])  # type: ignore[arg-type]
    refresh = float(result["min_vdd_refresh"])  # type: ignore[arg-type]
    assert 2.5 < switch_on < 3.0 and 2.5 < refresh < 3.0


def test_sim_power_without_the_reservoir_browns_out_at_switch_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The board before the reservoir: C2 alone against C3 and the module's 10 uF.
    result = sim_power(capsys, "--reservoir-uf", "0")
    assert float(result["min_vdd_switch_on"]) < 2.2  # type: ignore[arg-type]
    assert int(result["brownouts"]) >= 1  # type: ignore[call-overload]
    assert result["refreshed"] is False


def test_sim_power_text_and_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "power", "--panel-uf", "4.7", "--bor", "max"]) == 0
    out = capsys.readouterr().out
    assert "lowest VDD at the panel's switch-on" in out and "module 4.7 uF" in out
    assert main(["sim", "power", "--panel-uf", "22"]) == 2
    assert "at most 10" in capsys.readouterr().err
