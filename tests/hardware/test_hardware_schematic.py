"""One wiring: the schematic's netlist, hardware/pins.csv and the PIC HAL's registers agree.

The netlist is the one KiCad exports from hardware/kicad/epdle.kicad_sch (`make hardware`
keeps the committed copy current). Each MCU pin's net must be the pin table's, and every
pin the HAL programs (its pin reads and writes, the EUSART's PPS routing, the
interrupt-on-change edges) must be wired in the schematic to the part that signal is for.
"""

from __future__ import annotations

import re
from functools import cache

from hardware_tools import PIC_DIR, ROOT, load_tool, pin_rows

NETLIST = ROOT / "hardware" / "kicad" / "epdle.net"
MCU = "U1"


@cache
def netlist() -> dict[tuple[str, str], tuple[str, str]]:
    """(ref, pin number) -> (net name, pin function) of every connected pin."""
    pins = load_tool("hardware/gen_schematic").read_netlist(NETLIST.read_text(encoding="utf-8"))
    assert pins, f"no nets in {NETLIST}"
    return {key: value for key, value in pins.items() if not value[0].startswith("unconnected-")}


def net_of(ref: str, pin: str) -> str:
    return netlist()[(ref, pin)][0]


def mcu_port_on(net: str) -> str:
    """The port pin (RA0..RC5) of the MCU pin on a net; fails unless there is exactly one."""
    ports = [
        function.split("/")[0]
        for (ref, _), (name, function) in netlist().items()
        if ref == MCU and name == net
    ]
    assert len(ports) == 1, f"net {net} reaches the MCU on {ports}"
    return ports[0]


def hal_source() -> str:
    return "".join(path.read_text() for path in sorted(PIC_DIR.glob("*.[ch]")))


def _function(name: str) -> str:
    body = re.search(rf"\b{name}\([^)]*\) \{{(.*?)\n\}}", hal_source(), re.S)
    assert body is not None, f"{name}() not found in {PIC_DIR}"
    return body[1]


def hal_pins() -> dict[str, str]:
    """Signal -> port pin, from the HAL's registers alone."""
    pins: dict[str, str] = {}
    # hal_pin_read(): each case reads its one pin (PORTx for inputs, LATx for outputs).
    for case in re.finditer(
        r"case HAL_PIN_(\w+):\s*return (\w+)bits\.\w+?(\d);", _function("hal_pin_read")
    ):
        pins[case[1]] = f"R{case[2][-1]}{case[3]}"
    source = hal_source()
    # EUSART by peripheral pin select: RXPPS takes a port/pin code, RxyPPS = TX names its pin.
    tx = re.search(r"\bR([AC])(\d)PPS = PPS_OUTPUT_TX;", source)
    rx = re.search(r"\bRXPPS = (\w+);", source)
    assert tx is not None and rx is not None
    pins["UART_TX"] = f"R{tx[1]}{tx[2]}"
    code = re.search(rf"#define {rx[1]} 0x([0-9A-Fa-f]+)u", source)
    assert code is not None
    value = int(code[1], 16)  # port in bits 4:3 (A = 0, C = 2), pin number in bits 2:0
    port = {0: "A", 2: "C"}[value >> 3]
    pins["UART_RX"] = f"R{port}{value & 7}"
    return pins


def ioc_pins(edge: str) -> set[str]:
    """Port A pins the HAL arms for a falling (N) or rising (P) interrupt-on-change."""
    source = hal_source()
    pins = set(re.findall(rf"_IOCA{edge}_IOCA{edge}(\d)_MASK", source))
    pins |= set(re.findall(rf"IOCA{edge}bits\.IOCA{edge}(\d) = 1", source))
    return {f"RA{bit}" for bit in pins}


def test_every_mcu_pin_carries_the_net_of_the_pin_table() -> None:
    rows = pin_rows()
    by_chip_pin = {row["chip_pin"]: row for row in rows.values()}
    assert len(by_chip_pin) == 14
    for chip_pin, row in by_chip_pin.items():
        net, function = netlist()[(MCU, chip_pin)]
        table_net = {"VSS": "GND"}.get(row["net"], row["net"])
        assert net == table_net, f"U1 pin {chip_pin}: schematic {net}, pins.csv {row['net']}"
        if row["port_pin"]:
            assert function.split("/")[0] == row["port_pin"], f"U1 pin {chip_pin} is {function}"


def test_the_hal_drives_the_pins_the_schematic_wires() -> None:
    pins = hal_pins()
    assert len(pins) == 10, pins
    for signal, port_pin in pins.items():
        assert mcu_port_on(signal) == port_pin, f"{signal}: HAL on {port_pin}"


