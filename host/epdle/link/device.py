"""The device as the host sees it: info, push a frame set, show, events."""

from __future__ import annotations

import contextlib
import random
import struct
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

import serial

from epdle.frames import store as flash_layout

from .protocol import (
    ACK_PAYLOAD_BYTES,
    ADC_STEPS,
    CHUNK_MAX,
    ERROR_PAYLOAD_BYTES,
    INFO_FLAG_BATTERY_LOW,
    INFO_PAYLOAD_BYTES,
    LENGTHLESS_CRC_VERSION,
    PROTOCOL_VERSION,
    VDD_READING_NONE,
    Command,
    ErrorCode,
    EventType,
    Packet,
    Reply,
    ResetCause,
    describe_error,
)
from .transport import CLOCK_EPSILON_S, PORT_ERRORS, Stopped, Transport

BAUD_RATE = 115200
# A refresh of the tri-colour panel takes about 15 s (up to 30 s seen).
SHOW_TIMEOUT_S = 60.0
# Line trouble the device reports while a command is in flight: resend now
# rather than wait for the timeout.
RESEND_ON = (ErrorCode.BAD_PACKET, ErrorCode.UART)
MAX_ASKED_RESENDS = 8
# Once that many resends were asked for, the line is taken for noisy (garbage before the
# command, whose damaged packets the device reports one by one): the host waits for this
# long a silence from the device, once, then starts its tries over.
QUIET_S = 0.25
# A set that does not fit beside the stored one is preceded by its first frame alone at
# most this often (Device._make_room).
MAX_BRIDGES = 2


# What a COMMIT costs the device before it answers: it reads every frame back
# through its CRC and decodes it once. From the firmware's cycle counts on the
# instruction set (docs/pic-cycles.md, 8 M instructions a second): 385 a frame
# byte to read and check, 1,141 to decode, and at most a whole panel of pixel
# bytes (5,512 at 131 each) a frame.
COMMIT_CYCLES_PER_BYTE = 385 + 1141
COMMIT_CYCLES_PER_FRAME = 5512 * 131
INSTRUCTIONS_PER_SECOND = 8_000_000


def commit_seconds(frames: Sequence[bytes]) -> float:
    """An upper bound on how long the device works on the COMMIT of `frames`."""
    cycles = sum(COMMIT_CYCLES_PER_BYTE * len(f) + COMMIT_CYCLES_PER_FRAME for f in frames)
    return cycles / INSTRUCTIONS_PER_SECOND


# What opening a port raises: the port's errors, and ValueError for a bad URL or setting.
_OPEN_ERRORS: tuple[type[Exception], ...] = (*PORT_ERRORS, ValueError)


class _NoReply(Enum):
    """Why a command got no reply: it timed out, the device asked for a resend, or it
    was deaf for a while (a press's refresh) and may have lost the command."""

    TIMED_OUT = "timed out"
    RESEND_ASKED = "resend asked"
    MALFORMED = "malformed"
    WAS_DEAF = "was deaf"


class LinkError(Exception):
    """Anything that keeps a command from completing."""


class DeviceLost(LinkError):
    """A call on the port failed: the device, its adapter or its terminal went away
    (the message says which call failed and why)."""


class Interrupted(LinkError):
    """The host was told to stop (its stop event): the command under way was given up
    where it stood; the device keeps what it had committed (the old set or the new)."""


class DeviceNotResponding(LinkError):
    """No valid answer after every retry."""


class WrongProtocol(LinkError):
    """The device speaks another version of the link protocol."""

    def __init__(self, port: str, version: int) -> None:
        super().__init__(
            f"the device on {port} speaks protocol {version}, this epdle speaks "
            f"{PROTOCOL_VERSION}: update the firmware or epdle"
        )
        self.version = version


