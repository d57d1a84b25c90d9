"""The fault campaign: uploads and shows on the simulated board with the faults a desk
brings, at random (seeded): power cuts during any flash operation, tearing its row at any
word and leaving the next word half done; line noise and dropped bytes both ways; button
presses during uploads and shows. After each round the device answers INFO, holds the
old set or the new one whole (or, for a replacing upload, the new one's first frame
alone), and shows each stored frame exactly as the host decodes it.

tests/link/test_link_campaign.py runs a CI-sized campaign; `make soak` a long one."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from link_sim_support import frame_of_length
from support.serial_port import PortInFront

from epdle.frames import decode
from epdle.frames import store as flash_layout
from epdle.link import Device, LinkError
from epdle.sim import Board

STORE_FIRST_WORD = flash_layout.REGION_FIRST_ROW * flash_layout.ROW_WORDS
STORE_WORDS = flash_layout.REGION_ROWS * flash_layout.ROW_WORDS
# The longest a refresh (and so a press) keeps the panel busy, with margin.
SETTLE_MS = 40_000


@dataclass
class CampaignCounts:
    rounds: int = 0
    uploads: int = 0
    uploads_completed: int = 0
    cuts: int = 0
    presses: int = 0
    damaged_transfers: int = 0  # writes or reads the line damaged
    frames_shown: int = 0
    mismatches: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.rounds} rounds: {self.uploads} uploads ({self.uploads_completed} completed), "
            f"{self.cuts} power cuts, {self.presses} presses, {self.damaged_transfers} damaged "
            f"transfers, {self.frames_shown} frames shown, {len(self.mismatches)} mismatches"
        )


class NoisyLine:
    """Mangles for a PortInFront: each write or read is damaged with probability `rate`
    (a flipped bit, a dropped byte or a burst of garbage)."""

    def __init__(self, rng: random.Random, rate: float, counts: CampaignCounts) -> None:
        self.rng = rng
        self.rate = rate
        self.counts = counts

    def __call__(self, data: bytes) -> bytes:
        if not data or self.rng.random() >= self.rate:
            return data
        self.counts.damaged_transfers += 1
        at = self.rng.randrange(len(data))
        kind = self.rng.randrange(3)
        if kind == 0:
            return data[:at] + bytes([data[at] ^ (1 << self.rng.randrange(8))]) + data[at + 1 :]
        if kind == 1:
            return data[:at] + data[at + 1 :]
        return data[:at] + self.rng.randbytes(self.rng.randint(1, 8)) + data[at:]


def random_set(rng: random.Random) -> list[bytes]:
    count = rng.randint(1, 4)
    return [frame_of_length(2 * rng.randint(5, 900), rng.randrange(1000)) for _ in range(count)]


def held_set(device: Device) -> list[bytes] | None:
    return board_set(device.serial.board)


def board_set(board: Board) -> list[bytes] | None:
    """The set the board's flash holds committed (None: none whole)."""
    image = {
        STORE_FIRST_WORD + i: board.flash_read(STORE_FIRST_WORD + i) for i in range(STORE_WORDS)
    }
    try:
        return flash_layout.committed_frames(image)
    except ValueError:
        return None


def run_campaign(seed: int, rounds: int) -> CampaignCounts:
    rng = random.Random(seed)
    random.seed(seed)  # the link's session seqs
    counts = CampaignCounts()
    with Device.open("sim://", timeout=0.5, retries=4) as clean:
        board = clean.serial.board
        current = random_set(rng)
        clean.push(current)
        for number in range(rounds):
            counts.rounds += 1
            _round(rng, clean, current, counts, f"round {number}")
            held = held_set(clean)
            if held is not None:
                current = held
            assert board.violations() == [], board.violations()
    return counts


def _round(
    rng: random.Random, clean: Device, old: list[bytes], counts: CampaignCounts, name: str
) -> None:
    board = clean.serial.board
    new = random_set(rng)
    replace = rng.random() < 0.3
    noise = NoisyLine(rng, rng.choice([0.0, 0.02, 0.1]), counts)
    line = PortInFront(clean.serial, to_device=noise, to_host=noise)
    damaged = Device(line, timeout=0.5, retries=6)  # type: ignore[arg-type]
    cut = rng.random() < 0.5
    if cut:
        # Somewhere in the upload's flash operations (or just past them).
        rows = flash_layout.rows_for_words(flash_layout.set_words(new))
        words_done = rng.randint(0, flash_layout.ROW_WORDS)
        board.schedule_power_cut(rng.randint(1, 2 * rows + 6), words_done, rng.randrange(1 << 14))
    press_at = rng.random() if rng.random() < 0.4 else None
    pressed = False

    def progress(offset: int, total: int) -> None:
        nonlocal pressed
        if press_at is not None and not pressed and offset >= press_at * total:
            pressed = True
            counts.presses += 1
            board.press_button(hold_ms=rng.uniform(30, 400))

    counts.uploads += 1
    try:
        damaged.push(new, progress=progress, replace=replace)
        counts.uploads_completed += 1
    except LinkError:
        pass
    if board.powered:
        board.cancel_power_cut()  # it fell past the upload's last operation
    else:
        counts.cuts += 1
        board.power_on()
    _check(rng, clean, old, new, replace, counts, name)


def _check(
    rng: random.Random,
    clean: Device,
    old: list[bytes],
    new: list[bytes],
    replace: bool,
    counts: CampaignCounts,
    name: str,
) -> None:
    board = clean.serial.board
    board.run_ms(SETTLE_MS)  # a press's refresh is over
    board.uart_receive()
    clean.poll_events()
    try:
        info = clean.info()
    except LinkError as error:
        counts.mismatches.append(f"{name}: INFO does not answer ({error})")
        return
    held = held_set(clean)
    allowed = [old, new] + ([new[:1]] if replace else [])
    if held not in allowed:
        counts.mismatches.append(f"{name}: the flash holds neither set whole")
        return
    if info.frames != len(held):
        counts.mismatches.append(f"{name}: INFO says {info.frames} frames, the set has {len(held)}")
        return
    for index, frame in enumerate(held):
        if rng.random() < 0.1:
            # A press as the SHOW goes out: its refresh first, then the frame asked for.
            counts.presses += 1
            board.press_button()
        try:
            clean.show(index)
        except LinkError as error:
            counts.mismatches.append(f"{name}: show {index} failed ({error})")
            return
        counts.frames_shown += 1
        if board.panel_planes() != decode(frame):
            counts.mismatches.append(f"{name}: frame {index} on the panel is not the host's decode")