def test_the_panel_connector_gets_each_signal_from_the_hal_pin() -> None:
    pins = hal_pins()
    header = {
        "3": "EPD_SDA",
        "4": "EPD_SCL",
        "5": "EPD_CS",
        "6": "EPD_DC",
        "7": "EPD_RST",
        "8": "EPD_BUSY",
    }
    for pin, signal in header.items():
        assert mcu_port_on(net_of("J3", pin)) == pins[signal], f"J3 pin {pin} ({signal})"
    assert net_of("J3", "1") == net_of("U2", "1"), "the panel's VCC is the load switch's VOUT"
    assert net_of("J3", "2") == net_of(MCU, "14")


def test_the_load_switch_is_biased_and_held_off() -> None:
    vdd, gnd = net_of(MCU, "1"), net_of(MCU, "14")
    assert net_of("U2", "4") == vdd, "VIN"
    assert net_of("U2", "5") == vdd, "VBIAS: the switch needs its bias supply"
    assert net_of("U2", "2") == gnd
    assert mcu_port_on(net_of("U2", "6")) == hal_pins()["EPD_PWR"], "ON"
    # R3 from ON to GND keeps the panel off while RA2 is an input.
    assert {net_of("R3", "1"), net_of("R3", "2")} == {net_of("U2", "6"), gnd}


def test_interrupt_on_change_pins_are_the_button_uart_rx_and_busy() -> None:
    # Falling edges: the button, and RX's start bit, which wakes the low-power sleep.
    falling = {mcu_port_on(net_of("SW1", "1")), mcu_port_on(net_of(MCU, "12"))}
    assert ioc_pins("N") == falling, "falling edge: the button and UART RX"
    assert ioc_pins("P") == {mcu_port_on(net_of("J3", "8"))}, "rising edge: the panel's BUSY"
    assert net_of("SW1", "2") == net_of(MCU, "14"), "the button pulls to GND"


def test_programming_and_uart_headers() -> None:
    pins = hal_pins()
    vdd, gnd = net_of(MCU, "1"), net_of(MCU, "14")
    # ICSP: MCLR/VPP, VDD, GND, PGD = RA0, PGC = RA1 (fixed by the silicon).
    assert net_of("J2", "1") == net_of(MCU, "4")
    assert (net_of("J2", "2"), net_of("J2", "3")) == (vdd, gnd)
    assert mcu_port_on(net_of("J2", "4")) == "RA0"
    assert mcu_port_on(net_of("J2", "5")) == "RA1"
    assert {net_of("R1", "1"), net_of("R1", "2")} == {vdd, net_of(MCU, "4")}, "MCLR pull-up"
    # UART: the adapter's TXD reaches RX only through D1 and R2; its RXD takes TX.
    assert net_of("D1", "1") == net_of("J1", "1")
    assert {net_of("R2", "1"), net_of("R2", "2")} == {net_of("D1", "2"), net_of(MCU, "12")}
    assert mcu_port_on(net_of(MCU, "12")) == pins["UART_RX"]
    assert {net_of("R4", "1"), net_of("R4", "2")} == {net_of("J1", "2"), net_of(MCU, "9")}
    assert mcu_port_on(net_of(MCU, "9")) == pins["UART_TX"]
    assert net_of("J1", "3") == gnd


def test_supply_decoupling_and_cell_isolation() -> None:
    vdd, gnd = net_of(MCU, "1"), net_of(MCU, "14")
    for cap in ("C1", "C2"):
        assert {net_of(cap, "1"), net_of(cap, "2")} == {vdd, gnd}, cap
    assert {net_of("C3", "1"), net_of("C3", "2")} == {net_of("U2", "1"), gnd}
    # The cell reaches VDD only through the slide switch's common and one throw.
    cell = net_of("BT1", "1")
    assert cell != vdd and net_of("BT1", "2") == gnd
    assert {net_of("SW2", "1"), net_of("SW2", "2")} == {cell, vdd}
    assert ("SW2", "3") not in netlist()


def test_the_adapter_can_only_pull_rx_low() -> None:
    # D1's cathode (pin 1) on the adapter's TXD, its anode towards RA1: a TXD above VDD
    # reverse-biases it, so nothing from the adapter reaches RA1's clamp diode or VDD.
    assert net_of("D1", "1") == net_of("J1", "1")
    anode = net_of("D1", "2")
    assert anode not in {net_of("J1", "1"), net_of(MCU, "12"), net_of(MCU, "1")}
    touching = {ref for (ref, _), (net, _) in netlist().items() if net == anode}
    assert touching == {"D1", "R2"}, "D1's anode reaches RA1 only through R2"
    assert "WPUA1" in pin_rows()["UART_RX"]["notes"], "RA1's weak pull-up makes the high"


def test_the_load_switch_has_its_reservoir_at_vin() -> None:
    assert net_of("U2", "4") == net_of(MCU, "1")
    for ref in ("C4", "C5"):
        assert {net_of(ref, "1"), net_of(ref, "2")} == {net_of("U2", "4"), net_of(MCU, "14")}
