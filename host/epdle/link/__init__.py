"""Host side of the UART link: talk to the device (or the simulated board).

Importing this package registers the `sim://` pyserial URL handler, so
`serial.serial_for_url("sim://")` and `Device.open("sim://")` run a simulated
board in process.
"""

from __future__ import annotations

import serial

from epdle.frames.store import committed_set_words

from .device import (
    ButtonPressed,
    Device,
    DeviceEvent,
    DeviceInfo,
    DeviceNotResponding,
    DeviceRejected,
    ErrorEvent,
    FrameShown,
    LinkError,
    PushStats,
)


def register_url_handler() -> None:
    """Let pyserial find protocol_sim.py for sim:// URLs."""
    if __name__ not in serial.protocol_handler_packages:
        serial.protocol_handler_packages.append(__name__)


register_url_handler()

__all__ = [
    "ButtonPressed",
    "Device",
    "DeviceEvent",
    "DeviceInfo",
    "DeviceNotResponding",
    "DeviceRejected",
    "ErrorEvent",
    "FrameShown",
    "LinkError",
    "PushStats",
    "committed_set_words",
    "register_url_handler",
]
