"""Keeps the device showing the current advice: render, encode, push, show.

Owns the connection: a failed exchange closes it, and the next publish or
poll reconnects and re-pushes the set the device should have.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from epdle.frames import encode_set
from epdle.frames.store import REPLACEABLE_SET_ROWS, replaceable_prefix
from epdle.link import ButtonPressed, Device, DeviceEvent, FrameShown, LinkError, protocol
from epdle.render.planes import Planes

if TYPE_CHECKING:
    from epdle.sim import Board

log = logging.getLogger("epdle.session")

ProgressCallback = Callable[[int, int], None]
T = TypeVar("T")

# A refresh takes ~15 s; on the simulated board these are simulated seconds.
REFRESH_WAIT_S = 40.0
# While the device is away, tries to reconnect back off from reconnect_interval by this
# factor a try, up to this many seconds between tries.
RECONNECT_BACKOFF = 2.0
RECONNECT_MAX_INTERVAL_S = 30.0


def describe_event(event: DeviceEvent) -> str:
    if isinstance(event, ButtonPressed):
        return "button pressed"
    if isinstance(event, FrameShown):
        return f"frame {event.index + 1} shown" + ("" if event.ok else f" FAILED ({event.status})")
    return f"error: {event}"


@dataclass(frozen=True)
class PublishResult:
    frames: int
    payload_bytes: int
    bytes_on_wire: int


class DevicePresenter:
    def __init__(
        self,
        port: str,
        *,
        timeout: float = 2.0,
        retries: int = 3,
        reconnect_interval: float = 1.0,
        full_refresh: bool = False,
    ) -> None:
        self.port = port
        # No fast windows in the frames: the device shows each by a full refresh.
        self.full_refresh = full_refresh
        self.timeout = timeout
        self.retries = retries
        self.reconnect_interval = reconnect_interval
        self._device: Device | None = None
        self._frames: list[bytes] = []
        self._dirty = False  # the device does not hold self._frames yet
        self._last_attempt = float("-inf")
        self._wait = reconnect_interval  # grows while reconnecting fails
        self.lost: str | None = None  # why the device went away, until it is back
        # Set by stop(): a push or show under way is given up within a tenth of a second.
        self._stopping = threading.Event()
        # Told the index of every frame the device reports showing (after a push, a
        # show, a button press): for a front end that pictures the panel.
        self.on_shown: Callable[[int], None] | None = None

    @property
    def device(self) -> Device | None:
        return self._device

    @property
    def frame_count(self) -> int:
        """Frames in the set the device holds (or will once it is back)."""
        return len(self._frames)

    @property
    def connected(self) -> bool:
        return self._device is not None

    def connect(self) -> Device:
        if self._device is None:
            self._last_attempt = time.monotonic()
            self._device = Device.open(
                self.port, timeout=self.timeout, retries=self.retries, stop=self._stopping
            )
            try:
                # Nothing is sent before the device has answered: a terminal that is
                # no longer the device's gets no frames written into it.
                info = self._device.info()
            except LinkError:
                self.close()
                raise
            if info.protocol != protocol.PROTOCOL_VERSION:
                self.close()
                raise LinkError(
                    f"the device on {self.port} speaks protocol {info.protocol}, this epdle "
                    f"speaks {protocol.PROTOCOL_VERSION}: update the firmware or epdle"
                )
            log.info(
                "connected to %s: firmware %s, protocol %d, %d frame(s) stored, capacity %d",
                self.port,
                info.version,
                info.protocol,
                info.frames,
                info.capacity,
            )
        return self._device

    def stop(self) -> None:
        """Give up the exchange under way (from a signal handler or another thread): it
        ends with Interrupted, the device keeping what it had committed; so does every
        exchange after it."""
        self._stopping.set()

    def close(self) -> None:
        if self._device is not None:
            try:
                self._device.close()
            finally:
                self._device = None

    def publish(
        self, planes: list[Planes], progress: ProgressCallback | None = None
    ) -> PublishResult:
        """Make `planes` the device's frame set and show the first one. A set too large
        to replace the stored one without clearing it first loses its last frames."""
        frames = encode_set(planes, fast=not self.full_refresh)
        self._frames = replaceable_prefix(frames)
        if len(self._frames) < len(frames):
            log.warning(
                "%d of %d frames kept: the store replaces sets of up to %d flash rows safely",
                len(self._frames),
                len(frames),
                REPLACEABLE_SET_ROWS,
            )
        self._dirty = True
        return self._sync(progress)

    def frame(self, index: int) -> bytes:
        """Encoded frame `index` of the set the device holds (or will once it is back)."""
        return self._frames[index]

    def show(self, index: int) -> None:
        self._exchange(lambda device: device.show(index))
        self._shown(index)

    def _shown(self, index: int) -> None:
        if self.on_shown is not None:
            self.on_shown(index)

    def simulated_board(self) -> Board | None:
        """The board behind a sim:// port (connecting if needed), else None."""
        from epdle.sim import board_behind

        return board_behind(self.connect().serial)

    def press_and_wait(self) -> list[DeviceEvent]:
        """Press the simulated button; the events up to the frame it shows."""
        board = self.simulated_board()
        if board is None:
            raise LinkError("only the simulated board's button can be pressed from here")
        board.press_button()
        events: list[DeviceEvent] = []
        waited = 0.0
        while not any(isinstance(e, FrameShown) for e in events):
            if waited >= REFRESH_WAIT_S:
                raise LinkError(f"no frame shown {REFRESH_WAIT_S:.0f} s after the press")
            events += self.poll_events(timeout=1.0)
            waited += 1.0
        return events

    def poll_events(self, timeout: float = 0.0) -> list[DeviceEvent]:
        """Device events; also retries a pending push after a reconnect (backing off
        while the device stays away: `lost` says why, once, until it is back)."""
        if self._device is None:
            if time.monotonic() - self._last_attempt < self._wait:
                time.sleep(min(timeout, self._wait))
                return []
            try:
                self._sync(None)
            except LinkError as error:
                self._wait = min(self._wait * RECONNECT_BACKOFF, RECONNECT_MAX_INTERVAL_S)
                log.debug("device still unavailable: %s", error)
                self.lost = self.lost or str(error)
                return []
        events = self._exchange(lambda device: device.poll_events(timeout))
        for event in events:
            if isinstance(event, FrameShown) and event.ok:
                self._shown(event.index)
        return events

    def take_reconnected(self) -> bool:
        """True once after the device came back from being lost."""
        if self.lost is not None and self._device is not None:
            self.lost = None
            self._wait = self.reconnect_interval
            return True
        return False

    def _sync(self, progress: ProgressCallback | None) -> PublishResult:
        payload = sum(len(f) for f in self._frames)
        if not self._dirty:
            self.connect()
            return PublishResult(len(self._frames), payload, 0)

        def push_and_show(device: Device) -> PublishResult:
            # The old suggestions are of no use any more: make room if need be.
            stats = device.push(self._frames, progress=progress, replace=True)
            device.show(0)
            return PublishResult(len(self._frames), payload, stats.bytes_on_wire)

        result = self._exchange(push_and_show)
        self._dirty = False
        self._shown(0)
        log.info(
            "pushed %d frame(s): %d payload bytes, %d bytes on the wire",
            result.frames,
            result.payload_bytes,
            result.bytes_on_wire,
        )
        return result

    def _exchange(self, action: Callable[[Device], T]) -> T:
        try:
            return action(self.connect())
        except LinkError as error:
            # Whatever the device holds now, it may not be what we meant:
            # push again once it is back.
            self._dirty = bool(self._frames)
            self.lost = self.lost or str(error)
            self.close()
            raise
