"""CLI command `sim power`: one update from sleep (a press or the host's SHOW) on the
simulated board's supply path."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from epdle.cli.errors import CommandError, number_in

if TYPE_CHECKING:
    from epdle.sim import Board

# A fresh CR2032 (hardware/power.md) and the module's input capacitance the design takes.
DEFAULT_CELL_VOLTS = 3.0
DEFAULT_CELL_OHMS = 15.0
MAX_PANEL_UF = 10.0
# hardware/power.md's goal: VDD this far above the floor in use at the panel's switch-on
# and through the refresh, with no brown-out.
MARGIN_GOAL_MV = 100.0
# A deliberate press holds the button this long; a tap is shorter.
DEFAULT_TAP_MS = 120.0
# The temperature the cell's resistance is given at (epdle.sim.power.cell_ohms_at).
REFERENCE_TEMPERATURE_C = 20.0


def register(sim_commands: argparse._SubParsersAction) -> None:
    """Add `sim power` to the `epdle sim` parser."""
    power = sim_commands.add_parser(
        "power",
        help="one update from sleep (a press or the host's SHOW) and what the supply path "
        "went through",
        description="Boot the simulated board, put the given coin cell and module in, start "
        "one update from sleep (the button pressed, or a host's SHOW, the host talking on "
        "through the refresh) and report, from the cell's change on, the "
        "lowest VDD at the panel's switch-on (U2's turn-on to the end of POWER_ON), during the "
        "refresh and with the brown-out reset armed, the brown-out trip level, the brown-out "
        "resets, whether the panel refreshed, whether the device reports a low battery (its "
        "INFO reply), and the charge drawn from the cell; and, at the switch-on and in the "
        "refresh, the floor in use (the highest brown-out trip of the range while the "
        "brown-out reset is armed, else the lowest VDD the CPU's clock allows, asleep too: "
        "it wakes at any moment) and how far above it VDD stayed, against the goal of "
        f"{MARGIN_GOAL_MV:.0f} mV; and how long the CPU ran below the lowest supply its "
        "clock allows (cpu_out_of_spec_ms).",
    )
    power.add_argument(
        "--trigger",
        choices=("press", "show"),
        default="press",
        help="what starts the update: the button (press), or the host's SHOW of frame 1, "
        "the host sending on every half second through the refresh (show); default press",
    )
    power.add_argument(
        "--tap-ms",
        type=number_in(1.0, 10_000.0),
        default=DEFAULT_TAP_MS,
        help=f"how long the button is held, ms (--trigger press; default {DEFAULT_TAP_MS:.0f})",
    )
    power.add_argument(
        "--temp-c",
        type=number_in(-20.0, 60.0),
        default=REFERENCE_TEMPERATURE_C,
        help="the cell's temperature, C: --cell-ohms is its resistance at 20 C, scaled by "
        f"the resistance-temperature table (-20 to 60; default {REFERENCE_TEMPERATURE_C:.0f})",
    )
    power.add_argument(
        "--cell-volts",
        type=number_in(0.0, 3.6, above=True),
        default=DEFAULT_CELL_VOLTS,
        help=f"open-circuit voltage of the cell (default {DEFAULT_CELL_VOLTS}: fresh CR2032)",
    )
    power.add_argument(
        "--cell-ohms",
        type=number_in(0.0, 1000.0, above=True),
        default=DEFAULT_CELL_OHMS,
        help=f"internal resistance of the cell (default {DEFAULT_CELL_OHMS:.0f}: fresh CR2032)",
    )
    power.add_argument(
        "--panel-uf",
        type=number_in(0.0, MAX_PANEL_UF),
        default=None,
        help="input capacitance of the panel module in uF, besides C3 "
        f"(0-{MAX_PANEL_UF:.0f}; default: the board's, {MAX_PANEL_UF:.0f})",
    )
    power.add_argument(
        "--reservoir-uf",
        type=number_in(0.0, 1000.0),
        default=None,
        help="reservoir at U2's VIN in uF as it acts at about 3 V of DC bias, besides C1 and "
        "C2 (default: the board's C4 and C5, 2 x 220 uF nominal, about 200 uF; 100 is one "
        "of them, 0 the design before them)",
    )
    power.add_argument(
        "--bor",
        choices=("min", "typ", "max"),
        default="typ",
        help="where in the configured brown-out range the chip trips (default typ)",
    )
    power.add_argument("--json", action="store_true", help="print the figures as JSON")
    power.set_defaults(func=run_power)


def _show_talking() -> tuple[Callable[[Board], None], Callable[[Board], None]]:
    """The host's SHOW of frame 0 as a trigger, and its talk through the refresh: an INFO
    every half second while the panel is powered, with the wake preamble (the device answers
    BUSY while it refreshes; what it sends is read and dropped here)."""
    from epdle.link.protocol import DELIMITER, WAKE_PREAMBLE_BYTES, Command, Packet

    preamble = bytes([DELIMITER]) * WAKE_PREAMBLE_BYTES
    seq = iter(range(1, 256))

    def send(board: Board, command: Command, payload: bytes = b"") -> None:
        board.uart_send(preamble)
        board.run_ms(5)
        board.uart_send(Packet(command, next(seq), payload).encode())

    def trigger(board: Board) -> None:
        send(board, Command.SHOW, bytes([0]))

    def talk(board: Board) -> None:
        board.uart_receive()
        if board.panel_powered:  # through the refresh, then quiet: the device may sleep
            send(board, Command.INFO)

    return trigger, talk


def run_power(args: argparse.Namespace) -> int:
    from epdle.link.device import Device, LinkError
    from epdle.sim import SimError, board_behind
    from epdle.sim.power import cell_ohms_at, press, update_from_sleep

    ohms = cell_ohms_at(args.cell_ohms, args.temp_c)
    try:
        with Device.open("sim://") as device:
            board = board_behind(device.serial)
            if board is None:
                raise CommandError("the simulated port has no board behind it")
            board.select_bor_trip(args.bor)
            during = None
            if args.trigger == "show":
                trigger, during = _show_talking()
            else:
                trigger = press(args.tap_ms)
            figures = update_from_sleep(
                board,
                trigger,
                args.cell_volts,
                ohms,
                args.reservoir_uf,
                args.panel_uf,
                during,
            )
            board.uart_receive()
            try:
                battery_low: bool | None = device.info().battery_low
            except LinkError:
                battery_low = None  # no answer: a chip in a reset loop reports nothing
            supply = board.supply()
            violations = board.violations()
    except (SimError, LinkError) as error:
        raise CommandError(f"simulated board: {error}") from None
    result: dict[str, Any] = {
        "cell_volts": args.cell_volts,
        "cell_ohms": args.cell_ohms,
        "cell_ohms_at_temp": ohms,
        "temp_c": args.temp_c,
        "trigger": args.trigger,
        "tap_ms": args.tap_ms if args.trigger == "press" else None,
        "panel_uf": supply["panel_uf"],
        "reservoir_uf": supply["reservoir_uf"],
        "bor": args.bor,
        **figures,
        "battery_low": bool(battery_low),
        "answered": battery_low is not None,
        "violations": violations,
    }
    result["margin_goal_mv"] = MARGIN_GOAL_MV
    result["goal_met"] = _goal_met(result)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(_text(result))
    return 0


def _volts(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f} V"


def _goal_met(result: dict[str, Any]) -> bool:
    margins = (result["margin_switch_on_mv"], result["margin_refresh_mv"])
    return (
        result["brownouts"] == 0
        and result["cpu_out_of_spec_ms"] == 0
        and bool(result["refreshed"])
        and all(margin is not None and margin >= MARGIN_GOAL_MV for margin in margins)
    )


def _margin(result: dict[str, Any], phase: str) -> str:
    floor = result[f"floor_{phase}_v"]
    margin = result[f"margin_{phase}_mv"]
    if floor is None or margin is None:
        return "-"
    what = (
        "highest brown-out trip, armed"
        if floor == result["bor_trip_max_v"]
        else "the CPU's clock minimum, brown-out reset off"
    )
    return f"{margin:.0f} mV above {floor:.3f} V ({what})"


def _text(result: dict[str, Any]) -> str:
    trigger = (
        f"the button held {result['tap_ms']:.0f} ms"
        if result["trigger"] == "press"
        else "the host's SHOW, the host talking through the refresh"
    )
    lines = [
        f"cell {result['cell_volts']:.2f} V, {result['cell_ohms']:.1f} ohm at 20 C "
        f"({result['cell_ohms_at_temp']:.1f} ohm at {result['temp_c']:.0f} C); module "
        f"{result['panel_uf']:.1f} uF; reservoir {result['reservoir_uf']:.0f} uF",
        f"update started by                      {trigger}",
        f"lowest VDD at the panel's switch-on   {_volts(result['min_vdd_switch_on'])}",
        f"lowest VDD during the refresh          {_volts(result['min_vdd_refresh'])}",
        f"lowest VDD with the brown-out armed    {_volts(result['min_vdd_bor_armed'])}",
        f"margin at the switch-on                {_margin(result, 'switch_on')}",
        f"margin during the refresh              {_margin(result, 'refresh')}",
        f"{'brown-out trip (' + result['bor'] + ')':<39}{_volts(result['bor_trip_v'])} "
        f"(highest of the range {_volts(result['bor_trip_max_v'])})",
        f"brown-out resets                       {result['brownouts']}",
        f"CPU below its clock's lowest VDD       {result['cpu_out_of_spec_ms']:.1f} ms",
        f"watchdog resets                        {result['watchdog_resets']}",
        f"panel refreshed                        {'yes' if result['refreshed'] else 'no'}",
        f"device reports a low battery           {'yes' if result['battery_low'] else 'no'}"
        + ("" if result["answered"] else " (the device does not answer)"),
        f"charge drawn from the cell             {result['charge_uc']:.0f} uC",
        f"{f'goal: refreshed, margins >= {MARGIN_GOAL_MV:.0f} mV':<39}"
        + ("met" if result["goal_met"] else "NOT met")
        + (" (the device refused: low battery)" if result["battery_low"] else ""),
    ]
    lines += [f"violation: {violation}" for violation in result["violations"]]
    return "\n".join(lines)
