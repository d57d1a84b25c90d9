"""Host side of the UART link: talk to the device (or the simulated board).

`Device.open("sim://")` runs a simulated board in process: it registers the
`sim://` URL handler with pyserial (`register_url_handler()`, as pyserial's own
`protocol_handler_packages` mechanism expects) before it opens a port. Call
`register_url_handler()` to use `serial.serial_for_url("sim://")` directly.
"""

from __future__ import annotations

import serial

from epdle.frames.store import committed_set_words

from .device import (
    ButtonPressed,
    Device,
    DeviceEvent,
    DeviceInfo,
    DeviceLost,
    DeviceNotResponding,
    DeviceRejected,
    ErrorEvent,
    FrameShown,
    Interrupted,
    LinkError,
    PushStats,
)


def register_url_handler() -> None:
    """Let pyserial find protocol_sim.py for sim:// URLs."""
    if __name__ not in serial.protocol_handler_packages:
        serial.protocol_handler_packages.append(__name__)


__all__ = [
    "ButtonPressed",
    "Device",
    "DeviceEvent",
    "DeviceInfo",
    "DeviceLost",
    "DeviceNotResponding",
    "DeviceRejected",
    "ErrorEvent",
    "FrameShown",
    "Interrupted",
    "LinkError",
    "PushStats",
    "committed_set_words",
    "register_url_handler",
]
