"""`epdle demo`'s game on the simulated board, judged on its glass: after every press the
panel shows the frame the host meant, and no fast update drives a pixel from an OLD
value (the controller's DTM1) other than what its glass showed (the panel model's
wrong-pixel count, which the controller itself cannot know)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from epdle.link import DeviceEvent, FrameShown
from epdle.render.planes import Planes
from epdle.session.demo import play_demo
from epdle.session.one_board import Game
from epdle.session.presenter import DevicePresenter, ProgressCallback, PublishResult
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec


@dataclass(frozen=True)
class Press:
    kind: str
    wrong_pixels: int  # the model's count: driven from a DTM1 value other than the glass
    off_frame: int  # pixels of the glass other than the frame the host meant


@dataclass
class Glass:
    meant: list[Planes] = field(default_factory=list)
    presses: list[Press] = field(default_factory=list)


def differing_pixels(a: bytes, b: bytes) -> int:
    return sum((x ^ y).bit_count() for x, y in zip(a, b, strict=True))


def watching(glass: Glass) -> type[DevicePresenter]:
    class Watching(DevicePresenter):
        """Remembers the frames it publishes and looks at the glass after each press."""

        def publish(
            self, planes: list[Planes], progress: ProgressCallback | None = None
        ) -> PublishResult:
            glass.meant = list(planes)
            return super().publish(planes, progress)

        def press_and_wait(self) -> list[DeviceEvent]:
            events = super().press_and_wait()
            board = self.simulated_board()
            assert board is not None
            assert board.run_until(lambda b: b.asleep and not b.panel_powered, 60_000)
            shown = next(e for e in events if isinstance(e, FrameShown))
            black, red = board.panel_planes()
            meant = glass.meant[shown.index]
            last = board.last_refresh()
            off = differing_pixels(black, meant.black) + differing_pixels(red, meant.red)
            glass.presses.append(Press(last.kind, last.wrong_pixels, off))
            return events

    return Watching


def test_demo_slosh_shows_every_frame_right_on_glass(tmp_path: Path) -> None:
    glass = Glass()
    game = GameSetup(GameSpec()).new_game()
    assert isinstance(game, Game)
    result = play_demo(game, "slosh", tmp_path, presenter=watching(glass))
    assert result.solved
    for n, press in enumerate(glass.presses, start=1):
        print(f"press {n}: {press.kind}, wrong {press.wrong_pixels}, off frame {press.off_frame}")
    assert sum(press.kind == "fast" for press in glass.presses) >= 5, glass.presses
    assert [press for press in glass.presses if press.wrong_pixels or press.off_frame] == []
    assert result.violations == []
