"""hardware/power.md's table of the guard's gap: cells cut with the panel's pumps on.

The cells that pass the awake check but brown out under POWER_ON's load: the brown-out
reset cuts the panel's supply with its charge pumps on.

For each temperature (20 C, 0 C), trigger (a 120 ms press, the host's SHOW with the host
talking), brown-out trip point (the bottom, middle and top of BORV = LOW's range) and cell
voltage (2.9-3.3 V), `epdle sim power` is run on cells of 10-150 ohm (their resistance at
20 C; at 0 C the simulated board takes 1.8 times it) in 5 ohm steps, then each edge of the
run of cells whose panel supply was cut with the pumps on is found by bisection to 0.5 ohm.
Then the chosen cell (two AAA L92, firmware/sim/sim_battery.c's curve) is walked through
its life at both temperatures, every trigger and trip point: the share used where it last
refreshes, and whether any point cuts the panel with its pumps on.

Usage: python tools/hardware/gen_power_gap.py [--write | --check]
"""

from __future__ import annotations

import sys
from pathlib import Path

from doc_table import DocTable  # beside this script
from sim_power_run import Result, cuts_with_pumps_on
from sim_power_run import power as sim_power

from epdle.sim import Board

REPO = Path(__file__).resolve().parents[2]
TABLE = DocTable(
    REPO / "hardware" / "power.md",
    "<!-- power-gap table: python tools/hardware/gen_power_gap.py --write runs it on the"
    " simulated board -->",
    "<!-- end of power-gap table -->",
    "tools/hardware/gen_power_gap.py",
)

VOLTS = (2.9, 3.0, 3.1, 3.2, 3.3)
OHMS_LOW, OHMS_HIGH, OHMS_STEP = 10, 150, 5
EDGE_OHMS = 0.5
TEMPERATURES = (20, 0)
TRIGGERS = ("press", "show")
TRIPS = ("min", "typ", "max")
CHOSEN = "2xAAA lithium"
# The L92 pack's life: coarse through its flat middle, per mille through its end.
USED = tuple(i / 100 for i in range(0, 95, 5)) + tuple(0.95 + i / 1000 for i in range(51))


def power(volts: float, ohms: float, temp_c: int, trigger: str, trip: str) -> Result:
    """One `epdle sim power --json` run at `temp_c`, on `trigger`, at trip point `trip`."""
    return sim_power(volts, ohms, "--temp-c", str(temp_c), "--trigger", trigger, "--bor", trip)


def cut_with_pumps_on(result: Result) -> bool:
    return cuts_with_pumps_on(result) > 0


def edge(volts: float, temp_c: int, trigger: str, trip: str, inside: float, out: float) -> float:
    """The gap's edge between a cell `inside` it and one `out` of it, to EDGE_OHMS: the
    resistance of the gap's cell nearest the edge."""
    while abs(inside - out) > EDGE_OHMS:
        middle = (inside + out) / 2
        if cut_with_pumps_on(power(volts, middle, temp_c, trigger, trip)):
            inside = middle
        else:
            out = middle
    return inside


def gap(volts: float, temp_c: int, trigger: str, trip: str) -> str:
    """The gap at one voltage, 'low-high ohm' (resistance at 20 C), or '-'."""
    ohms = range(OHMS_LOW, OHMS_HIGH + 1, OHMS_STEP)
    cut = [cut_with_pumps_on(power(volts, r, temp_c, trigger, trip)) for r in ohms]
    if not any(cut):
        return "-"
    first = cut.index(True)
    last = len(cut) - 1 - cut[::-1].index(True)
    if not all(cut[first : last + 1]):
        raise SystemExit(f"{volts} V, {temp_c} C, {trigger}, {trip}: the gap is not one run")
    low = (
        float(ohms[first])
        if first == 0
        else edge(volts, temp_c, trigger, trip, ohms[first], ohms[first - 1])
    )
    if last == len(cut) - 1:
        return f"{low:.1f}-{OHMS_HIGH}+"
    high = edge(volts, temp_c, trigger, trip, ohms[last], ohms[last + 1])
    return f"{low:.1f}-{high:.1f}"


def gap_table() -> str:
    lines = [
        "| temperature, trigger, trip point | " + " | ".join(f"{v:.1f} V" for v in VOLTS) + " |",
        "|---" * (len(VOLTS) + 1) + "|",
    ]
    for temp_c in TEMPERATURES:
        for trigger in TRIGGERS:
            for trip in TRIPS:
                cells = [gap(v, temp_c, trigger, trip) for v in VOLTS]
                lines.append(f"| {temp_c} C, {trigger}, {trip} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def cell_at(used: float) -> tuple[float, float]:
    with Board() as board:
        board.set_cell(CHOSEN, used)
        supply = board.supply()
        return float(supply["cell_v"]), float(supply["cell_ohm"])


def chosen_cell_line() -> str:
    """The chosen cell's walk: where it last refreshes, where the guard refuses it, any cut."""
    lines = []
    for temp_c in TEMPERATURES:
        last_refresh: tuple[float, float, float] | None = None
        cuts = 0
        runs = 0
        for used in USED:
            volts, ohms = cell_at(used)
            for trigger in TRIGGERS:
                for trip in TRIPS:
                    result = power(volts, ohms, temp_c, trigger, trip)
                    runs += 1
                    cuts += cut_with_pumps_on(result)
                    if result["refreshed"] and not result["brownouts"]:
                        last_refresh = (used, volts, ohms)
        where = (
            "never refreshes"
            if last_refresh is None
            else f"refreshes up to {last_refresh[0] * 100:.1f} % used ({last_refresh[1]:.2f} V"
            f" open circuit, {last_refresh[2]:.2f} ohm at 20 C)"
        )
        lines.append(
            f"- two AAA L92 at {temp_c} C: {where}; cut with the pumps on in {cuts} of"
            f" {runs} runs ({len(USED)} points of its life x 2 triggers x 3 trip points)"
        )
    return "\n".join(lines) + "\n"


def tables() -> str:
    return gap_table() + "\n" + chosen_cell_line()


if __name__ == "__main__":
    sys.exit(TABLE.main(__doc__.splitlines()[0], tables))
