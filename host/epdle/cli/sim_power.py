"""CLI command `sim power`: one press from sleep on the simulated board's supply path."""

from __future__ import annotations

import argparse
import json
from typing import Any

from epdle.cli.errors import CommandError, number_in

# A fresh CR2032 (hardware/power.md) and the module's input capacitance the design takes.
DEFAULT_CELL_VOLTS = 3.0
DEFAULT_CELL_OHMS = 15.0
MAX_PANEL_UF = 10.0
# hardware/power.md's goal: VDD this far above the floor in use at the panel's switch-on
# and through the refresh, with no brown-out.
MARGIN_GOAL_MV = 100.0


def register(sim_commands: argparse._SubParsersAction) -> None:
    """Add `sim power` to the `epdle sim` parser."""
    power = sim_commands.add_parser(
        "power",
        help="press once from sleep and report what the supply path went through",
        description="Boot the simulated board, put the given coin cell and module in, press "
        "the button once (a refresh from sleep) and report, from the cell's change on, the "
        "lowest VDD at the panel's switch-on (U2's turn-on to the end of POWER_ON), during the "
        "refresh and with the brown-out reset armed, the brown-out trip level, the brown-out "
        "resets, whether the panel refreshed, whether the device reports a low battery (its "
        "INFO reply), and the charge drawn from the cell; and, at the switch-on and in the "
        "refresh, the floor in use (the highest brown-out trip of the range while the "
        "brown-out reset is armed, else the lowest VDD the CPU's clock allows, asleep too: "
        "it wakes at any moment) and how far above it VDD stayed, against the goal of "
        f"{MARGIN_GOAL_MV:.0f} mV.",
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


def run_power(args: argparse.Namespace) -> int:
    from epdle.link.device import Device, LinkError
    from epdle.sim import SimError, board_behind
    from epdle.sim.power import press_from_sleep

    try:
        with Device.open("sim://") as device:
            board = board_behind(device.serial)
            if board is None:
                raise CommandError("the simulated port has no board behind it")
            board.select_bor_trip(args.bor)
            press = press_from_sleep(
                board, args.cell_volts, args.cell_ohms, args.reservoir_uf, args.panel_uf
            )
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
        "panel_uf": supply["panel_uf"],
        "reservoir_uf": supply["reservoir_uf"],
        "bor": args.bor,
        **press,
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
    lines = [
        f"cell {result['cell_volts']:.2f} V, {result['cell_ohms']:.1f} ohm; module "
        f"{result['panel_uf']:.1f} uF; reservoir {result['reservoir_uf']:.0f} uF",
        f"lowest VDD at the panel's switch-on   {_volts(result['min_vdd_switch_on'])}",
        f"lowest VDD during the refresh          {_volts(result['min_vdd_refresh'])}",
        f"lowest VDD with the brown-out armed    {_volts(result['min_vdd_bor_armed'])}",
        f"margin at the switch-on                {_margin(result, 'switch_on')}",
        f"margin during the refresh              {_margin(result, 'refresh')}",
        f"{'brown-out trip (' + result['bor'] + ')':<39}{_volts(result['bor_trip_v'])} "
        f"(highest of the range {_volts(result['bor_trip_max_v'])})",
        f"brown-out resets                       {result['brownouts']}",
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