class DeviceRejected(LinkError):
    """The device answered with an error code."""

    def __init__(self, command: str, code: int, detail: int) -> None:
        super().__init__(f"device refused {command}: {describe_error(code)} (detail {detail})")
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class DeviceInfo:
    version: str
    protocol: int
    capacity: int  # bytes of frame data (headers included) that fit as the next set
    frames: int
    current: int
    capacity_words: int
    max_frames: int
    chunk_max: int
    battery_low: bool  # the device measured its cell too weak to refresh the panel
    reset_cause: ResetCause  # what reset the device last
    vdd_mv: int | None  # its last VDD measurement (None before any)
    fvr_mv: int  # the FVR it counts with (its calibration, else the nominal 1024 mV)


@dataclass(frozen=True)
class ButtonPressed:
    pass


@dataclass(frozen=True)
class FrameShown:
    index: int
    status: int  # display_status_t: 0 ok, 1 no frame, 2 bad frame, 3 panel error

    @property
    def ok(self) -> bool:
        return self.status == 0


@dataclass(frozen=True)
class ErrorEvent:
    code: int
    detail: int

    def __str__(self) -> str:
        return f"ErrorEvent({describe_error(self.code)}, detail {self.detail})"


DeviceEvent = ButtonPressed | FrameShown | ErrorEvent


@dataclass(frozen=True)
class PushStats:
    frames: int
    payload_bytes: int  # the frames themselves
    bytes_on_wire: int  # both directions, preambles and retries included
    seconds: float  # on the port's clock (simulated time on sim://)
    retries: int
    erase_cycles: int | None  # flash rows erased (known on the simulated board)
    # The set did not fit beside the stored one: its first frame went first as a set of
    # its own this many times (0..MAX_BRIDGES), to make room without leaving the
    # device without a set at any moment.
    bridges: int = 0
    # Not even its first frame fitted beside the stored set, which was dropped first:
    # until the upload completed, the device had only its built-in frames.
    cleared_first: bool = False


def _event_from(packet: Packet) -> DeviceEvent | None:
    payload = packet.payload
    if packet.type == EventType.BUTTON and not payload:
        return ButtonPressed()
    if packet.type == EventType.SHOWN and len(payload) == 2:
        return FrameShown(payload[0], payload[1])
    if packet.type == EventType.ERROR and len(payload) == ERROR_PAYLOAD_BYTES:
        return ErrorEvent(payload[0], struct.unpack_from("<H", payload, 1)[0])
    return None


def _another_protocol(reply: Packet) -> bool:
    """An INFO reply of another protocol version, whose length may be another too."""
    return reply.type == Reply.INFO and reply.payload[:1] not in (b"", bytes([PROTOCOL_VERSION]))


def _reply_payload_bytes(command: Command, reply_type: int) -> int | None:
    """The payload length of each reply to `command` (None: not a reply to it)."""
    if reply_type == Reply.ERROR:
        return ERROR_PAYLOAD_BYTES
    if reply_type == Reply.ACK and command != Command.INFO:
        return ACK_PAYLOAD_BYTES.get(command, 0)
    if reply_type == Reply.INFO and command == Command.INFO:
        return INFO_PAYLOAD_BYTES
    return None


