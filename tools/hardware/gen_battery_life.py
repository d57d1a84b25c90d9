"""hardware/power.md's battery-life tables, from games and hours run on the simulated board.

The cells compared (CR2032, CR2450, two AAA alkaline, two AAA lithium) are the simulated
board's (firmware/sim/sim_battery.c: each one's open-circuit voltage and internal
resistance against the share of its capacity used, from its makers' curves). For each:

- a game day: five sets of five suggestion frames pushed (as `epdle push` sends them), each
  pressed three times (1 full refresh + 2 fast updates), then standby to the day's end: the
  charge the cell delivered (the supply model's integrated current);
- where the device stops refreshing: the largest share of the capacity used at which a press
  still refreshes the panel (no refusal, no brown-out), found by bisection, each try a fresh
  board on that cell;
- the life: the capacity to that point over a year's game days, C4/C5's leakage and the
  cell's self-discharge, with the leakage typical and at its limit.

Then the hours of the pushed-set patterns (a set pushed, pressed 1, 5 or 10 times): their
charge with every press a full refresh and with the runner-ups fast. `--check` (run by
tests/hardware) fails while the committed tables differ from a new run.

Usage: python tools/hardware/gen_battery_life.py [--write | --check]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from doc_table import DocTable  # beside this script

from epdle.frames import encode_set
from epdle.frames.fast import mark_fast
from epdle.link import Device
from epdle.render.suggestions import render_suggestion
from epdle.sim import Board, board_behind
from epdle.solver.engine import Suggestion

REPO = Path(__file__).resolve().parents[2]
TABLE = DocTable(
    REPO / "hardware" / "power.md",
    "<!-- battery-life table: python tools/hardware/gen_battery_life.py --write runs it on the"
    " simulated board -->",
    "<!-- end of battery-life table -->",
    "tools/hardware/gen_battery_life.py",
)

# The cell the design uses (hardware/bom.md's BT1), and the goal it is held to: a game a day
# for five years at 20 C.
CHOSEN = "2xAAA lithium"
GOAL_YEARS = 5.0
CELL_NAMES = {
    "CR2032": "CR2032",
    "CR2450": "CR2450",
    "2xAAA alkaline": "2 x AAA alkaline (E92)",
    "2xAAA lithium": "2 x AAA lithium (L92)",
}
# C4 and C5 (GRM32ER60J227ME05L, 220 uF): the limit is their minimum insulation resistance,
# 100 MOhm x uF, i.e. 0.45 MOhm a part; Murata publishes no typical figure, and parts
# measure one to two orders of magnitude above the minimum: counted at ten times it.
LEAK_LIMIT_OHM = 100e6 / 220.0
LEAK_TYPICAL_OHM = 10.0 * LEAK_LIMIT_OHM
PARTS = 2

HOURS_PER_YEAR = 24 * 365.25
DAY_MS = 24 * 3_600_000.0
HOUR_MS = 3_600_000.0
STEP_LIMIT_MS = 60_000.0
BISECTIONS = 10
# A game: five sets pushed, each pressed three times (the first press a full refresh, the
# runner-ups fast): 5 full + 10 fast.
GAME_SETS = 5
PRESSES_PER_SET = 3
# The presses an hour of each pushed-set pattern: one, a set pressed through once, and twice.
PRESSES = (1, 5, 10)
# A game after two guesses, its five suggestions (tests/sim/test_fast_updates.py's set).
HISTORY = [("salet", "bbybb"), ("crony", "bgybb")]
WORDS = ["vivid", "jazzy", "dumpy", "bough", "fight"]


@dataclass(frozen=True)
class Run:
    """Presses run on the simulated board: the refreshes' kinds and the cell's charge."""

    kinds: tuple[str, ...]
    charge_mc: float

    @property
    def refreshes(self) -> str:
        full, fast = self.kinds.count("full"), self.kinds.count("fast")
        return f"{full} full" + (f" + {fast} fast" if fast else "")


@dataclass(frozen=True)
class Life:
    """One cell: where the device stops on it, a game day's charge, and the years."""

    cell: str
    rating: dict[str, float]
    stop_used: float  # share of the rated capacity used where a press no longer refreshes
    stop_volts: float  # the cell's open-circuit voltage there
    stop_ohms: float
    day: Run
    mean_volts: float  # the open-circuit voltage halfway to the stop (for C4/C5's leakage)

    def leak_ua(self, ohms: float) -> float:
        return PARTS * self.mean_volts / ohms * 1e6

    def years(self, leak_ohm: float) -> float:
        usable_mah = self.stop_used * self.rating["capacity_mah"]
        per_year_mah = (
            self.day.charge_mc / 3600 * 365.25
            + self.leak_ua(leak_ohm) * 1e-3 * HOURS_PER_YEAR
            + self.rating["self_discharge_per_year"] * self.rating["capacity_mah"]
        )
        return usable_mah / per_year_mah


def suggestion_frames(fast: bool) -> list[bytes]:
    planes = [
        render_suggestion(HISTORY, Suggestion(word, 3.0, 5.0, rank % 2 == 1), rank, 5, 23)
        for rank, word in enumerate(WORDS, start=1)
    ]
    return mark_fast(encode_set(planes), allow=fast)


def idle(board: Board) -> bool:
    return board.asleep and not board.panel_powered


def refreshed_after(count: int) -> Callable[[Board], bool]:
    return lambda board: board.refresh_count > count


