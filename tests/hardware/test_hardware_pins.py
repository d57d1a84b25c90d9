"""hardware/pins.csv is the pin table the firmware uses: hal.h and the PIC HAL agree with it."""

from __future__ import annotations

import re

from hardware_tools import HAL_H, PIC_DIR, pin_rows

HAL_PIC_C = (PIC_DIR / "hal_pic.c").read_text()


def hal_h_pins() -> dict[str, tuple[str, str]]:
    """HAL_PIN_<NET> -> (port pin, direction) from the comments of the hal_pin_t enum."""
    enum = re.search(r"typedef enum \{(.*?)\} hal_pin_t;", HAL_H.read_text(), re.S)
    assert enum is not None
    found = re.findall(r"HAL_PIN_(\w+)(?:\s*=\s*\d+)?,\s*/\*\s*(R[AC]\d),\s*(in|out)\b", enum[1])
    return {net: (port_pin, direction) for net, port_pin, direction in found}


def pic_hal_pins() -> dict[str, set[str]]:
    """HAL_PIN_<NET> -> every port pin the PIC HAL touches in that net's `case`."""
    pins: dict[str, set[str]] = {}
    for case in re.finditer(r"case HAL_PIN_(\w+):(.*?)(?=case |default:)", HAL_PIC_C, re.S):
        touched = re.findall(r"(?:LAT|PORT)([AC])bits\.(?:LAT[AC]|R[AC])(\d)", case[2])
        pins.setdefault(case[1], set()).update(f"R{port}{bit}" for port, bit in touched)
    return pins


def test_every_chip_pin_appears_once() -> None:
    rows = pin_rows().values()
    assert sorted(int(row["chip_pin"]) for row in rows) == list(range(1, 15))
    port_pins = [row["port_pin"] for row in rows if row["port_pin"]]
    assert len(port_pins) == len(set(port_pins)) == 12


def test_hal_h_nets_match_the_table() -> None:
    rows = pin_rows()
    declared = hal_h_pins()
    assert len(declared) == 8, "every hal_pin_t entry documents its port pin and direction"
    for net, (port_pin, direction) in declared.items():
        assert net in rows, f"{net} of hal.h is missing from pins.csv"
        assert rows[net]["port_pin"] == port_pin
        assert rows[net]["direction"] == direction


def test_pic_hal_drives_the_pins_of_the_table() -> None:
    rows = pin_rows()
    mapping = pic_hal_pins()
    assert set(mapping) == set(hal_h_pins())
    for net, touched in mapping.items():
        own = rows[net]["port_pin"]
        assert own in touched, f"the PIC HAL does not use {own} for {net}"
        # EPD_PWR also handles BUSY's direction; every other net touches only its own pin.
        extra = touched - {own}
        assert extra <= ({rows["EPD_BUSY"]["port_pin"]} if net == "EPD_PWR" else set())


def _masked_pins(register: str) -> set[str]:
    """Port pins named by `REG = _REG_<PREFIX>n_MASK | ...` in hal_init()."""
    assignment = re.search(rf"\b{register} = ([^;]+);", HAL_PIC_C)
    assert assignment is not None, f"hal_init() does not set {register}"
    port = register[-1]
    return {f"R{port}{bit}" for bit in re.findall(rf"_{register}_\w+?(\d)_MASK", assignment[1])}


def test_pull_ups_and_inputs_follow_the_table() -> None:
    rows = pin_rows().values()
    pulled_up = {row["port_pin"] for row in rows if "weak pull-up" in row["notes"]}
    assert _masked_pins("WPUA") | _masked_pins("WPUC") == pulled_up
    inputs = _masked_pins("TRISA") | _masked_pins("TRISC")
    for row in rows:
        if row["port_pin"] in inputs:
            assert row["direction"] == "in", f"{row['net']} is an input in hal_init()"
        elif row["direction"] == "out":
            assert row["port_pin"] not in inputs


def test_uart_pins_follow_the_table() -> None:
    rows = pin_rows()
    assert rows["UART_TX"]["port_pin"] == "RC1"
    assert re.search(r"\bRC1PPS = PPS_OUTPUT_TX;", HAL_PIC_C)
    rx = rows["UART_RX"]["port_pin"]
    assert re.search(rf"\bRXPPS = PPS_INPUT_{rx};", HAL_PIC_C)
    code = re.search(rf"#define PPS_INPUT_{rx} 0x([0-9A-F]+)u", HAL_PIC_C)
    assert code is not None
    # PPS input code: PORT in bits 4:3 (A = 0, C = 2), pin number in bits 2:0.
    assert int(code[1], 16) == ({"A": 0, "C": 2}[rx[1]] << 3) | int(rx[2])


def test_icsp_pins_are_documented() -> None:
    rows = pin_rows()
    assert rows["MCLR"]["port_pin"] == "RA3"
    assert rows["ICSPDAT"]["port_pin"] == "RA0"
    assert "ICSPCLK" in rows["UART_RX"]["function"]


def test_simulated_board_nets_are_nets_of_the_table() -> None:
    from epdle.sim import NETS

    rows = pin_rows()
    # EPD_VCC is the switched panel rail (load switch output), not a chip pin.
    assert set(NETS) - {"EPD_VCC"} <= set(rows)