class Device:
    """A device on a serial port (any pyserial URL; sim:// for the simulator)."""

    def __init__(
        self,
        port: serial.SerialBase,
        timeout: float = 2.0,
        retries: int = 3,
        stop: threading.Event | None = None,
    ) -> None:
        # Once `stop` is set, a command under way ends within a tenth of a second with
        # Interrupted (the transport's waits look at it).
        self.transport = Transport(port, stop)
        self.timeout = timeout
        self.retries = max(1, retries)
        self._seq = random.randrange(1, 256)
        self._events: list[DeviceEvent] = []
        # SHOWN events of SHOW commands (not of presses: a SHOWN after a BUTTON is the
        # press's), which show() waits for.
        self._commanded_shown: list[FrameShown] = []
        self._press_showing = False
        # A SHOW command sent whose SHOWN has not come yet: a refresh the device
        # reports (BUSY) is then that one, not a press's.
        self._show_pending = False
        # A button press announced, or the device said it is busy (BUSY), and
        # nothing heard since: the device refreshes the panel and reads no command
        # until then (at the latest).
        self._deaf_until: float | None = None
        # Told (`notice`) that the host waits out the refresh under way.
        self._wait_told = False
        # One line for whoever runs the command: what the device is doing while
        # the host waits for it (a refresh).
        self.notice: Callable[[str], None] | None = None
        # When the device was first heard after its last deaf window.
        self._heard_again_at: float | None = None
        self._retries_used = 0
        # The device keeps its last reply across sessions; an INFO (always run
        # afresh) opens each session, so no command is taken for a repeat of an
        # earlier session's.
        self._session_open = False

    @classmethod
    def open(
        cls,
        url: str,
        timeout: float = 2.0,
        retries: int = 3,
        stop: threading.Event | None = None,
    ) -> Device:
        from . import register_url_handler

        register_url_handler()
        try:
            # Exclusive: a second program (another epdle) on the port would take the
            # device's replies and send its own commands into an upload under way.
            port = serial.serial_for_url(url, baudrate=BAUD_RATE, timeout=timeout, exclusive=True)
        except _OPEN_ERRORS as error:
            raise LinkError(f"cannot open {url}: {open_error_reason(error)}") from error
        return cls(port, timeout=timeout, retries=retries, stop=stop)

    @property
    def serial(self) -> serial.SerialBase:
        return self.transport.port

    def close(self) -> None:
        self.transport.close()

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- commands ------------------------------------------------------

    def info(self) -> DeviceInfo:
        reply = self._request(Command.INFO, expect=Reply.INFO)
        if _another_protocol(reply):
            raise WrongProtocol(self.transport.name, reply.payload[0])
        (protocol, major, minor, patch, words, frames, current, max_frames, chunk_max, flags) = (
            struct.unpack_from("<BBBBHBBBBB", reply.payload)
        )
        cause, reading, fvr_mv = struct.unpack_from("<BHH", reply.payload, 11)
        return DeviceInfo(
            version=f"{major}.{minor}.{patch}",
            protocol=protocol,
            capacity=words * flash_layout.BITS_PER_WORD // 8,
            frames=frames,
            current=current,
            capacity_words=words,
            max_frames=max_frames,
            chunk_max=chunk_max,
            battery_low=bool(flags & INFO_FLAG_BATTERY_LOW),
            reset_cause=ResetCause(cause)
            if cause in ResetCause._value2member_map_
            else ResetCause.NONE,
            vdd_mv=None
            if not reading or reading >= VDD_READING_NONE
            else round(ADC_STEPS * fvr_mv / reading),
            fvr_mv=fvr_mv,
        )

    def calibrate(self, vdd_mv: int) -> int:
        """Tell the device the VDD measured at its board now: it works its FVR out of it,
        keeps it (EEPROM) and returns it in mV."""
        if not 0 < vdd_mv <= 0xFFFF:
            raise LinkError(f"VDD {vdd_mv} mV is not a voltage the device can take")
        reply = self._request(Command.CALIBRATE, struct.pack("<H", vdd_mv), expect=Reply.ACK)
        return int(struct.unpack_from("<H", reply.payload)[0])

    def push(
        self,
        frames: list[bytes],
        progress: Callable[[int, int], None] | None = None,
        *,
        replace: bool = False,
    ) -> PushStats:
        """Upload `frames` as the device's new set; it becomes current only
        once every frame is in flash and checked. The store writes it beside the
        current set; one that fits the store but not beside it is refused, or with
        `replace` goes in once room is made (`_make_room`)."""
        try:
            flash_layout.check_set(frames)
            stream = flash_layout.set_stream(frames)
        except ValueError as error:
            raise LinkError(f"cannot push this set: {error}") from error
        words = flash_layout.set_words(frames)
        sent_before = self.transport.bytes_sent + self.transport.bytes_received
        retries_before = self._retries_used
        started = self.transport.clock()
        erases_before = self._erase_count()
        bridges, cleared = self._make_room(frames, replace)
        self._upload(frames, stream, words, progress)
        erases_after = self._erase_count()
        return PushStats(
            frames=len(frames),
            payload_bytes=sum(len(frame) for frame in frames),
            bytes_on_wire=self.transport.bytes_sent + self.transport.bytes_received - sent_before,
            seconds=self.transport.clock() - started,
            retries=self._retries_used - retries_before,
            bridges=bridges,
            cleared_first=cleared,
            erase_cycles=None
            if erases_before is None or erases_after is None
            else erases_after - erases_before,
        )

    def _upload(
        self,
        frames: list[bytes],
        stream: bytes,
        words: int,
        progress: Callable[[int, int], None] | None,
    ) -> None:
        """BEGIN, the stream, COMMIT; started over if the device lost the upload (a reset)."""
        restarts = 0
        while True:
            try:
                self._request(Command.BEGIN, struct.pack("<BH", len(frames), words))
                self._send_stream(stream, progress)
                self._request(Command.COMMIT, extra_wait=commit_seconds(frames))
                return
            except DeviceRejected as error:
                if error.code != ErrorCode.NO_UPLOAD or restarts >= self.retries:
                    raise
                restarts += 1

    def _make_room(self, frames: list[bytes], replace: bool) -> tuple[int, bool]:
        """Check the set against the room INFO reports (flash_layout.check_set: the rule
        the store applies to BEGIN). With `replace`, make room while keeping a whole set
        current at every moment: the set's first frame goes first as a set of its own
        (it fits beside the stored set, and once current frees the stored set's rows),
        at most MAX_BRIDGES times: the second always lands at the data area's start,
        leaving room for any set of up to DATA_ROWS less the frame's rows. Only if not
        even that frame fits is the stored set cleared first. (bridges, cleared)."""
        bridges = 0
        while True:
            room = self.info().capacity_words
            try:
                flash_layout.check_set(frames, room)
                return bridges, False
            except ValueError as error:
                if not replace:
                    raise LinkError(
                        f"cannot push this set: {error} beside the set it holds "
                        "(replacing that set makes room)"
                    ) from None
            first = frames[:1]
            try:
                flash_layout.check_set(first, room)
            except ValueError:
                break
            # The first frame alone must leave room for the whole set somewhere.
            both = sum(
                flash_layout.rows_for_words(flash_layout.set_words(s)) for s in (first, frames)
            )
            if bridges == MAX_BRIDGES or len(frames) == 1 or both > flash_layout.DATA_ROWS:
                break
            self._upload(first, flash_layout.set_stream(first), flash_layout.set_words(first), None)
            bridges += 1
        self.clear()
        return bridges, True

    def _send_stream(self, stream: bytes, progress: Callable[[int, int], None] | None) -> None:
        offset = 0
        resyncs = 0
        while offset < len(stream):
            chunk = stream[offset : offset + CHUNK_MAX]
            try:
                reply = self._request(Command.CHUNK, struct.pack("<H", offset) + chunk)
            except DeviceRejected as error:
                # The device tells where it stands; carry on from there.
                if error.code != ErrorCode.OFFSET or resyncs >= self.retries:
                    raise
                resyncs += 1
                offset = error.detail
                continue
            offset = struct.unpack_from("<H", reply.payload)[0]
            if progress is not None:
                progress(offset, len(stream))

    def show(self, index: int) -> None:
        """Show frame `index`; returns once the device reports it shown."""
        if not 0 <= index <= 255:
            raise ValueError(f"frame index {index} out of range")
        # Only a SHOWN that comes after this SHOW went out can be its own.
        self._commanded_shown.clear()
        self._show_pending = True
        try:
            self._show(index)
        finally:
            self._show_pending = False

    def _show(self, index: int) -> None:
        # A lost ACK leaves the device refreshing, answering the resend with BUSY
        # until it is done: the resend goes again then, answered from the copy.
        self._request(Command.SHOW, bytes([index]), resend_wait=SHOW_TIMEOUT_S)
        deadline = self.transport.clock() + SHOW_TIMEOUT_S
        while True:
            for i, event in enumerate(self._commanded_shown):
                if event.index == index:
                    del self._commanded_shown[i]
                    self._events = [e for e in self._events if e is not event]
                    if not event.ok:
                        reason = _show_status(event.status)
                        raise LinkError(f"device could not show frame {index}: {reason}")
                    return
            remaining = deadline - self.transport.clock()
            if remaining <= CLOCK_EPSILON_S:
                raise DeviceNotResponding(
                    f"device on {self.transport.name} did not report frame {index} shown "
                    f"within {SHOW_TIMEOUT_S:.0f} s"
                )
            self._collect(self._receive(remaining))

    def clear(self) -> None:
        """Drop the stored set (the device falls back to its built-in frames)."""
        self._request(Command.CLEAR)

    def sleep(self) -> None:
        self._request(Command.SLEEP)

    def poll_events(self, timeout: float = 0.0) -> list[DeviceEvent]:
        """Events received so far, waiting up to `timeout` for the first one."""
        if not self._events and timeout > 0:
            self._collect(self._receive(timeout))
        else:
            self._collect(self._receive(0.0, wait_for_any=False))
        events, self._events = self._events, []
        return events

    # ---- plumbing --------------------------------------------------------

    def _next_seq(self) -> int:
        self._seq = self._seq % 255 + 1
        return self._seq

    def _receive(self, timeout: float, wait_for_any: bool = True) -> list[Packet]:
        with _as_link_errors():
            return self.transport.receive(timeout, wait_for_any)

    def _collect(self, packets: list[Packet]) -> None:
        for packet in packets:
            self._note(packet)
            event = _event_from(packet)
            if event is not None:
                self._keep(event)

    def _keep(self, event: DeviceEvent) -> None:
        """Keep an event for poll_events, and a SHOW command's SHOWN for show(): the
        SHOWN after a BUTTON event is the press's, however its index falls."""
        if isinstance(event, ButtonPressed):
            self._press_showing = True
        elif isinstance(event, FrameShown):
            if self._press_showing:
                self._press_showing = False
            else:
                self._commanded_shown.append(event)
        self._events.append(event)

    def _note(self, packet: Packet) -> None:
        """Follow the device's deaf window: a BUTTON event opens it (the device
        refreshes the panel next), as does a BUSY event (the device refreshes the
        panel now: a press's, unless a SHOW command's is under way); anything else
        it sends after that closes it."""
        if packet.type == EventType.BUTTON or (
            packet.type == EventType.BUSY and self._deaf_until is None
        ):
            self._deaf_until = self.transport.clock() + SHOW_TIMEOUT_S
            self._heard_again_at = None
            self._wait_told = False
            if packet.type == EventType.BUSY and not self._show_pending:
                self._press_showing = True
        elif packet.type != EventType.BUSY and self._deaf_until is not None:
            self._deaf_until = None
            self._heard_again_at = self.transport.clock()

    def _deaf_left(self) -> float:
        """Seconds the device may still be deaf for; 0 once it hears. Bounded: a lost
        SHOWN event does not stall the host past SHOW_TIMEOUT_S."""
        if self._deaf_until is None:
            return 0.0
        left = self._deaf_until - self.transport.clock()
        if left <= CLOCK_EPSILON_S:
            self._deaf_until = None
            return 0.0
        return left

    def _tell_waiting(self) -> None:
        """Say once per refresh that the host waits for it."""
        if self.notice is not None and not self._wait_told:
            self._wait_told = True
            self.notice(
                f"the device on {self.transport.name} is refreshing its panel: "
                f"waiting for it (at most {SHOW_TIMEOUT_S:.0f} s)"
            )

    def _wait_out_a_press(self) -> None:
        """Let a refresh the button started finish before talking."""
        self._collect(self._receive(0.0, wait_for_any=False))
        while (left := self._deaf_left()) > 0:
            self._tell_waiting()
            self._collect(self._receive(left))

    def _request(
        self,
        command: Command,
        payload: bytes = b"",
        expect: Reply = Reply.ACK,
        extra_wait: float = 0.0,
        resend_wait: float = 0.0,
    ) -> Packet:
        """Send a command and wait for its reply, resending the very same
        packet (same seq: the device answers a repeat without redoing it).
        `retries` bounds the timeouts; a resend the device asked for (it
        reported a damaged packet) is quick and bounded on its own. `extra_wait`
        seconds are added to each wait for a command the device works on for long,
        `resend_wait` to each wait after a timeout (a command after which the
        device may be deaf)."""
        if not self._session_open and command != Command.INFO:
            self.info()
        packet = Packet(command, self._next_seq(), payload)
        self._wait_out_a_press()
        timeouts = 0
        asked_resends = 0
        malformed = 0
        resynced = False
        wake = self.transport.device_may_sleep()
        while True:
            with _as_link_errors():
                reply = self._await_reply(
                    packet, self.transport.send(packet, wake=wake), extra_wait
                )
            if isinstance(reply, Packet):
                break
            if reply is _NoReply.TIMED_OUT:
                timeouts += 1
                extra_wait = max(extra_wait, resend_wait)
            else:  # a quick resend, or one after the device's deaf window
                asked_resends += 1
                malformed += reply is _NoReply.MALFORMED
            if asked_resends > MAX_ASKED_RESENDS and not resynced:
                resynced = True
                asked_resends = 0
                self._wait_for_quiet()
            elif timeouts >= self.retries or asked_resends > MAX_ASKED_RESENDS:
                if malformed:
                    raise LinkError(
                        f"device on {self.transport.name} answered {command.name} "
                        f"{malformed} times with a reply of the wrong length"
                    )
                raise DeviceNotResponding(
                    f"device not responding on {self.transport.name} "
                    f"after {timeouts + asked_resends} tries"
                )
            self._retries_used += 1
            wake = True
        self._session_open = True
        if reply.type == Reply.ERROR:
            code, detail = struct.unpack_from("<BH", reply.payload)
            raise DeviceRejected(command.name, code, detail)
        if reply.type != expect:
            raise LinkError(f"device answered {command.name} with packet type {reply.type:#04x}")
        return reply

    def _wait_for_quiet(self) -> None:
        """Read until the device has sent nothing for QUIET_S (at most the time every try
        could take): it has worked through the noise it was reporting. Its reports of
        damaged packets are dropped, its other events kept."""
        deadline = self.transport.clock() + self.timeout * self.retries
        while self.transport.clock() < deadline:
            heard = self.transport.bytes_received
            for packet in self._receive(QUIET_S, wait_for_any=False):
                self._note(packet)
                event = _event_from(packet)
                if event is not None and not (
                    isinstance(event, ErrorEvent) and event.code in RESEND_ON
                ):
                    self._keep(event)
            if self.transport.bytes_received == heard:
                return

    def _await_reply(
        self, packet: Packet, early: list[Packet], extra_wait: float = 0.0
    ) -> Packet | _NoReply:
        """The reply to `packet`, else TIMED_OUT, RESEND_ASKED (the device
        reported line trouble), MALFORMED (a reply of the wrong length) or WAS_DEAF
        (a press's refresh held the device past the timeout). Events that come along
        are kept.

        While the device is deaf the wait is stretched to the end of its refresh
        (bounded by SHOW_TIMEOUT_S), then by the usual timeout: the command may
        still be in the device's receive buffer and be answered then."""
        deadline = self.transport.clock() + self.timeout + extra_wait
        deaf_seen = False
        # The device said it was busy after the packet went out: it dropped it.
        dropped = False
        pending = early
        while True:
            reply = None
            resend = False
            malformed = False
            for received in pending:
                self._note(received)
                if received.type in (Reply.ACK, Reply.ERROR, Reply.INFO):
                    if received.seq == packet.seq and reply is None:
                        expected = _reply_payload_bytes(Command(packet.type), received.type)
                        if (
                            expected is None
                            or len(received.payload) == expected
                            or _another_protocol(received)
                        ):
                            reply = received
                        else:  # damage its CRC missed, or a device bug: ask again
                            malformed = True
                    continue
                dropped = dropped or (received.type == EventType.BUSY and pending is not early)
                event = _event_from(received)
                # Line trouble reported while the packet was not sent yet (during
                # the wake pause) is about earlier bytes: no reason to resend it.
                if isinstance(event, ErrorEvent) and event.code in RESEND_ON:
                    resend = resend or pending is not early
                elif event is not None:
                    self._keep(event)
            if reply is not None:
                return reply
            if self.transport.reader.lengthless:
                raise WrongProtocol(self.transport.name, LENGTHLESS_CRC_VERSION)
            if malformed:
                return _NoReply.MALFORMED
            if resend:
                return _NoReply.RESEND_ASKED
            deaf_left = self._deaf_left()
            if deaf_left > 0:
                deaf_seen = True
                self._tell_waiting()
                deadline = max(deadline, self.transport.clock() + deaf_left)
            elif deaf_seen and self._heard_again_at is not None:
                if dropped:
                    return _NoReply.WAS_DEAF  # the refresh is over: send it again now
                deadline = max(deadline, self._heard_again_at + self.timeout)
            remaining = deadline - self.transport.clock()
            if remaining <= CLOCK_EPSILON_S:
                heard_again = deaf_seen and self._heard_again_at is not None
                return _NoReply.WAS_DEAF if heard_again else _NoReply.TIMED_OUT
            pending = self.transport.receive(remaining)

    def _erase_count(self) -> int | None:
        """Flash rows erased so far, if the port can tell (sim:// can), as `now()` for time."""
        count = getattr(self.serial, "flash_erase_count", None)
        return None if count is None else int(count())


