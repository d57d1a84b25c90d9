"""PIC configuration words: every setting exists on this chip; the required ones are set;
the clock runs only at a supply the brown-out reset guarantees; write protection covers
code and spares the frame store."""

from __future__ import annotations

import re

from hardware_tools import PIC_DIR, ROOT, load_tool

REQUIRED = {
    "RSTOSC": "HFINT1",  # 1 MHz HFINTOSC from reset (hal_init raises it to 16 MHz)
    "FEXTOSC": "OFF",
    "WDTE": "SWDTEN",  # the HAL runs it: awake (cleared by the main loop) and as the sleep's bound
    "MCLRE": "ON",
    "LVP": "ON",
    "BOREN": "SLEEP",  # armed whenever the CPU runs, off in SLEEP (wake-up waits for it)
}


def config_settings() -> dict[str, list[str]]:
    text = (PIC_DIR / "main.c").read_text()
    settings: dict[str, list[str]] = {}
    for line in re.findall(r"^#pragma config (.+)$", text, re.M):
        for name, value in re.findall(r"(\w+)\s*=\s*(\w+)", line):
            settings.setdefault(name, []).append(value)
    return settings


def vendor_options() -> dict[str, set[str]]:
    gen = load_tool("pic/gen_pic_regs")
    regmap = gen.parse_inc(gen.default_inc_path().read_text(encoding="latin-1"))
    options: dict[str, set[str]] = {}
    for symbol in regmap.config_options:
        name, _, value = symbol.lstrip("_").partition("_")
        options.setdefault(name, set()).add(value)
    return options


def test_every_setting_is_a_setting_of_this_chip() -> None:
    options = vendor_options()
    for name, values in config_settings().items():
        assert name in options, f"#pragma config {name}: no such setting on the PIC16F18326"
        for value in values:
            assert value in options[name], f"#pragma config {name} = {value}: not an option"


def test_every_setting_is_given_exactly_once() -> None:
    settings = config_settings()
    assert set(settings) == set(vendor_options())
    assert all(len(values) == 1 for values in settings.values())


def test_required_settings() -> None:
    settings = config_settings()
    for name, value in REQUIRED.items():
        assert settings[name] == [value]


# PIC16F18326 datasheet (DS40001839), electrical specifications of the F device:
# D002, the lowest VDD at which the chip runs at a clock (Fosc up to the key, in Hz) ...
VDD_MIN_V = {16_000_000: 2.3, 32_000_000: 2.5}
# ... RST06, the highest brown-out trip voltage (VBOR max) of each BORV setting ...
VBOR_MAX_V = {"HIGH": 2.85, "LOW": 2.60}
VBOR_MIN_V = {"HIGH": 2.55, "LOW": 2.30}
# ... and the clock each reset oscillator setting runs at (EXTOSC depends on the board).
RSTOSC_HZ = {"HFINT32": 32_000_000, "HFINT1": 1_000_000, "LFINT": 31_000, "SOSC": 31_000}
# WRT: the words that self-write can no longer change.
WRT_PROTECTED_WORDS = {"OFF": 0, "BOOT": 0x200, "HALF": 0x2000, "ALL": 0x4000}


def setting(name: str) -> str:
    (value,) = config_settings()[name]
    return value


def running_clock_hz() -> int:
    """The clock hal_init() sets (HAL_FOSC_HZ); the PIC HAL's delays and baud rate assume it."""
    found = re.search(r"#define HAL_FOSC_HZ (\d+)ul", (ROOT / "firmware/hal/hal.h").read_text())
    assert found is not None, "hal.h has no HAL_FOSC_HZ"
    xtal = re.search(r"#define _XTAL_FREQ (\d+)UL", (PIC_DIR / "hal_pic.c").read_text())
    assert xtal is not None and int(xtal[1]) == int(found[1]), "hal_pic.c assumes another clock"
    return int(found[1])


def supply_millivolts(name: str) -> float:
    header = (ROOT / "firmware/drivers/supply.h").read_text()
    found = re.search(rf"#define {name} (\d+)u", header)
    assert found is not None, f"supply.h has no {name}"
    return int(found[1]) / 1000


def vdd_min_v(fosc: int) -> float:
    return min(v for limit, v in VDD_MIN_V.items() if fosc <= limit)


def test_no_clock_the_chip_runs_at_is_allowed_below_the_lowest_brown_out_trip() -> None:
    # The brown-out reset runs whenever the CPU does (BOREN = SLEEP), so the CPU never runs
    # below its lowest trip point (RST06, BORV = LOW: 2.30 V); the clock at reset and the
    # one hal_init() sets both run from there (D002: 16 MHz from 2.3 V). At 32 MHz (2.5 V)
    # the CPU could run 0.2 V below its floor before the brown-out reset held it.
    assert setting("BOREN") == "SLEEP"
    vbor_min = VBOR_MIN_V[setting("BORV")]
    for fosc in (RSTOSC_HZ[setting("RSTOSC")], running_clock_hz()):
        assert vdd_min_v(fosc) <= vbor_min, f"{fosc / 1e6:g} MHz"


def test_the_guard_keeps_the_brown_out_reset_from_tripping_under_the_panel_s_load() -> None:
    # The cell is checked under the panel's load (the CPU awake on top of the charge pumps)
    # against the highest trip point, and awake with the panel off above that.
    loaded = supply_millivolts("SUPPLY_LOADED_MIN_MV")
    assert loaded >= VBOR_MAX_V[setting("BORV")]
    assert supply_millivolts("SUPPLY_AWAKE_MIN_MV") > loaded


def test_write_protection_covers_code_and_spares_the_frame_store() -> None:
    layout = (ROOT / "firmware/app/store_layout.h").read_text()
    first_row = re.search(r"#define STORE_REGION_FIRST_ROW (\d+)u", layout)
    assert first_row is not None
    store_from = int(first_row[1]) * 32
    protected = WRT_PROTECTED_WORDS[setting("WRT")]
    assert protected > 0, "WRT = OFF: a stray self-write could erase the firmware"
    assert protected <= store_from, "WRT would refuse the frame store's writes"
