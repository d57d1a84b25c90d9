"""PIC configuration words: every setting exists on this chip; the required ones are set."""

from __future__ import annotations

import re

from hardware_tools import PIC_DIR, load_tool

REQUIRED = {
    "RSTOSC": "HFINT32",  # 32 MHz HFINTOSC x2 PLL from reset
    "FEXTOSC": "OFF",
    "WDTE": "SWDTEN",  # watchdog off unless the HAL runs it: the bound of the refresh sleep
    "MCLRE": "ON",
    "LVP": "ON",
    "BOREN": "SLEEP",  # brown-out reset off in SLEEP
}


def config_settings() -> dict[str, list[str]]:
    text = (PIC_DIR / "main.c").read_text()
    settings: dict[str, list[str]] = {}
    for line in re.findall(r"^#pragma config (.+)$", text, re.M):
        for name, value in re.findall(r"(\w+)\s*=\s*(\w+)", line):
            settings.setdefault(name, []).append(value)
    return settings


def vendor_options() -> dict[str, set[str]]:
    gen = load_tool("gen_pic_regs")
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
