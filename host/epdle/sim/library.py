"""Loading the simulated board's shared library: where it is, and the C functions' types.

The library is the one named by $EPDLE_SIM_LIB, else the copy installed next to this
package (an editable install keeps it in site-packages, away from the sources).
"""

from __future__ import annotations

import ctypes
import importlib.resources
import os
from pathlib import Path
from typing import Any

LIBRARY_ENV = "EPDLE_SIM_LIB"
LIBRARY_NAME = "libepdle_sim.so"
LOG_DATA_BYTES = 16


class SimError(Exception):
    """The simulated board cannot do what was asked (library missing, board closed, ...)."""


class Transaction(ctypes.Structure):
    _fields_ = [
        ("t_ns", ctypes.c_uint64),
        ("cmd", ctypes.c_uint8),
        ("len", ctypes.c_uint32),
        ("data", ctypes.c_uint8 * LOG_DATA_BYTES),
        ("crc32", ctypes.c_uint32),
    ]


class PowerStats(ctypes.Structure):
    _fields_ = [
        *(
            (name, ctypes.c_uint64)
            for name in (
                "mcu_run_ns",
                "mcu_stall_ns",
                "mcu_sleep_ns",
                "mcu_off_ns",
                "panel_off_ns",
                "panel_idle_ns",
                "panel_busy_ns",
                "panel_deep_sleep_ns",
                "uart_active_ns",
                "button_held_ns",
                "standby_ns",
                "active_ns",
            )
        ),
        ("standby_charge_c", ctypes.c_double),
        ("active_charge_c", ctypes.c_double),
        ("supply_v", ctypes.c_double),
    ]


class Supply(ctypes.Structure):
    _fields_ = [
        ("cell_v", ctypes.c_double),
        ("cell_ohm", ctypes.c_double),
        ("reservoir_uf", ctypes.c_double),
        ("panel_uf", ctypes.c_double),
    ]


class SupplyReport(ctypes.Structure):
    _fields_ = [
        ("min_vdd_switch_on", ctypes.c_double),
        ("min_vdd_refresh", ctypes.c_double),
        ("min_vdd_bor_armed", ctypes.c_double),
        ("min_vdd_running", ctypes.c_double),
        ("margin_switch_on_v", ctypes.c_double),
        ("margin_refresh_v", ctypes.c_double),
        ("floor_switch_on_v", ctypes.c_double),
        ("floor_refresh_v", ctypes.c_double),
        ("charge_c", ctypes.c_double),
        ("brownouts", ctypes.c_uint32),
        ("cpu_out_of_spec_ns", ctypes.c_uint64),
    ]


class RefreshInfo(ctypes.Structure):
    _fields_ = [
        ("count", ctypes.c_uint32),
        ("fast", ctypes.c_uint8),
        ("dc_balanced", ctypes.c_uint8),
        ("ghost_max", ctypes.c_uint16),
        ("frames", ctypes.c_uint32),
        ("frame_rate_hz", ctypes.c_uint32),
        ("duration_ns", ctypes.c_uint64),
        ("ram_unknown", ctypes.c_uint32),
        ("wrong_pixels", ctypes.c_uint32),
        ("wrong_pixels_total", ctypes.c_uint32),
    ]


class CellRating(ctypes.Structure):
    _fields_ = [
        ("capacity_mah", ctypes.c_double),
        ("self_discharge_per_year", ctypes.c_double),
        ("continuous_ma", ctypes.c_double),
        ("pulse_ma", ctypes.c_double),
    ]


