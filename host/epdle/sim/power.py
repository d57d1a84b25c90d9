"""The power report: energy per update, standby current and coin-cell life, from the
simulated board's power counters (the model itself is C: firmware/sim/sim_power.c,
hardware/power.md)."""

from __future__ import annotations

from typing import TypedDict

from epdle.sim.library import PowerStats

# CR2032 nominal capacity (hardware/power.md) and the usage the brief rates it at.
COIN_CELL_MAH = 225.0
UPDATES_PER_HOUR = 1.0
HOURS_PER_YEAR = 24 * 365.25
NS_PER_MS = 1_000_000


class PowerReport(TypedDict):
    """What Board.power_report() measures (hardware/power.md); None until known."""

    energy_per_update_mJ: float | None
    standby_uA: float | None
    coin_cell_years: float | None
    updates: int
    supply_V: float
    coin_cell_mAh: float
    updates_per_hour: float
    # Time spent in every state, from the power model's counters.
    mcu_run_ms: float
    mcu_stall_ms: float
    mcu_sleep_ms: float
    mcu_off_ms: float
    panel_off_ms: float
    panel_idle_ms: float
    panel_busy_ms: float
    panel_deep_sleep_ms: float
    uart_active_ms: float
    button_held_ms: float
    standby_ms: float
    active_ms: float


def power_report(stats: PowerStats, refreshes: int) -> PowerReport:
    """Energy per update, standby current and CR2032 life, plus time in every state."""
    charge_per_update = stats.active_charge_c / refreshes if refreshes else None
    standby_a = stats.standby_charge_c / (stats.standby_ns * 1e-9) if stats.standby_ns else None
    years = None
    if charge_per_update is not None and standby_a is not None:
        charge_per_hour = standby_a * 3600 + charge_per_update * UPDATES_PER_HOUR
        years = COIN_CELL_MAH * 3.6 / charge_per_hour / HOURS_PER_YEAR

    def ms(counter: str) -> float:
        return float(getattr(stats, counter + "_ns")) / NS_PER_MS

    return PowerReport(
        energy_per_update_mJ=(
            charge_per_update * stats.supply_v * 1e3 if charge_per_update else None
        ),
        standby_uA=standby_a * 1e6 if standby_a is not None else None,
        coin_cell_years=years,
        updates=refreshes,
        supply_V=float(stats.supply_v),
        coin_cell_mAh=COIN_CELL_MAH,
        updates_per_hour=UPDATES_PER_HOUR,
        mcu_run_ms=ms("mcu_run"),
        mcu_stall_ms=ms("mcu_stall"),
        mcu_sleep_ms=ms("mcu_sleep"),
        mcu_off_ms=ms("mcu_off"),
        panel_off_ms=ms("panel_off"),
        panel_idle_ms=ms("panel_idle"),
        panel_busy_ms=ms("panel_busy"),
        panel_deep_sleep_ms=ms("panel_deep_sleep"),
        uart_active_ms=ms("uart_active"),
        button_held_ms=ms("button_held"),
        standby_ms=ms("standby"),
        active_ms=ms("active"),
    )
