"""hardware/power.md's battery-life table, from hours of use run on the simulated board.

Each hour of a pattern: a new set of five suggestion frames is pushed (as `epdle push`
sends it, with or without `--full-refresh`), the button pressed a number of times, each
press once the device is asleep again, then the board sleeps out the hour. The charge the
coin cell delivered in that hour (the supply model's integrated cell current: the push,
every press, and standby) gives the life of a CR2032 at that pattern. "Before" pushes every
set with `--full-refresh` (every press a full three-colour refresh); "after" lets the device
update the runner-ups fast. `--check` (run by tests/sim) fails while the committed table
differs from a new run.

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

# CR2032: 225 mAh to 2.0 V (hardware/power.md).
CELL_COULOMBS = 225e-3 * 3600
HOURS_PER_YEAR = 24 * 365.25
HOUR_MS = 3_600_000.0
STEP_LIMIT_MS = 60_000.0
# The presses an hour of each pattern: one (the page's basis), a set pressed through once,
# and twice.
PRESSES = (1, 5, 10)
# A game after two guesses, its five suggestions (tests/sim/test_fast_updates.py's set).
HISTORY = [("salet", "bbybb"), ("crony", "bgybb")]
WORDS = ["vivid", "jazzy", "dumpy", "bough", "fight"]


@dataclass(frozen=True)
class Hour:
    """One simulated hour: the refreshes' kinds, and the charge the cell delivered."""

    kinds: tuple[str, ...]
    charge_mc: float

    @property
    def years(self) -> float:
        return CELL_COULOMBS / (self.charge_mc / 1e3) / HOURS_PER_YEAR

    @property
    def refreshes(self) -> str:
        full, fast = self.kinds.count("full"), self.kinds.count("fast")
        return f"{full} full" + (f" + {fast} fast" if fast else "")


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


def one_hour(presses: int, fast: bool) -> Hour:
    """Boot, wait until asleep, then one hour of the pattern: its charge from the cell."""
    frames = suggestion_frames(fast)
    with Device.open("sim://", timeout=0.5, retries=4) as device:
        board = board_behind(device.serial)
        assert board is not None
        if not board.run_until(idle, STEP_LIMIT_MS):
            raise SystemExit("the simulated board never went to sleep after its boot")
        started_ms = board.time_ms
        board.supply_report_start()
        device.push(frames)
        kinds = []
        for _ in range(presses):
            refreshes = board.refresh_count
            if not board.run_until(idle, STEP_LIMIT_MS):
                raise SystemExit("the simulated board did not go to sleep between presses")
            board.press_button()
            if not board.run_until(refreshed_after(refreshes), STEP_LIMIT_MS):
                raise SystemExit("a press did not refresh the simulated panel")
            kinds.append(board.last_refresh().kind)
        board.run_ms(started_ms + HOUR_MS - board.time_ms)
        if board.violations():
            raise SystemExit(f"the simulated board saw a violation: {board.violations()[0]}")
        return Hour(tuple(kinds), board.supply_report()["charge_uc"] / 1e3)


def table() -> str:
    lines = [
        "| an hour: a set of 5 pushed, then | before (`--full-refresh`) | cell charge |"
        " CR2032 life | after (runner-ups fast) | cell charge | CR2032 life |",
        "|---|---|---|---|---|---|---|",
    ]
    for presses in PRESSES:
        before, after = one_hour(presses, fast=False), one_hour(presses, fast=True)
        lines.append(
            f"| {presses} {'press' if presses == 1 else 'presses'} | {before.refreshes} |"
            f" {before.charge_mc:.1f} mC | {before.years:.2f} years | {after.refreshes} |"
            f" {after.charge_mc:.1f} mC | {after.years:.2f} years |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(TABLE.main(__doc__.splitlines()[0], table))