_SIGNATURES: dict[str, tuple[Any, list[Any]]] = {
    "sim_boot": (ctypes.c_int, [ctypes.c_char_p]),
    "sim_shutdown": (None, []),
    "sim_time_ns": (ctypes.c_uint64, []),
    "sim_run_until": (ctypes.c_int, [ctypes.c_uint64]),
    "sim_button_schedule": (ctypes.c_int, [ctypes.c_uint64, ctypes.c_uint8]),
    "sim_uart_send": (None, [ctypes.c_char_p, ctypes.c_size_t]),
    "sim_uart_take": (ctypes.c_size_t, [ctypes.c_char_p, ctypes.c_size_t]),
    "sim_hal_call_count": (ctypes.c_uint32, []),
    "sim_uart_byte_at_hal_call": (None, [ctypes.c_uint32, ctypes.c_uint8]),
    "sim_asleep": (ctypes.c_int, []),
    "sim_powered": (ctypes.c_int, []),
    "sim_net_level": (ctypes.c_int, [ctypes.c_int]),
    "sim_refresh_count": (ctypes.c_uint32, []),
    "sim_panel_shown": (None, [ctypes.c_char_p, ctypes.c_char_p]),
    "sim_panel_set_busy_latency_ns": (None, [ctypes.c_uint64]),
    "sim_violation_count": (ctypes.c_size_t, []),
    "sim_violation_text": (ctypes.c_char_p, [ctypes.c_size_t]),
    "sim_epd_transaction_count": (ctypes.c_size_t, []),
    "sim_epd_transaction": (ctypes.c_int, [ctypes.c_size_t, ctypes.POINTER(Transaction)]),
    "sim_schedule_power_cut": (None, [ctypes.c_uint32]),
    "sim_set_power_cut_tear": (None, [ctypes.c_uint8, ctypes.c_uint16]),
    "sim_cut_power": (None, []),
    "sim_reset_pin": (None, []),
    "sim_fvr_set": (None, [ctypes.c_double]),
    "sim_power_on": (None, []),
    "sim_nvm_op_count": (ctypes.c_uint32, []),
    "sim_flash_erase_count": (ctypes.c_uint32, []),
    "sim_flash_row_erase_count": (ctypes.c_uint32, [ctypes.c_uint16]),
    "sim_flash_peek": (ctypes.c_uint16, [ctypes.c_uint16]),
    "sim_flash_poke": (None, [ctypes.c_uint16, ctypes.c_uint16]),
    "sim_eeprom_peek": (ctypes.c_uint8, [ctypes.c_uint8]),
    "sim_eeprom_poke": (None, [ctypes.c_uint8, ctypes.c_uint8]),
    "sim_power_stats": (None, [ctypes.POINTER(PowerStats)]),
    "sim_supply_get": (None, [ctypes.POINTER(Supply)]),
    "sim_supply_set": (None, [ctypes.POINTER(Supply)]),
    "sim_bor_trip_select": (None, [ctypes.c_int]),
    "sim_bor_trip_v": (ctypes.c_double, []),
    "sim_bor_trip_max_v": (ctypes.c_double, []),
    "sim_cell_set": (ctypes.c_int, [ctypes.c_int, ctypes.c_double]),
    "sim_cell_rating": (ctypes.c_int, [ctypes.c_int, ctypes.POINTER(CellRating)]),
    "sim_uart_set_adapter": (None, [ctypes.c_int]),
    "sim_supply_report_start": (None, []),
    "sim_supply_report": (None, [ctypes.POINTER(SupplyReport)]),
    "sim_brownout_count": (ctypes.c_uint32, []),
    "sim_watchdog_reset_count": (ctypes.c_uint32, []),
    "sim_watchdog_longest_ns": (ctypes.c_uint64, []),
    "sim_hang_firmware": (None, []),
    "sim_refresh_info": (None, [ctypes.POINTER(RefreshInfo)]),
}

_library: ctypes.PyDLL | None = None


def library_path() -> Path:
    """Where the simulated board's shared library is looked for."""
    configured = os.environ.get(LIBRARY_ENV)
    if configured:
        return Path(configured)
    # Through importlib.resources: an editable install keeps the built library
    # in site-packages, away from this source file.
    return Path(str(importlib.resources.files("epdle.sim") / LIBRARY_NAME))


def load_library() -> ctypes.PyDLL:
    global _library
    if _library is None:
        path = library_path()
        if not path.is_file():
            raise SimError(
                f"simulated board library not found at {path}: build it (make native) and set "
                f"{LIBRARY_ENV}=build/host/firmware/{LIBRARY_NAME}, or install the package"
            )
        try:
            # PyDLL keeps the GIL during calls: the board is one chip, so two Python
            # threads (a daemon's server and its presenter) must never run it at once.
            library = ctypes.PyDLL(str(path))
        except OSError as error:
            raise SimError(f"cannot load the simulated board from {path}: {error}") from error
        for name, (restype, argtypes) in _SIGNATURES.items():
            function = getattr(library, name)
            function.restype = restype
            function.argtypes = argtypes
        _library = library
    return _library
