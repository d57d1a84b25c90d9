"""CLI commands: `sim` - the simulated board (`sim selftest`; one function per subcommand)."""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from epdle.sim import Board, PowerReport

from epdle.cli import sim_power
from epdle.cli.errors import CommandError, int_in, number_in
from epdle.cli.paths import input_file, output_dir, output_file

# The panel controller's DISPLAY_REFRESH command (firmware/drivers/epd.c).
DISPLAY_REFRESH = 0x12
# The board's limits (hardware/power.md): button edge -> refresh command, standby current.
# The selftest shows the built-in frame; with the firmware's CPU work charged as SDCC's pic14
# code takes it on the chip (docs/pic-cycles.md) at 16 MHz (the clock the brown-out reset's
# range allows: firmware/hal/hal.h), the cell checked awake and under POWER_ON's load
# (firmware/drivers/supply.h), and the BOM module's UC8151D: tests/sim/test_board.py and
# docs/sim-fidelity.md give the figures.
MAX_BUTTON_TO_REFRESH_MS = 600.0
MAX_STANDBY_UA = 1.0
# No datasheet gives how long after a command the controller pulls BUSY low; GxEPD2 and
# Zephyr's uc81xx driver wait 1 ms before they look.
DEFAULT_BUSY_LATENCY_MS = 1.0
# Bounds on the simulated waits of the selftest (generous: a refresh alone is ~17 s).
BOOT_LIMIT_MS = 10_000.0
UPDATE_LIMIT_MS = 60_000.0


def register(commands: argparse._SubParsersAction) -> None:
    """Add this module's subcommands to the `epdle` parser."""
    sim = commands.add_parser(
        "sim",
        help="the simulated board (firmware C on a model of the PIC, panel and power)",
        description="Run the firmware on the simulated board.",
    )
    sim_commands = sim.add_subparsers(dest="sim_command", metavar="SUBCOMMAND", required=True)
    _register_selftest(sim_commands)
    _register_serve(sim_commands)
    sim_power.register(sim_commands)


def _register_selftest(sim_commands: argparse._SubParsersAction) -> None:
    selftest = sim_commands.add_parser(
        "selftest",
        help="boot, press the button three times, check the panel protocol and power",
        description="Boot the simulated board, show the built-in frames through button presses "
        "with sleeps between, and write DIR/trace.vcd, DIR/epd.jsonl, DIR/panel-<n>.png and "
        "DIR/power.json. Exits non-zero on any violation or failed check.",
    )
    selftest.add_argument("--out", required=True, help="output directory")
    selftest.add_argument(
        "--presses", type=int_in(1, 100), default=3, help="button presses (1-100, default 3)"
    )
    selftest.add_argument(
        "--sleep-ms",
        type=number_in(0, 3_600_000),
        default=10_000.0,
        help="simulated sleep after each update, in ms (default 10000)",
    )
    selftest.add_argument(
        "--busy-latency-ms",
        type=number_in(0, 5),
        default=DEFAULT_BUSY_LATENCY_MS,
        help="the panel pulls BUSY low this long after POWER_ON, POWER_OFF and "
        f"DISPLAY_REFRESH (0-5, default {DEFAULT_BUSY_LATENCY_MS:g})",
    )
    selftest.set_defaults(func=run_selftest)


def _register_serve(sim_commands: argparse._SubParsersAction) -> None:
    serve = sim_commands.add_parser(
        "serve",
        help="expose the simulated board on a pseudo-terminal (prints its path first)",
        description="Run the simulated board behind a pseudo-terminal so any serial program "
        "can talk to it (e.g. epdle info --port PATH). Prints the terminal's path on the "
        "first line, then logs what the device does on stderr; a line 'press' (or 'p') on "
        "stdin, or SIGUSR1, presses its button. Stops on Ctrl-C, SIGTERM or 'quit' on stdin. "
        "Refreshes run faster than real time, unless --real-time.",
    )
    serve.add_argument("--pty", action="store_true", required=True, help="serve on a pty")
    serve.add_argument(
        "--link",
        metavar="PATH",
        help="also make PATH a symbolic link to the terminal (a stable name; a PATH that "
        "exists is refused, never replaced; removed on exit)",
    )
    serve.add_argument("--png-dir", help="write panel-<n>.png here after each refresh")
    serve.add_argument("--vcd", help="write a VCD trace of the board's nets")
    serve.add_argument("--epd-log", help="write the panel transactions (JSON lines)")
    serve.add_argument("--flash-hex", help="preload program flash (Intel HEX, e.g. a frame set)")
    serve.add_argument(
        "--flash",
        metavar="FILE",
        help="keep the board's flash and EEPROM in FILE across restarts (created if missing; "
        "killing the server is then a power cut, not a new board)",
    )
    serve.add_argument(
        "--real-time",
        action="store_true",
        help="panel refreshes take their ~15 s of wall time, during which the device answers "
        "only that it is busy, as a real one (default: they run as fast as they can)",
    )
    serve.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    from epdle.sim.pty_server import LinkExistsError, MemoryFileError, serve_board_on_pty

    if args.png_dir is not None:
        output_dir(args.png_dir, "--png-dir")
    for option, path in (("--vcd", args.vcd), ("--epd-log", args.epd_log)):
        if path is not None:
            output_file(path, option)
    if args.flash_hex is not None:
        input_file(args.flash_hex, "--flash-hex file")
    if args.flash is not None:
        output_file(args.flash, "--flash")
    if args.link is not None:
        output_file(Path(args.link), "--link")
    try:
        return serve_board_on_pty(
            args.png_dir,
            args.vcd,
            args.epd_log,
            args.flash_hex,
            link_path=args.link,
            real_time=args.real_time,
            memory_path=args.flash,
        )
    except MemoryFileError as error:
        raise CommandError(f"--flash {error}") from None
    except LinkExistsError as error:
        raise CommandError(f"--link {error}") from None


