"""`Board`: the firmware's C, compiled for the host, on a model of the board.

`Board` loads libepdle_sim.so through ctypes, boots the firmware at t = 0 and
drives its virtual clock: the firmware runs only inside `run_ms` and friends,
so a 15 s panel refresh costs milliseconds of wall time.

The library's firmware globals are the chip's RAM, so there is one board per process
at a time; a new Board may be created once the last one is closed.
"""

from __future__ import annotations

import ctypes
import json
import os
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from epdle.panel import PLANE_BYTES, Planes
from epdle.sim.library import (
    LOG_DATA_BYTES,
    CellRating,
    PowerStats,
    RefreshInfo,
    SimError,
    Supply,
    SupplyReport,
    Transaction,
    load_library,
)
from epdle.sim.power import PowerReport, SupplyFigures, power_report

if TYPE_CHECKING:
    from PIL import Image

FLASH_WORDS = 16384
FLASH_ROW_WORDS = 32
FLASH_ROWS = FLASH_WORDS // FLASH_ROW_WORDS
EEPROM_BYTES = 256
NETS = (
    "EPD_SCL",
    "EPD_SDA",
    "EPD_CS",
    "EPD_DC",
    "EPD_RST",
    "EPD_BUSY",
    "EPD_VCC",
    "BUTTON",
    "UART_TX",
    "UART_RX",
)

NS_PER_MS = 1_000_000
# run_until() checks its predicate this often (simulated).
PREDICATE_STEP_MS = 1.0
# Contact bounce of a tactile switch: (ms after the edge, level) on press and on release.
PRESS_BOUNCE = ((0.3, 1), (0.7, 0), (1.5, 1), (2.1, 0))
RELEASE_BOUNCE = ((0.4, 0), (0.9, 1))

BOR_TRIPS = ("min", "typ", "max")
# The cells of sim_cell_t, in its order (hardware/power.md, "The cell by numbers").
CELLS = ("CR2032", "CR2450", "2xAAA alkaline", "2xAAA lithium")
# What is on J1 (sim_adapter_t, in its order).
ADAPTERS = ("powered", "unpowered", "none")

_STOP_DEADLINE = 0
_STOP_REFRESH_DONE = 1
_STOP_BYTE_LANDED = 3
_NET_VCC = NETS.index("EPD_VCC")


class EpdTransaction(TypedDict):
    """One transaction the panel controller decoded from the pins."""

    t_ms: float
    cmd: int
    len: int
    data: str  # hex of the first (at most 16) data bytes
    crc32: int  # CRC-32 (zlib.crc32) of all its data bytes


_open_board: weakref.ref[Board] | None = None


@dataclass(frozen=True)
class Refresh:
    """The panel's last refresh: full (the OTP waveform) or fast (a black/white waveform
    from the LUT registers), how long BUSY was charged for it, whether its waveform is
    DC-balanced, and the largest ghost count (fast updates that drove a pixel since its
    last full refresh). What the controller cannot know, counted by the panel model: the
    RAM bytes the refresh used that were lost (supply cut or deep sleep) and not written
    again, and the pixels a fast update drove from an OLD value (DTM1) other than their
    glass, by this refresh and by every refresh since boot."""

    count: int
    fast: bool
    seconds: float
    frames: int
    dc_balanced: bool
    ghost_max: int
    ram_unknown: int
    wrong_pixels: int
    wrong_pixels_total: int

    @property
    def kind(self) -> str:
        return "fast" if self.fast else "full"