def press_through(board: Board, presses: int) -> list[str]:
    """Presses, each once the device sleeps again: the kinds of the refreshes they made."""
    kinds = []
    for _ in range(presses):
        refreshes = board.refresh_count
        if not board.run_until(idle, STEP_LIMIT_MS):
            raise SystemExit("the simulated board did not go to sleep between presses")
        board.press_button()
        if not board.run_until(refreshed_after(refreshes), STEP_LIMIT_MS):
            raise SystemExit("a press did not refresh the simulated panel")
        kinds.append(board.last_refresh().kind)
    return kinds


def run(sets: int, presses: int, fast: bool, length_ms: float, cell: str | None = None) -> Run:
    """Boot (on `cell` a tenth used, or the fresh default cell), wait until asleep, then
    `sets` sets pushed and pressed `presses` times each; the cell's charge over
    `length_ms` from the first push."""
    frames = suggestion_frames(fast)
    with Device.open("sim://", timeout=0.5, retries=4) as device:
        board = board_behind(device.serial)
        assert board is not None
        if cell is not None:
            board.set_cell(cell, 0.1)
        if not board.run_until(idle, STEP_LIMIT_MS):
            raise SystemExit("the simulated board never went to sleep after its boot")
        started_ms = board.time_ms
        board.supply_report_start()
        kinds = []
        for _ in range(sets):
            device.push(frames)
            kinds += press_through(board, presses)
        board.run_ms(started_ms + length_ms - board.time_ms)
        if board.violations():
            raise SystemExit(f"the simulated board saw a violation: {board.violations()[0]}")
        return Run(tuple(kinds), board.supply_report()["charge_uc"] / 1e3)


def one_hour(presses: int, fast: bool) -> Run:
    return run(1, presses, fast, HOUR_MS)


def refreshes_at(cell: str, used: float) -> bool:
    """A fresh board on `cell` with `used` of it used: does a press refresh the panel?"""
    with Board() as board:
        board.set_cell(cell, used)
        if not board.run_until(idle, STEP_LIMIT_MS):
            return False
        refreshes = board.refresh_count
        board.press_button()
        board.run_until(refreshed_after(refreshes), STEP_LIMIT_MS)
        return board.refresh_count > refreshes and board.supply_report()["brownouts"] == 0


def cell_state(cell: str, used: float) -> tuple[float, float]:
    with Board() as board:
        board.set_cell(cell, used)
        supply = board.supply()
        return supply["cell_v"], supply["cell_ohm"]


def life(cell: str) -> Life:
    low, high = 0.0, 1.0
    if not refreshes_at(cell, low):
        raise SystemExit(f"a fresh {cell} does not refresh the simulated panel")
    for _ in range(BISECTIONS):
        middle = (low + high) / 2
        low, high = (middle, high) if refreshes_at(cell, middle) else (low, middle)
    with Board() as board:
        rating = board.cell_rating(cell)
    volts, ohms = cell_state(cell, low)
    return Life(
        cell=cell,
        rating=rating,
        stop_used=low,
        stop_volts=volts,
        stop_ohms=ohms,
        day=run(GAME_SETS, PRESSES_PER_SET, True, DAY_MS, cell),
        mean_volts=cell_state(cell, low / 2)[0],
    )


def cell_table() -> str:
    lines = [
        "| cell | rated capacity; makers' continuous / pulse limit | stops refreshing at"
        " (used, open circuit, resistance) | capacity to there | a game day (5 full + 10 fast,"
        " standby): refreshes, charge | self-discharge | life, C4/C5 typical leakage |"
        " life, C4/C5 at their limit |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for cell in CELL_NAMES:
        found = life(cell)
        rating = found.rating
        typical, limit = LEAK_TYPICAL_OHM, LEAK_LIMIT_OHM
        limits = (
            f"{rating['continuous_ma']:g} / {rating['pulse_ma']:g} mA"
            if rating["continuous_ma"]
            else "none taken from a data sheet"
        )
        lines.append(
            f"| {CELL_NAMES[cell]} | {rating['capacity_mah']:.0f} mAh; {limits} |"
            f" {found.stop_used * 100:.0f} %, {found.stop_volts:.2f} V, {found.stop_ohms:.1f} ohm |"
            f" {found.stop_used * rating['capacity_mah']:.0f} mAh |"
            f" {found.day.refreshes}, {found.day.charge_mc:.0f} mC |"
            f" {rating['self_discharge_per_year'] * 100:g} % a year |"
            f" {found.years(typical):.1f} years ({found.leak_ua(typical):.1f} uA) |"
            f" {found.years(limit):.1f} years ({found.leak_ua(limit):.1f} uA) |"
        )
    return "\n".join(lines) + "\n"


def hour_table() -> str:
    lines = [
        "| an hour: a set of 5 pushed, then | before (`--full-refresh`) | cell charge |"
        " after (runner-ups fast) | cell charge |",
        "|---|---|---|---|---|",
    ]
    for presses in PRESSES:
        before, after = one_hour(presses, fast=False), one_hour(presses, fast=True)
        lines.append(
            f"| {presses} {'press' if presses == 1 else 'presses'} | {before.refreshes} |"
            f" {before.charge_mc:.1f} mC | {after.refreshes} | {after.charge_mc:.1f} mC |"
        )
    return "\n".join(lines) + "\n"


def tables() -> str:
    return cell_table() + "\n" + hour_table()


if __name__ == "__main__":
    sys.exit(TABLE.main(__doc__.splitlines()[0], tables))