def run_selftest(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from epdle.sim import Board, SimError

    console = Console()
    out = output_dir(args.out)
    for stale in out.glob("panel-*.png"):
        stale.unlink()

    started = time.perf_counter()
    try:
        board = Board(vcd_path=out / "trace.vcd", epd_log_path=out / "epd.jsonl", png_dir=out)
        board.set_busy_latency_ms(args.busy_latency_ms)
        result = _exercise_board(board, args.presses, args.sleep_ms)
    except SimError as error:
        raise CommandError(f"simulated board: {error}") from None
    wall_s = time.perf_counter() - started

    power = result.power
    report = {
        **power,
        "button_to_refresh_command_ms": result.latencies_ms,
        "busy_latency_ms": args.busy_latency_ms,
    }
    (out / "power.json").write_text(json.dumps(report, indent=2) + "\n")

    failures = list(result.failures)
    standby = power["standby_uA"]
    if standby is None or standby > MAX_STANDBY_UA:
        failures.append(f"standby current {standby} uA (limit {MAX_STANDBY_UA} uA)")
    slow = [ms for ms in result.latencies_ms if ms > MAX_BUTTON_TO_REFRESH_MS]
    if slow:
        failures.append(
            f"button edge -> refresh command took {max(slow):.1f} ms "
            f"(limit {MAX_BUTTON_TO_REFRESH_MS:.0f} ms)"
        )

    table = Table(title="epdle simulated board selftest", show_header=False)
    table.add_row("presses / refreshes", f"{args.presses} / {result.refreshes}")
    table.add_row("BUSY latency", f"{args.busy_latency_ms:g} ms")
    table.add_row(
        "button edge -> refresh command",
        ", ".join(f"{ms:.1f} ms" for ms in result.latencies_ms) or "-",
    )
    table.add_row("energy per update", _format(power["energy_per_update_mJ"], "mJ"))
    table.add_row("standby current", _format(standby, "uA", 3))
    table.add_row("simulated / wall time", f"{result.simulated_s:.1f} s / {wall_s:.2f} s")
    table.add_row("violations", str(len(result.violations)))
    table.add_row("output", str(out))
    console.print(table)
    for violation in result.violations:
        console.print(f"[red]violation:[/red] {violation}", highlight=False)
    for failure in failures:
        console.print(f"[red]failed:[/red] {failure}", highlight=False)
    problems = len(result.violations) + len(failures)
    if problems:
        raise CommandError(f"{problems} check(s) failed (listed above)")
    return 0


@dataclass(frozen=True)
class SelftestRun:
    failures: list[str]
    latencies_ms: list[float]  # button edge -> refresh command, per press
    refreshes: int
    violations: list[str]
    power: PowerReport
    simulated_s: float


def _exercise_board(board: Board, presses: int, sleep_ms: float) -> SelftestRun:
    """Boot, then press / wait for the update / sleep, `presses` times."""
    failures: list[str] = []
    latencies: list[float] = []
    with board:
        if not board.run_until(lambda b: b.asleep, BOOT_LIMIT_MS):
            failures.append(f"the board did not sleep within {BOOT_LIMIT_MS:.0f} ms of boot")
        for press in range(1, presses + 1):
            seen = len(board.epd_transactions())
            pressed_at = board.time_ms
            refreshes_before = board.refresh_count
            board.press_button()
            refresh_at = _wait_for_refresh_command(board, seen)
            if refresh_at is None:
                failures.append(f"press {press}: no refresh command")
            else:
                latencies.append(refresh_at - pressed_at)

            def update_done(b: Board, before: int = refreshes_before) -> bool:
                return b.refresh_count > before and b.asleep and not b.panel_powered

            updated = board.run_until(update_done, UPDATE_LIMIT_MS)
            if not updated:
                failures.append(f"press {press}: the update did not end with the board asleep")
            board.run_ms(sleep_ms)
        refreshes = board.refresh_count
        if refreshes != presses:
            failures.append(f"{presses} presses gave {refreshes} panel refreshes")
        return SelftestRun(
            failures=failures,
            latencies_ms=latencies,
            refreshes=refreshes,
            violations=board.violations(),
            power=board.power_report(),
            simulated_s=board.time_ms / 1000,
        )


def _wait_for_refresh_command(board: Board, seen: int) -> float | None:
    """Time (ms) of the first DISPLAY_REFRESH after the first `seen` transactions."""

    def refresh_sent(b: Board) -> bool:
        return any(t["cmd"] == DISPLAY_REFRESH for t in b.epd_transactions()[seen:])

    if not board.run_until(refresh_sent, UPDATE_LIMIT_MS):
        return None
    return next(t["t_ms"] for t in board.epd_transactions()[seen:] if t["cmd"] == DISPLAY_REFRESH)


def _format(value: float | None, unit: str, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f} {unit}"
