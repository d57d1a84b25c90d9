"""PIC configuration words: every setting exists on this chip; the required ones are set;
the clock runs only at a supply the brown-out reset or the firmware's own measurement
guarantees; write protection covers code and spares the frame store."""

from __future__ import annotations

import re

from hardware_tools import PIC_DIR, ROOT, load_tool

REQUIRED = {
    "RSTOSC": "HFINT32",  # 32 MHz HFINTOSC x2 PLL from reset
    "FEXTOSC": "OFF",
    "WDTE": "SWDTEN",  # the HAL runs it: awake (cleared by the main loop) and as the sleep's bound
    "MCLRE": "ON",
    "LVP": "ON",
    "BOREN": "SBOREN",  # the firmware arms it: awake between updates, off in SLEEP
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
# ... and the clock each reset oscillator setting runs at (EXTOSC depends on the board).
RSTOSC_HZ = {"HFINT32": 32_000_000, "HFINT1": 1_000_000, "LFINT": 31_000, "SOSC": 31_000}
# WRT: the words that self-write can no longer change.
WRT_PROTECTED_WORDS = {"OFF": 0, "BOOT": 0x200, "HALF": 0x2000, "ALL": 0x4000}
# hardware/power.md: the margin kept above a trip point and above the clock's floor.
MARGIN_V = 0.1


def setting(name: str) -> str:
    (value,) = config_settings()[name]
    return value


def running_clock_hz() -> int:
    """The clock at reset; the HAL's delays and baud rate assume the same (_XTAL_FREQ)."""
    fosc = RSTOSC_HZ[setting("RSTOSC")]
    xtal = re.search(r"#define _XTAL_FREQ (\d+)UL", (PIC_DIR / "hal_pic.c").read_text())
    assert xtal is not None and int(xtal[1]) == fosc, "hal_pic.c assumes another clock"
    return fosc


def app_millivolts(name: str) -> float:
    found = re.search(rf"#define {name} (\d+)u", (ROOT / "firmware/app/app.c").read_text())
    assert found is not None, f"app.c has no {name}"
    return int(found[1]) / 1000


def test_the_update_s_supply_checks_keep_vdd_within_the_clock_s_specification() -> None:
    # The brown-out reset (BORV = LOW: it may trip as low as 2.30 V) is disarmed through an
    # update; the firmware's two measurements of VDD stand in for it: the cell it loads
    # keeps the CPU 100 mV above the clock's floor under the panel's load, and awake with
    # the panel off 100 mV above the highest trip point (no brown-out between updates).
    fosc = running_clock_hz()
    vdd_min = min(v for limit, v in VDD_MIN_V.items() if fosc <= limit)
    assert setting("BOREN") == "SBOREN"
    assert app_millivolts("VDD_LOADED_MIN_MV") >= vdd_min + MARGIN_V
    assert app_millivolts("VDD_AWAKE_MIN_MV") >= VBOR_MAX_V[setting("BORV")] + MARGIN_V


def test_write_protection_covers_code_and_spares_the_frame_store() -> None:
    layout = (ROOT / "firmware/app/store_layout.h").read_text()
    first_row = re.search(r"#define STORE_REGION_FIRST_ROW (\d+)u", layout)
    assert first_row is not None
    store_from = int(first_row[1]) * 32
    protected = WRT_PROTECTED_WORDS[setting("WRT")]
    assert protected > 0, "WRT = OFF: a stray self-write could erase the firmware"
    assert protected <= store_from, "WRT would refuse the frame store's writes"
