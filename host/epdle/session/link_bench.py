"""The link's budget (docs/protocol.md) measured on the simulated board: an upload of typical
suggestion frames over the 115200 baud line, and a power cut at every flash
operation of such an upload. It ties the renderer, the solver's types and the link
together, so it sits with the session, above all three."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from epdle.frames.store import committed_set_words
from epdle.link.device import Device, LinkError, PushStats

if TYPE_CHECKING:
    from epdle.render.planes import Planes
    from epdle.sim import Board

# A game two guesses in, with eight suggestions: what `epdle play` pushes.
HISTORY = (("crane", "bgybb"), ("sloth", "bbgyb"))
WORDS = ("about", "adobe", "abode", "aloud", "anode", "avoid", "dough", "joint")
CANDIDATES_LEFT = 23


@dataclass(frozen=True)
class UploadMeasurement:
    frame_sizes: list[int]
    stats: PushStats

    @property
    def wire_ratio(self) -> float:
        return self.stats.bytes_on_wire / self.stats.payload_bytes


def typical_planes(count: int = len(WORDS)) -> list[Planes]:
    """Suggestion frames as drawn: a big word, a header, stats, the board so far."""
    from epdle.render.suggestions import render_suggestion
    from epdle.solver.engine import Suggestion

    if not 1 <= count <= len(WORDS):
        raise ValueError(f"count must be within 1..{len(WORDS)}")
    return [
        render_suggestion(
            HISTORY,
            Suggestion(word, 3.2 - 0.1 * rank, 5.0 + rank, rank % 2 == 0),
            rank + 1,
            count,
            CANDIDATES_LEFT,
            WORDS[1:3] if rank == 0 else (),  # the first frame names the next two
        )
        for rank, word in enumerate(WORDS[:count])
    ]


def typical_frames(count: int = len(WORDS)) -> list[bytes]:
    """typical_planes() encoded, as the link sends them."""
    return encode_all(typical_planes(count))


# One game to its fifth guess: the board grows to five rows, the largest suggestion frame.
GAME = (("salet", "bbybb"), ("crony", "bgbbb"), ("dumpy", "bbbbb"), ("bough", "bbbbb"))
GAME_NEXT = ("fight", "bbbbb")


def one_game_frames() -> list[bytes]:
    """The suggestion before each guess of one game, its board growing from none to five
    rows (485-723 bytes encoded: the last is the largest suggestion frame a game draws)."""
    from epdle.render.suggestions import render_suggestion
    from epdle.solver.engine import Suggestion

    history = (*GAME, GAME_NEXT)
    return encode_all(
        [
            render_suggestion(history[:guesses], Suggestion("vivid", 3.0, 5.0, True), 1, 1, 23)
            for guesses in range(len(history) + 1)
        ]
    )


def measure_upload(url: str = "sim://", count: int = len(WORDS)) -> UploadMeasurement:
    frames = typical_frames(count)
    with Device.open(url) as device:
        device.info()
        stats = device.push(frames)
    return UploadMeasurement([len(frame) for frame in frames], stats)


@dataclass
class SweepResult:
    operations: int  # flash/EEPROM operations of the upload (each one cut once)
    old_kept: int = 0
    new_complete: int = 0
    failures: list[str] = field(default_factory=list)
    # A replacing push only: the new set's first frame alone, as a set of its own.
    first_alone: int = 0


def replacing_sweep_planes() -> tuple[list[Planes], list[Planes]]:
    """(new, old) for a sweep of a replacing push: 8 typical suggestion frames (86 rows)
    over a stored set of 13 (142 rows) beside which they do not fit, while their first
    frame (12 rows) does: the push goes in through that first frame alone
    (docs/protocol.md)."""
    return typical_planes(), typical_planes() + typical_planes(5)


def power_cut_sweep(
    new_planes: list[Planes],
    old_planes: list[Planes],
    progress: Callable[[int, int], None] | None = None,
    *,
    replace: bool = False,
) -> SweepResult:
    """Upload `new_planes` over a board that holds `old_planes` as its set,
    cutting the power at each operation of the upload in turn; after each
    cut the rebooted board must answer INFO as with the old set or the whole
    new one, and show every frame of that set exactly. The sets must differ
    in size. With `replace` the new set must not fit beside the old one: the
    upload is a replacing push (its first frame alone first), and a cut may also
    leave that first frame alone, whole and shown exactly."""
    counts = {len(new_planes), len(old_planes)} | ({1} if replace else set())
    if len(counts) != 2 + replace:
        raise ValueError("the old and new sets need different frame counts to tell them apart")
    old = encode_all(old_planes)
    new = encode_all(new_planes)

    def board_with_old_set() -> Device:
        device = Device.open("sim://", timeout=0.5, retries=2)
        _board(device).flash_load(committed_set_words(old))
        return device

    # What a rebooted board answers to INFO with either set.
    with board_with_old_set() as device:
        board = _board(device)
        reference = {"old": device.info()}
        before = board.nvm_op_count
        if replace and device.push(new, replace=True).bridges == 0:
            raise ValueError("the new set fits beside the old one: no replacing push to sweep")
        if not replace:
            device.push(new)
        result = SweepResult(board.nvm_op_count - before)
        board.schedule_power_cut(0)
        board.power_on()
        reference["new"] = device.info()
    sets = {len(old): ("old", old_planes), len(new): ("new", new_planes)}
    if replace:
        sets[1] = ("first", new_planes[:1])
    for cut in range(1, result.operations + 1):
        with board_with_old_set() as device:
            board = _board(device)
            device.info()
            board.schedule_power_cut(cut)
            try:
                device.push(new, replace=replace)
                result.failures.append(f"cut {cut}: the upload finished despite the cut")
                continue
            except LinkError:
                pass
            board.power_on()
            info = device.info()
            name, expected = sets.get(info.frames, ("no", []))
            if name not in reference and name != "first":
                result.failures.append(f"cut {cut}: INFO says {info.frames} frames")
            elif name in reference and info != reference[name]:
                result.failures.append(f"cut {cut}: INFO says {info}, not {reference[name]}")
            elif not _shows_each(device, expected):
                result.failures.append(f"cut {cut}: the panel does not show the {name} set")
            elif name == "old":
                result.old_kept += 1
            elif name == "first":
                result.first_alone += 1
            else:
                result.new_complete += 1
        if progress is not None:
            progress(cut, result.operations)
    return result


def _board(device: Device) -> Board:
    from epdle.sim import board_behind

    board = board_behind(device.serial)
    if board is None:
        raise LinkError(f"{device.transport.name} is not the simulated board (sim://)")
    return board


def encode_all(planes: list[Planes]) -> list[bytes]:
    from epdle.frames import encode_set

    return encode_set(planes)


def _shows_each(device: Device, planes: list[Planes]) -> bool:
    board = _board(device)
    for index, expected in enumerate(planes):
        device.show(index)
        if board.panel_planes() != (expected.black, expected.red):
            return False
    return not board.violations()
