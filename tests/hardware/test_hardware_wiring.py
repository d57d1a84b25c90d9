"""hardware/wiring.svg is generated from pins.csv and is up to date."""

from __future__ import annotations

from hardware_tools import PINS_CSV, ROOT, load_tool, pin_rows

wiring = load_tool("gen_wiring")


def test_drawing_labels_every_net_of_the_table() -> None:
    svg = wiring.draw(wiring.read_pins(PINS_CSV)).get_imagedata("svg").decode()
    for net in pin_rows():
        assert f">{net}<" in svg, f"{net} is not drawn"
    assert ">EPD_VCC<" in svg


def test_committed_drawing_is_current() -> None:
    svg = wiring.draw(wiring.read_pins(PINS_CSV)).get_imagedata("svg")
    committed = (ROOT / "hardware" / "wiring.svg").read_bytes()
    assert committed == svg, "run python tools/gen_wiring.py"
