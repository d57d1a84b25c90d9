"""The upload measurement of issue 4: a set of typical suggestion frames
pushed over the simulated 115200 baud line."""

from __future__ import annotations

from dataclasses import dataclass

from .device import Device, PushStats

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


def typical_frames(count: int = len(WORDS)) -> list[bytes]:
    """Encoded suggestion frames: a big word, a header, stats, the board so far."""
    from epdle.frames import encode
    from epdle.render.suggestions import render_suggestion
    from epdle.solver.engine import Suggestion

    if not 1 <= count <= len(WORDS):
        raise ValueError(f"count must be within 1..{len(WORDS)}")
    frames = []
    for rank, word in enumerate(WORDS[:count]):
        suggestion = Suggestion(word, 3.2 - 0.1 * rank, 5.0 + rank, rank % 2 == 0)
        planes = render_suggestion(HISTORY, suggestion, rank + 1, count, CANDIDATES_LEFT)
        frames.append(encode(planes.black, planes.red))
    return frames


def measure_upload(url: str = "sim://", count: int = len(WORDS)) -> UploadMeasurement:
    frames = typical_frames(count)
    with Device.open(url) as device:
        device.info()
        stats = device.push(frames)
    return UploadMeasurement([len(frame) for frame in frames], stats)
