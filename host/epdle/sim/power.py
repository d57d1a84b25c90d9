"""The power report: energy per update and standby current, from the simulated board's
power counters (the cell's life at a game a day: tools/hardware/gen_battery_life.py);
and what one press does to the supply path (the models themselves are C:
firmware/sim/sim_power.c, sim_battery.c, hardware/power.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from epdle.sim.library import PowerStats

if TYPE_CHECKING:
    from epdle.sim.board import Board

NS_PER_MS = 1_000_000


class PowerReport(TypedDict):
    """What Board.power_report() measures (hardware/power.md); None until known."""

    energy_per_update_mJ: float | None
    standby_uA: float | None
    updates: int
    supply_V: float
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
    """Energy per update and standby current, plus time in every state."""
    charge_per_update = stats.active_charge_c / refreshes if refreshes else None
    standby_a = stats.standby_charge_c / (stats.standby_ns * 1e-9) if stats.standby_ns else None

    def ms(counter: str) -> float:
        return float(getattr(stats, counter + "_ns")) / NS_PER_MS

    return PowerReport(
        energy_per_update_mJ=(
            charge_per_update * stats.supply_v * 1e3 if charge_per_update else None
        ),
        standby_uA=standby_a * 1e6 if standby_a is not None else None,
        updates=refreshes,
        supply_V=float(stats.supply_v),
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


# Bounds on the simulated waits of a press (a refresh alone is about 15 s).
BOOT_LIMIT_MS = 10_000.0
SETTLE_MS = 2_000.0  # a new cell's voltage reaches the capacitors (R x C: tens of ms)
PRESS_LIMIT_MS = 60_000.0


class SupplyFigures(TypedDict):
    """What the supply path saw since `supply_report_start` (volts; None if never)."""

    min_vdd_switch_on: float | None
    min_vdd_refresh: float | None
    min_vdd_bor_armed: float | None
    min_vdd_running: float | None
    # From U2's turn-on to the end of POWER_ON, and in the refresh: the floor in use where
    # VDD came closest to it (the highest brown-out trip while armed, else the clock's
    # minimum; firmware/sim/sim.h), and how far above it VDD stayed there.
    floor_switch_on_v: float | None
    floor_refresh_v: float | None
    margin_switch_on_mv: float | None
    margin_refresh_mv: float | None
    charge_uc: float
    brownouts: int


class PressFigures(SupplyFigures):
    """What one press from sleep did to the supply (volts; None where it never happened)."""

    bor_trip_v: float
    bor_trip_max_v: float
    watchdog_resets: int
    refreshed: bool
    slept_before: bool
    ended_asleep: bool


def press_from_sleep(
    board: Board,
    cell_volts: float | None = None,
    cell_ohms: float | None = None,
    reservoir_uf: float | None = None,
    panel_uf: float | None = None,
) -> PressFigures:
    """Put the cell and capacitors in (what is not given stays), let the board sleep, then
    press its button once and run until the update is over (the board asleep again with
    the panel off): what the supply went through from the cell's change on."""
    board.supply_report_start()
    board.set_supply(cell_volts, cell_ohms, reservoir_uf, panel_uf)
    # A cell too weak for the chip awake keeps it in a reset loop: it never sleeps, and the
    # press lands in that loop.
    slept = board.run_until(lambda b: b.asleep, BOOT_LIMIT_MS)
    board.run_ms(SETTLE_MS)
    refreshes = board.refresh_count
    watchdog_resets = board.watchdog_resets
    pressed_ms = board.time_ms
    board.press_button()

    def over(b: Board) -> bool:
        # Past the press and its release, back to the standby sleep with the panel off.
        return b.time_ms > pressed_ms + 1_000 and b.asleep and not b.panel_powered

    ended = board.run_until(over, PRESS_LIMIT_MS)
    return PressFigures(
        **board.supply_report(),
        bor_trip_v=board.bor_trip_v,
        bor_trip_max_v=board.bor_trip_max_v,
        watchdog_resets=board.watchdog_resets - watchdog_resets,
        refreshed=board.refresh_count > refreshes,
        slept_before=slept,
        ended_asleep=ended,
    )
