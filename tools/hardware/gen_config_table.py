"""The configuration-word table of hardware/flashing.md, from the firmware's `#pragma config` lines.

firmware/ports/pic16f18326/main.c sets the PIC16F18326's configuration words; the table a
builder reads is made from those lines, setting by setting in their order, with what each
value means on this chip (DS40001839, configuration words). A value with no meaning below
stops the tool: describe it here first. `--check` (run by tests/hardware) fails while the
committed table differs from main.c.

Usage: python tools/hardware/gen_config_table.py [--write | --check]
"""

from __future__ import annotations

import re
from pathlib import Path

from doc_table import DocTable  # beside this script

REPO = Path(__file__).resolve().parents[2]
MAIN_C = REPO / "firmware" / "ports" / "pic16f18326" / "main.c"
TABLE = DocTable(
    REPO / "hardware" / "flashing.md",
    "<!-- config table: python tools/hardware/gen_config_table.py --write makes it from main.c's"
    " #pragma config lines -->",
    "<!-- end of config table -->",
    "tools/hardware/gen_config_table.py",
)

MEANINGS: dict[str, dict[str, str]] = {
    "FEXTOSC": {
        "OFF": "no external oscillator or crystal",
        "LP": "external 32 kHz crystal",
        "XT": "external crystal up to 4 MHz",
        "HS": "external crystal above 4 MHz",
        "ECL": "external clock below 500 kHz",
        "ECM": "external clock 500 kHz-8 MHz",
        "ECH": "external clock above 8 MHz",
    },
    "RSTOSC": {
        "HFINT32": "after reset the core runs from HFINTOSC with the 2x PLL: 32 MHz",
        "HFINT1": "after reset the core runs from HFINTOSC at 1 MHz",
        "LFINT": "after reset the core runs from the 31 kHz LFINTOSC",
        "SOSC": "after reset the core runs from the secondary (32 kHz) oscillator",
        "EXT1X": "after reset the core runs from the external oscillator",
        "EXT4X": "after reset the core runs from the external oscillator with the 4x PLL",
    },
    "CLKOUTEN": {"OFF": "no clock out on a pin", "ON": "Fosc/4 out on the CLKOUT pin"},
    "CSWEN": {
        "ON": "firmware may change the clock source/divider",
        "OFF": "the clock source and divider are fixed at reset",
    },
    "FCMEN": {
        "OFF": "no fail-safe clock monitor (no external clock to watch)",
        "ON": "fail-safe clock monitor: falls back to the internal oscillator",
    },
    "MCLRE": {
        "ON": "RA3 is the reset input (needed by the programmer; R1 holds it high)",
        "OFF": "RA3 is an input pin; reset only from power-on, brown-out or software",
    },
    "PWRTE": {
        "ON": "power-up timer: a fixed delay after power-on lets the supply settle before"
        " the code starts",
        "OFF": "no power-up timer: the code starts as soon as power-on reset releases",
    },
    "WDTE": {
        "OFF": "no watchdog",
        "SWDTEN": "watchdog under the firmware's control (SWDTEN): awake it resets a hung"
        " loop (64 s, cleared every pass of the main loop), in a sleep through a panel"
        " refresh it bounds the sleep (32 ms), off in the standby sleep",
        "SLEEP": "watchdog on while awake, off in sleep",
        "ON": "watchdog always on, awake and asleep",
    },
    "LPBOREN": {
        "OFF": "no low-power brown-out reset",
        "ON": "low-power brown-out reset (a coarse trip point, also in sleep)",
    },
    "BOREN": {
        "SLEEP": "brown-out reset while running, off in sleep (draws nothing in standby)",
        "ON": "brown-out reset always on, in sleep too (draws its current in standby)",
        "SBOREN": "brown-out reset under the firmware's control (SBOREN): armed awake with"
        " the panel off, off in sleep (draws nothing in standby) and through an update,"
        " which the firmware guards by measuring VDD (`hardware/power.md`)",
        "OFF": "no brown-out reset",
    },
    "BORV": {
        "HIGH": "the higher brown-out trip point: 2.55-2.85 V, 2.70 V typical (VBOR, RST06)",
        "LOW": "the lower brown-out trip point: 2.30 V at least (VBOR, RST06)",
    },
    "PPS1WAY": {
        "OFF": "pin routing (UART on RA1/RC1) may be set more than once",
        "ON": "pin routing can be set once after reset, then locks",
    },
    "STVREN": {
        "ON": "a stack overflow or underflow resets the chip",
        "OFF": "a stack overflow or underflow only sets a flag",
    },
    "DEBUG": {"OFF": "no in-circuit debugger", "ON": "in-circuit debugger enabled"},
    "WRT": {
        "OFF": "flash not write-protected",
        "BOOT": "self-write cannot change 0x0000-0x01FF",
        "HALF": "self-write cannot change 0x0000-0x1FFF (most of the firmware); the frame"
        " store above it stays writable",
        "ALL": "self-write cannot change any flash (no frame store at run time)",
    },
    "LVP": {
        "ON": "low-voltage programming entry enabled (MCLR stays the reset pin); the MPLAB"
        " Snap needs it",
        "OFF": "only high-voltage programming entry (VPP on MCLR)",
    },
    "CP": {
        "OFF": "program memory readable (a programmer can verify and read it back)",
        "ON": "program memory read-protected",
    },
    "CPD": {"OFF": "data EEPROM readable", "ON": "data EEPROM read-protected"},
}


def settings(source: str) -> list[tuple[str, str]]:
    """(setting, value) of every `#pragma config` line, in order."""
    found: list[tuple[str, str]] = []
    for line in re.findall(r"^\s*#pragma\s+config\s+(.+)$", source, re.M):
        found += re.findall(r"(\w+)\s*=\s*(\w+)", line.split("//")[0].split("/*")[0])
    return found


def table(source: str) -> str:
    rows = ["| setting | value | meaning |", "|---|---|---|"]
    for name, value in settings(source):
        meaning = MEANINGS.get(name, {}).get(value)
        if meaning is None:
            raise SystemExit(
                f"gen_config_table: no meaning for {name} = {value}: add it to"
                " MEANINGS in tools/hardware/gen_config_table.py"
            )
        rows.append(f"| {name} | {value} | {meaning} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    raise SystemExit(
        TABLE.main(__doc__.splitlines()[0], lambda: table(MAIN_C.read_text(encoding="utf-8")))
    )
