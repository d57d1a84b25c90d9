"""The hook-up picture follows the netlist: each header line to the chip's port it reaches,
through the parts in series on the way, and the committed drawing is current."""

from __future__ import annotations

from hardware_tools import ROOT, load_tool

hookup = load_tool("hardware/gen_hookup")
NETLIST = hookup.read_netlist(hookup.NETLIST.read_text(encoding="utf-8"))


def test_each_header_line_is_traced_to_the_chip() -> None:
    ports = hookup.chip_ports()
    lines = {
        (ref, name): hookup.route(NETLIST, net, ports)
        for ref in ("J1", "J3")
        for _, name, net in hookup.header(NETLIST, ref)
    }
    assert lines == {
        ("J1", "TXD"): f"D1, R2 to {ports['UART_RX']}",  # the adapter's TXD only pulls low
        ("J1", "RXD"): f"R4 to {ports['UART_TX']}",
        ("J1", "GND"): "GND",
        ("J3", "VCC"): "EPD_VCC (U2)",  # the panel's supply through the load switch
        ("J3", "GND"): "GND",
        ("J3", "DIN"): ports["EPD_SDA"],
        ("J3", "CLK"): ports["EPD_SCL"],
        ("J3", "CS"): ports["EPD_CS"],
        ("J3", "DC"): ports["EPD_DC"],
        ("J3", "RST"): ports["EPD_RST"],
        ("J3", "BUSY"): ports["EPD_BUSY"],
    }


def test_a_line_through_another_part_is_traced_through_it() -> None:
    rerouted = dict(NETLIST)
    rerouted[("R4", "1")], rerouted[("R4", "2")] = ("UART_TX_OUT", ""), ("EPD_DC", "")
    assert hookup.route(rerouted, "UART_TX_OUT", hookup.chip_ports()) == "R4 to RC5"


def test_the_drawing_is_current() -> None:
    committed = (ROOT / "hardware" / "hookup.svg").read_text(encoding="utf-8")
    assert committed == hookup.drawing(NETLIST, hookup.chip_ports()), (
        "run python tools/hardware/gen_hookup.py"
    )