@contextlib.contextmanager
def _as_link_errors() -> Iterator[None]:
    """The transport's errors as the link's: a port call that failed (PortLost, an
    OSError) is DeviceLost, a stop asked for is Interrupted."""
    try:
        yield
    except OSError as error:
        raise DeviceLost(str(error)) from error
    except Stopped as error:
        raise Interrupted(str(error)) from None


def open_error_reason(error: Exception) -> str:
    """Why a port did not open, in plain words (pyserial's text repeats the port and the
    errno: "could not open port X: [Errno 2] No such file or directory: 'X'")."""
    code = getattr(error, "errno", None)
    if isinstance(code, int):
        import errno
        import os

        reasons = {
            errno.ENOENT: "no such device (is it plugged in?)",
            errno.EACCES: "permission denied (add yourself to the dialout group)",
            errno.EBUSY: "the port is busy (another program has it open)",
            # The lock that opens it exclusively is held: another epdle, or any
            # program that opened it so.
            errno.EAGAIN: "the port is in use by another program (another epdle?)",
        }
        return reasons.get(code, os.strerror(code)[:1].lower() + os.strerror(code)[1:])
    text = str(error)
    if "protocol" in text and "not known" in text:
        return f"{text.removeprefix('invalid URL, ')}; use a device path, sim:// or auto"
    return text


def _show_status(status: int) -> str:
    return {1: "no such frame", 2: "frame damaged (CRC)", 3: "panel error"}.get(
        status, f"status {status}"
    )
