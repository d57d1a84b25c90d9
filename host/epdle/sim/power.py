"""The power report: energy per update and standby current, from the simulated board's
power counters (the cell's life at a game a day: tools/hardware/gen_battery_life.py);
and what one press does to the supply path (the models themselves are C:
firmware/sim/sim_power.c, sim_battery.c, hardware/power.md)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
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
DURING_MS = 500.0  # a host that keeps talking sends this often


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
    # The time the CPU ran below the lowest VDD its clock allows (DS40001839 D002).
    cpu_out_of_spec_ms: float


class PressFigures(SupplyFigures):
    """What one update from sleep did to the supply (volts; None where it never happened)."""

    bor_trip_v: float
    bor_trip_max_v: float
    watchdog_resets: int
    refreshed: bool
    slept_before: bool
    ended_asleep: bool


# The cell's internal resistance against temperature, as a factor on its resistance at
# 20 C: (temperature C, factor), interpolated linearly between the points and held beyond
# them. NOT a maker's curve: no CR2032 maker's resistance-against-temperature data could be
# reached when this was written (makers publish discharge curves at 15 kohm and the
# -20..70 C rating; facts 4.2: "higher when cold"). These points are an assumption of
# this table's own, to be replaced by a maker's measured curve (docs/sim-fidelity.md,
# "The supply path").
CELL_OHMS_BY_TEMPERATURE = ((-20.0, 4.0), (0.0, 1.8), (20.0, 1.0), (40.0, 0.85), (60.0, 0.8))


def cell_ohms_at(ohms_at_20c: float, temperature_c: float) -> float:
    """The cell's internal resistance at `temperature_c`, from its resistance at 20 C."""
    points = CELL_OHMS_BY_TEMPERATURE
    if temperature_c <= points[0][0]:
        return ohms_at_20c * points[0][1]
    for (t0, f0), (t1, f1) in pairwise(points):
        if temperature_c <= t1:
            return ohms_at_20c * (f0 + (f1 - f0) * (temperature_c - t0) / (t1 - t0))
    return ohms_at_20c * points[-1][1]


def press(tap_ms: float) -> Callable[[Board], None]:
    """The button pressed and held `tap_ms` (with its bounce) as the update's trigger."""

    def trigger(board: Board) -> None:
        board.press_button(hold_ms=tap_ms)

    return trigger


def update_from_sleep(
    board: Board,
    trigger: Callable[[Board], None],
    cell_volts: float | None = None,
    cell_ohms: float | None = None,
    reservoir_uf: float | None = None,
    panel_uf: float | None = None,
    during: Callable[[Board], None] | None = None,
) -> PressFigures:
    """Put the cell and capacitors in (what is not given stays), let the board sleep, then
    trigger one update (`press()`, or the host's SHOW) and run until it is over (the board
    asleep again with the panel off), calling `during` every DURING_MS meanwhile (a host
    that keeps talking): what the supply went through from the cell's change on."""
    board.supply_report_start()
    board.set_supply(cell_volts, cell_ohms, reservoir_uf, panel_uf)
    # A cell too weak for the chip awake keeps it in a reset loop: it never sleeps, and the
    # update's trigger lands in that loop.
    slept = board.run_until(lambda b: b.asleep, BOOT_LIMIT_MS)
    board.run_ms(SETTLE_MS)
    refreshes = board.refresh_count
    watchdog_resets = board.watchdog_resets
    started_ms = board.time_ms
    trigger(board)

    def over(b: Board) -> bool:
        # Past the trigger and a press's release, back to the standby sleep, panel off.
        return b.time_ms > started_ms + 1_000 and b.asleep and not b.panel_powered

    ended = False
    while board.time_ms < started_ms + PRESS_LIMIT_MS:
        if board.run_until(over, DURING_MS):
            ended = True
            break
        if during is not None:
            during(board)
    return PressFigures(
        **board.supply_report(),
        bor_trip_v=board.bor_trip_v,
        bor_trip_max_v=board.bor_trip_max_v,
        watchdog_resets=board.watchdog_resets - watchdog_resets,
        refreshed=board.refresh_count > refreshes,
        slept_before=slept,
        ended_asleep=ended,
    )
