"""`--port auto`: the device's serial port, found among the USB-UART bridges present.

The device talks through a USB-to-UART bridge; pyserial's `list_ports` names every
serial port with its USB vendor and product id. One port of a known bridge is the
device; else a single USB serial port is; anything else is for the user to choose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .device import LinkError

# (vendor id, product id) -> the bridge: the common USB-UART adapters.
KNOWN_BRIDGES = {
    (0x10C4, 0xEA60): "Silicon Labs CP210x",
    (0x10C4, 0xEA70): "Silicon Labs CP2105",
    (0x1A86, 0x7523): "WCH CH340",
    (0x1A86, 0x5523): "WCH CH341",
    (0x1A86, 0x55D4): "WCH CH9102",
    (0x0403, 0x6001): "FTDI FT232R",
    (0x0403, 0x6010): "FTDI FT2232",
    (0x0403, 0x6014): "FTDI FT232H",
    (0x0403, 0x6015): "FTDI FT231X",
    (0x067B, 0x2303): "Prolific PL2303",
    (0x04D8, 0x00DD): "Microchip MCP2221",
    (0x04D8, 0x000A): "Microchip CDC",
}


@dataclass(frozen=True)
class Port:
    device: str
    description: str
    vid: int | None
    pid: int | None

    @property
    def bridge(self) -> str | None:
        if self.vid is None or self.pid is None:
            return None
        return KNOWN_BRIDGES.get((self.vid, self.pid))

    def __str__(self) -> str:
        ids = "" if self.vid is None else f" [{self.vid:04x}:{self.pid or 0:04x}]"
        return f"{self.device} ({self.bridge or self.description}){ids}"


def list_serial_ports() -> list[Port]:
    from serial.tools import list_ports

    return [
        Port(info.device, info.description or "serial port", info.vid, info.pid)
        for info in sorted(list_ports.comports(), key=lambda info: info.device)
    ]


def choose(ports: Sequence[Port]) -> Port:
    """The device's port among `ports`; LinkError listing what was seen when none fits."""
    bridges = [port for port in ports if port.bridge is not None]
    usb = [port for port in ports if port.vid is not None]
    for group in (bridges, usb):
        if len(group) == 1:
            return group[0]
        if len(group) > 1:
            listed = ", ".join(str(port) for port in group)
            raise LinkError(f"several USB serial adapters: {listed}; pick one with --port")
    seen = ", ".join(str(port) for port in ports) or "none"
    raise LinkError(
        f"no USB serial adapter found (serial ports seen: {seen}); plug the "
        "device in, or pass --port PATH (sim:// for the simulated board)"
    )


def find_device_port() -> Port:
    return choose(list_serial_ports())


def one_adapter_present() -> bool:
    """Whether `auto` would pick a port (what makes it `play`'s default)."""
    try:
        find_device_port()
    except LinkError:
        return False
    return True
