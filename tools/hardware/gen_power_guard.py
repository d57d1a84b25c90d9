"""hardware/power.md's tables of the panel's switch-on and the guard, on today's firmware.

Two tables, each `epdle sim power --json` runs on the simulated board:
- the switch-on against the reservoir at U2's VIN (0-200 uF as it acts at about 3 V of
  bias) for a fresh and a half-used cell, a 120 ms press, the brown-out reset at the top
  of its range;
- the guard for the cells of the sag table (and one in the guard's gap), on both
  triggers (a 120 ms press; the host's SHOW with the host talking through the refresh):
  the lowest VDD at the switch-on, in the refresh and with the brown-out reset armed at
  its highest trip point, and the brown-outs, cuts with the pumps on and the time the CPU
  ran outside its specification at each trip point of BORV = LOW's range.

Usage: python tools/hardware/gen_power_guard.py [--write | --check]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from doc_table import DocTable  # beside this script
from sim_power_run import Result, cuts_with_pumps_on, power

REPO = Path(__file__).resolve().parents[2]
POWER_MD = REPO / "hardware" / "power.md"
SCRIPT = "tools/hardware/gen_power_guard.py"
SWITCH_ON = DocTable(
    POWER_MD,
    "<!-- switch-on table: python tools/hardware/gen_power_guard.py --write runs it on the"
    " simulated board -->",
    "<!-- end of switch-on table -->",
    SCRIPT,
)
GUARD = DocTable(
    POWER_MD,
    "<!-- guard table: python tools/hardware/gen_power_guard.py --write runs it on the"
    " simulated board -->",
    "<!-- end of guard table -->",
    SCRIPT,
)

RESERVOIRS_UF = (0, 47, 100, 150, 200)
SWITCH_ON_CELLS = ((3.0, 15.0), (2.9, 30.0))
GUARD_CELLS = (
    ("fresh", 3.0, 15.0),
    ("half-used", 2.9, 30.0),
    ("spent", 2.8, 50.0),
    ("weak", 2.7, 60.0),
    ("in the gap", 3.0, 65.0),
)
TRIGGERS = ("press", "show")
TRIPS = ("min", "typ", "max")


def volts(result: Result, key: str) -> str:
    value = result[key]
    return "-" if value is None else f"{float(str(value)):.3f}"


def with_margin(result: Result, key: str, margin: str) -> str:
    value = result[key]
    if value is None:
        return "-"
    return f"{volts(result, key)} ({float(str(result[margin])):.0f})"


def yes_no(value: object) -> str:
    return "yes" if value else "no"


def out_of_spec_ms(result: Result) -> str:
    return f"{float(str(result['cpu_out_of_spec_ms'])):g}"


def switch_on_table() -> str:
    lines = [
        "| reservoir | cell | switch-on (margin) | refresh (margin) | CPU running"
        " | brown-outs | refreshed | cpu_out_of_spec_ms |",
        "|---" * 8 + "|",
    ]
    for reservoir in RESERVOIRS_UF:
        for cell_v, cell_ohm in SWITCH_ON_CELLS:
            result = power(cell_v, cell_ohm, "--reservoir-uf", str(reservoir), "--bor", "max")
            row = [
                f"{reservoir} uF" if reservoir else "0",
                f"{cell_v:.1f} V, {cell_ohm:g} ohm",
                with_margin(result, "min_vdd_switch_on", "margin_switch_on_mv"),
                with_margin(result, "min_vdd_refresh", "margin_refresh_mv"),
                volts(result, "min_vdd_running"),
                str(result["brownouts"]),
                yes_no(result["refreshed"]),
                out_of_spec_ms(result),
            ]
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def guard_table() -> str:
    lines = [
        "| cell | trigger | lowest VDD: switch-on / refresh / BOR armed (max)"
        " | refreshed, low battery (max) | brown-outs (min / typ / max)"
        " | cut with the pumps on (min / typ / max) | cpu_out_of_spec_ms (min / typ / max) |",
        "|---" * 7 + "|",
    ]
    for name, cell_v, cell_ohm in GUARD_CELLS:
        for trigger in TRIGGERS:
            runs = [power(cell_v, cell_ohm, "--trigger", trigger, "--bor", t) for t in TRIPS]
            top = runs[-1]
            row = [
                f"{name}, {cell_v:.1f} V, {cell_ohm:g} ohm",
                trigger,
                " / ".join(
                    volts(top, k)
                    for k in ("min_vdd_switch_on", "min_vdd_refresh", "min_vdd_bor_armed")
                ),
                f"{yes_no(top['refreshed'])}, {yes_no(top['battery_low'])}",
                " / ".join(str(r["brownouts"]) for r in runs),
                " / ".join(str(cuts_with_pumps_on(r)) for r in runs),
                " / ".join(out_of_spec_ms(r) for r in runs),
            ]
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def filled(markdown: str) -> str:
    """power.md with both tables as the simulated board gives them now."""
    markdown = SWITCH_ON.filled(markdown, switch_on_table())
    return GUARD.filled(markdown, guard_table())


def run() -> int:
    """The command line: --write, --check or print both tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite the tables in power.md")
    mode.add_argument("--check", action="store_true", help="fail if power.md's are stale")
    args = parser.parse_args()
    if not (args.write or args.check):
        sys.stdout.write(switch_on_table() + "\n" + guard_table())
        return 0
    current = POWER_MD.read_text(encoding="utf-8")
    wanted = filled(current)
    if args.write:
        POWER_MD.write_text(wanted, encoding="utf-8")
    elif wanted != current:
        print(f"power.md's tables are stale: run python {SCRIPT} --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(run())