class Board:
    """The simulated epdle board, booted at t = 0 (the firmware runs once time is advanced)."""

    def __init__(
        self,
        vcd_path: str | os.PathLike[str] | None = None,
        epd_log_path: str | os.PathLike[str] | None = None,
        png_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        global _open_board
        if _open_board is not None and _open_board() is not None:
            raise SimError("a simulated Board is already open in this process: close() it first")
        self._lib = load_library()
        self._closed = True
        self._epd_log_path = Path(epd_log_path) if epd_log_path is not None else None
        self._png_dir = Path(png_dir) if png_dir is not None else None
        if self._png_dir is not None:
            self._png_dir.mkdir(parents=True, exist_ok=True)
        vcd = os.fsencode(vcd_path) if vcd_path is not None else None
        if self._lib.sim_boot(vcd) != 0:
            raise SimError(f"cannot boot the simulated board (VCD file {vcd_path!s} not writable?)")
        self._closed = False
        _open_board = weakref.ref(self)

    # ---- lifetime -------------------------------------------------------------

    def close(self) -> None:
        """Write the transaction log (if asked for) and tear the board down."""
        global _open_board
        if self._closed:
            return
        if self._epd_log_path is not None:
            with self._epd_log_path.open("w") as log:
                for entry in self.epd_transactions():
                    log.write(json.dumps(entry) + "\n")
        self._lib.sim_shutdown()
        self._closed = True
        _open_board = None

    def __enter__(self) -> Board:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if not getattr(self, "_closed", True):
            self.close()

    def _live(self) -> ctypes.PyDLL:
        if self._closed:
            raise SimError("the simulated board is closed")
        return self._lib

    # ---- time -----------------------------------------------------------------

    @property
    def time_ms(self) -> float:
        return int(self._live().sim_time_ns()) / NS_PER_MS

    def run_ms(self, ms: float) -> None:
        """Let `ms` of simulated time pass (panel PNGs are written as refreshes finish)."""
        if ms < 0:
            raise ValueError(f"cannot run for a negative time ({ms} ms)")
        lib = self._live()
        target = lib.sim_time_ns() + round(ms * NS_PER_MS)
        while True:
            stop = lib.sim_run_until(target)
            if stop == _STOP_DEADLINE:
                return
            if stop == _STOP_REFRESH_DONE:
                self._save_panel_png()

    def run_until(self, predicate: Callable[[Board], bool], max_ms: float) -> bool:
        """Run until predicate(board) holds (checked every simulated ms); False on timeout."""
        end_ms = self.time_ms + max_ms
        while not predicate(self):
            remaining = end_ms - self.time_ms
            if remaining <= 0:
                return False
            self.run_ms(min(PREDICATE_STEP_MS, remaining))
        return True

    # ---- inputs ----------------------------------------------------------------

    def press_button(self, hold_ms: float = 120, bounce: bool = True) -> None:
        """Press now (with contact bounce), release after hold_ms (bouncing again)."""
        if hold_ms <= 0:
            raise ValueError(f"hold_ms must be positive, got {hold_ms}")
        lib = self._live()
        start = lib.sim_time_ns()
        press = [(0.0, 0)]
        release = [(hold_ms, 1)]
        if bounce and hold_ms > PRESS_BOUNCE[-1][0]:
            press += list(PRESS_BOUNCE)
            release += [(hold_ms + offset, level) for offset, level in RELEASE_BOUNCE]
        for offset_ms, level in press + release:
            if lib.sim_button_schedule(start + round(offset_ms * NS_PER_MS), level) != 0:
                raise SimError("too many button edges pending: run the board before pressing more")

    def uart_send(self, data: bytes) -> None:
        """Queue bytes on the board's RX line, back to back at 115200 8N1."""
        data = bytes(data)
        self._live().sim_uart_send(data, len(data))

    def uart_byte_at_hal_call(self, call: int, byte: int) -> None:
        """A received byte completes just as the firmware enters HAL call number `call`
        (counted as `hal_calls`), its start bit unseen: the interrupt runs right there if
        it is enabled. This tries a race between any two HAL calls, where `uart_send`
        can only land bytes where simulated time passes."""
        if not 0 < call < 2**32 or not 0 <= byte <= 0xFF:
            raise ValueError(f"call must be 1..2**32-1 and byte 0..255, got {call}, {byte}")
        self._live().sim_uart_byte_at_hal_call(call, byte)

    def run_until_byte_landed(self, max_ms: float) -> bool:
        """Run until the byte of `uart_byte_at_hal_call` has landed; False on timeout."""
        lib = self._live()
        target = lib.sim_time_ns() + round(max_ms * NS_PER_MS)
        while True:
            stop = lib.sim_run_until(target)
            if stop == _STOP_BYTE_LANDED:
                return True
            if stop == _STOP_DEADLINE:
                return False
            if stop == _STOP_REFRESH_DONE:
                self._save_panel_png()

    @property
    def hal_calls(self) -> int:
        """HAL calls the firmware has entered since boot."""
        return int(self._live().sim_hal_call_count())

    def uart_receive(self) -> bytes:
        """Bytes the device finished sending since the last call."""
        lib = self._live()
        chunks = []
        buffer = ctypes.create_string_buffer(4096)
        while taken := lib.sim_uart_take(buffer, len(buffer)):
            chunks.append(buffer.raw[:taken])
        return b"".join(chunks)

    # ---- state ------------------------------------------------------------------

    @property
    def asleep(self) -> bool:
        return bool(self._live().sim_asleep())

    @property
    def powered(self) -> bool:
        return bool(self._live().sim_powered())

    @property
    def panel_powered(self) -> bool:
        return bool(self._live().sim_net_level(_NET_VCC) == 1)

    def net_level(self, name: str) -> int:
        """Present level (0/1) of one of NETS."""
        if name not in NETS:
            raise ValueError(f"unknown net {name!r}; nets: {', '.join(NETS)}")
        return int(self._live().sim_net_level(NETS.index(name)))

    def set_busy_latency_ms(self, ms: float) -> None:
        """The panel pulls BUSY low this long after a command that makes it busy."""
        self._live().sim_panel_set_busy_latency_ns(round(ms * NS_PER_MS))

    @property
    def refresh_count(self) -> int:
        return int(self._live().sim_refresh_count())

    def last_refresh(self) -> Refresh:
        info = RefreshInfo()
        self._live().sim_refresh_info(ctypes.byref(info))
        return Refresh(
            count=int(info.count),
            fast=bool(info.fast),
            seconds=info.duration_ns / 1e9,
            frames=int(info.frames),
            dc_balanced=bool(info.dc_balanced),
            ghost_max=int(info.ghost_max),
            ram_unknown=int(info.ram_unknown),
            wrong_pixels=int(info.wrong_pixels),
            wrong_pixels_total=int(info.wrong_pixels_total),
        )

    def panel_planes(self) -> tuple[bytes, bytes]:
        """What the panel shows (after its last refresh): native (black, red) planes."""
        black = ctypes.create_string_buffer(PLANE_BYTES)
        red = ctypes.create_string_buffer(PLANE_BYTES)
        self._live().sim_panel_shown(black, red)
        return black.raw, red.raw

    def panel_image(self) -> Image.Image:
        """What the panel shows, landscape 212 x 104 in panel colours."""
        black, red = self.panel_planes()
        from epdle.render.planes import planes_to_image

        return planes_to_image(Planes(black=black, red=red))

    def violations(self) -> list[str]:
        lib = self._live()
        return [lib.sim_violation_text(i).decode() for i in range(lib.sim_violation_count())]

    def epd_transactions(self) -> list[EpdTransaction]:
        """Decoded controller transactions: t_ms, cmd, len, data (hex of the first <= 16),
        crc32 (of all its data)."""
        lib = self._live()
        entry = Transaction()
        entries: list[EpdTransaction] = []
        for index in range(lib.sim_epd_transaction_count()):
            lib.sim_epd_transaction(index, ctypes.byref(entry))
            shown = min(entry.len, LOG_DATA_BYTES)
            entries.append(
                EpdTransaction(
                    t_ms=entry.t_ns / NS_PER_MS,
                    cmd=int(entry.cmd),
                    len=int(entry.len),
                    data=bytes(entry.data[:shown]).hex(),
                    crc32=int(entry.crc32),
                )
            )
        return entries

    # ---- power and non-volatile memory --------------------------------------------

    def schedule_power_cut(
        self, after_nvm_ops: int, words_done: int = FLASH_ROW_WORDS // 2, partial_bits: int = 0
    ) -> None:
        """Cut the supply during the Nth flash/EEPROM write or erase from now; 0 = now. A cut
        row erase or write has `words_done` of its words done and the bits `partial_bits`
        of the word after them (half a row and no more by default)."""
        if after_nvm_ops < 0:
            raise ValueError(f"after_nvm_ops must be >= 0, got {after_nvm_ops}")
        _check_range("words done", words_done, FLASH_ROW_WORDS + 1)
        _check_range("partial bits", partial_bits, 1 << 14)
        self._live().sim_set_power_cut_tear(words_done, partial_bits)
        if after_nvm_ops == 0:
            self._live().sim_cut_power()
        else:
            self._live().sim_schedule_power_cut(after_nvm_ops)

    def cancel_power_cut(self) -> None:
        """Forget a scheduled power cut that has not struck."""
        self._live().sim_schedule_power_cut(0)

    def power_on(self) -> None:
        """Reboot a board that went dark (RAM lost, flash and EEPROM kept)."""
        self._live().sim_power_on()

    @property
    def nvm_op_count(self) -> int:
        return int(self._live().sim_nvm_op_count())

    @property
    def flash_erase_count(self) -> int:
        return int(self._live().sim_flash_erase_count())

    def flash_row_erase_counts(self) -> list[int]:
        lib = self._live()
        return [int(lib.sim_flash_row_erase_count(row)) for row in range(FLASH_ROWS)]

    def flash_read(self, word_addr: int) -> int:
        _check_range("flash word address", word_addr, FLASH_WORDS)
        return int(self._live().sim_flash_peek(word_addr))

    def flash_load(self, words: dict[int, int]) -> None:
        """Program words as an external programmer would (e.g. an Intel HEX frame set)."""
        lib = self._live()
        for word_addr, value in words.items():
            _check_range("flash word address", word_addr, FLASH_WORDS)
            _check_range("flash word value", value, 1 << 14)
        for word_addr, value in words.items():
            lib.sim_flash_poke(word_addr, value)

    def eeprom_read(self, addr: int) -> int:
        _check_range("EEPROM address", addr, EEPROM_BYTES)
        return int(self._live().sim_eeprom_peek(addr))

    def eeprom_load(self, data: bytes) -> None:
        """The EEPROM's bytes from address 0, as an external programmer would write them."""
        _check_range("EEPROM size", len(data), EEPROM_BYTES + 1)
        lib = self._live()
        for addr, value in enumerate(data):
            lib.sim_eeprom_poke(addr, value)

    def power_report(self) -> PowerReport:
        """Energy per update and standby current, plus time in every state."""
        stats = PowerStats()
        self._live().sim_power_stats(ctypes.byref(stats))
        return power_report(stats, self.refresh_count)

    @property
    def charge_drawn_c(self) -> float:
        """The charge the board has drawn from its supply since boot (coulombs): standby
        and active together, by the power model."""
        stats = PowerStats()
        self._live().sim_power_stats(ctypes.byref(stats))
        return float(stats.standby_charge_c + stats.active_charge_c)

    def set_supply(
        self,
        cell_volts: float | None = None,
        cell_ohms: float | None = None,
        reservoir_uf: float | None = None,
        panel_uf: float | None = None,
    ) -> None:
        """Change the cell (open-circuit volts, internal ohms), the reservoir at U2's VIN
        or the module's input capacitance (uF); what is not given stays."""
        supply = Supply()
        lib = self._live()
        lib.sim_supply_get(ctypes.byref(supply))
        for name, value in (
            ("cell_v", cell_volts),
            ("cell_ohm", cell_ohms),
            ("reservoir_uf", reservoir_uf),
            ("panel_uf", panel_uf),
        ):
            if value is not None:
                if value < 0:
                    raise ValueError(f"{name} must not be negative, got {value}")
                setattr(supply, name, value)
        lib.sim_supply_set(ctypes.byref(supply))

    def supply(self) -> dict[str, float]:
        """The cell and capacitors in force."""
        supply = Supply()
        self._live().sim_supply_get(ctypes.byref(supply))
        return {field[0]: float(getattr(supply, field[0])) for field in Supply._fields_}

    def set_cell(self, cell: str, used: float) -> None:
        """One of CELLS with `used` (0..1) of its rated capacity drawn, by its makers' curves."""
        if cell not in CELLS or self._live().sim_cell_set(CELLS.index(cell), used) != 0:
            raise ValueError(f"no cell {cell!r} with {used!r} of its capacity used")

    def cell_rating(self, cell: str) -> dict[str, float]:
        """A cell's rated capacity (mAh), self-discharge a year, continuous and pulse mA."""
        rating = CellRating()
        if (
            cell not in CELLS
            or self._live().sim_cell_rating(CELLS.index(cell), ctypes.byref(rating)) != 0
        ):
            raise ValueError(f"no cell {cell!r}")
        return {field[0]: float(getattr(rating, field[0])) for field in CellRating._fields_}

    def set_adapter(self, which: str) -> None:
        """What is on J1: one of ADAPTERS."""
        if which not in ADAPTERS:
            raise ValueError(f"adapter must be one of {', '.join(ADAPTERS)}, got {which!r}")
        self._live().sim_uart_set_adapter(ADAPTERS.index(which))

    def select_bor_trip(self, which: str) -> None:
        """Where in the configured trip range (min, typ, max) the simulated chip trips."""
        if which not in BOR_TRIPS:
            raise ValueError(f"BOR trip must be one of {', '.join(BOR_TRIPS)}, got {which!r}")
        self._live().sim_bor_trip_select(BOR_TRIPS.index(which))

    @property
    def bor_trip_v(self) -> float:
        return float(self._live().sim_bor_trip_v())

    @property
    def bor_trip_max_v(self) -> float:
        """The highest trip point of the configured range (0 with the BOR off)."""
        return float(self._live().sim_bor_trip_max_v())

    def supply_report_start(self) -> None:
        self._live().sim_supply_report_start()

    def supply_report(self) -> SupplyFigures:
        report = SupplyReport()
        self._live().sim_supply_report(ctypes.byref(report))

        def volts(value: float) -> float | None:
            return float(value) if value != float("inf") else None

        def millivolts(value: float) -> float | None:
            return float(value) * 1e3 if value != float("inf") else None

        return SupplyFigures(
            min_vdd_switch_on=volts(report.min_vdd_switch_on),
            min_vdd_refresh=volts(report.min_vdd_refresh),
            min_vdd_bor_armed=volts(report.min_vdd_bor_armed),
            min_vdd_running=volts(report.min_vdd_running),
            floor_switch_on_v=volts(report.floor_switch_on_v),
            floor_refresh_v=volts(report.floor_refresh_v),
            margin_switch_on_mv=millivolts(report.margin_switch_on_v),
            margin_refresh_mv=millivolts(report.margin_refresh_v),
            charge_uc=float(report.charge_c) * 1e6,
            brownouts=int(report.brownouts),
            cpu_out_of_spec_ms=int(report.cpu_out_of_spec_ns) / 1e6,
        )

    def reset_pin(self) -> None:
        """Pull MCLR (the reset pin) low and let go: the chip resets, the supply stays."""
        self._live().sim_reset_pin()

    def set_fvr(self, volts: float) -> None:
        """This chip's voltage reference (1.024 V nominal, +-4 % from part to part)."""
        self._live().sim_fvr_set(volts)

    @property
    def brownouts(self) -> int:
        return int(self._live().sim_brownout_count())

    @property
    def watchdog_resets(self) -> int:
        return int(self._live().sim_watchdog_reset_count())

    @property
    def watchdog_longest_ms(self) -> float:
        """The longest the CPU ran awake without clearing the watchdog."""
        return int(self._live().sim_watchdog_longest_ns()) / NS_PER_MS

    def hang_firmware(self) -> None:
        """Test fault: the firmware hangs at its next HAL call until the chip resets."""
        self._live().sim_hang_firmware()

    # ---- private ------------------------------------------------------------------

    def _save_panel_png(self) -> None:
        if self._png_dir is not None:
            self.panel_image().save(self._png_dir / f"panel-{self.refresh_count}.png")


def _check_range(what: str, value: int, limit: int) -> None:
    if not 0 <= value < limit:
        raise ValueError(f"{what} {value} out of range 0..{limit - 1}")


def board_behind(port: object) -> Board | None:
    """The simulated board behind a serial port (sim://, or any port passing through to
    one and showing it as `board`); None behind any other port, or a closed one."""
    try:
        board = getattr(port, "board", None)
    except OSError:  # pyserial's PortNotOpenError: a closed sim:// port
        return None
    return board if isinstance(board, Board) else None
