"""--full-refresh in `play`, `daemon`, `demo` and `web`: with it, no frame the simulated
board gets carries a fast window (the device shows every one by a full refresh); without
it, a suggestion set's frames do, and the runner-ups are shown by fast updates."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from epdle.cli import main
from epdle.frames.decoder import fast_window
from epdle.link import device as device_module
from epdle.session.presenter import DevicePresenter

GAME = ["--strategy", "entropy", "--top", "2"]
SWITCH = [([], True), (["--full-refresh"], False)]


@pytest.fixture
def pushes(monkeypatch: pytest.MonkeyPatch) -> list[list[bytes]]:
    """Every set pushed to the device, as the link sends it."""
    pushed: list[list[bytes]] = []
    real_push = device_module.Device.push

    def recording_push(self, frames, **kwargs):  # type: ignore[no-untyped-def]
        pushed.append(list(frames))
        return real_push(self, frames, **kwargs)

    monkeypatch.setattr(device_module.Device, "push", recording_push)
    return pushed


def check_windows(pushes: list[list[bytes]], fast: bool) -> None:
    """The opening suggestions (the first set) carry their fast window unless told
    --full-refresh, and then no frame of any set does."""
    assert pushes and len(pushes[0]) == 2
    if fast:
        assert all(fast_window(frame) is not None for frame in pushes[0])
    else:
        assert all(fast_window(frame) is None for frames in pushes for frame in frames)


@pytest.mark.parametrize(("options", "fast"), SWITCH)
def test_play(tmp_path: Path, monkeypatch, pushes, options: list[str], fast: bool) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("salet bybbb\nquit\n"))
    panel_dir = str(tmp_path / "panel")
    assert main(["play", "--port", "sim://", *GAME, "--panel-dir", panel_dir, *options]) == 0
    check_windows(pushes, fast)


@pytest.mark.parametrize(("options", "fast"), SWITCH)
def test_daemon(tmp_path: Path, pushes, options: list[str], fast: bool) -> None:
    feed = tmp_path / "feed.txt"
    feed.write_text("salet bybbb\n")
    assert main(["daemon", "--port", "sim://", "--feed", str(feed), *GAME, *options]) == 0
    check_windows(pushes, fast)


@pytest.mark.parametrize(("options", "fast"), SWITCH)
def test_demo(tmp_path: Path, monkeypatch, pushes, options: list[str], fast: bool) -> None:
    kinds: list[str] = []  # the refresh each press of the simulated button brought
    real_press = DevicePresenter.press_and_wait

    def recording_press(self):  # type: ignore[no-untyped-def]
        events = real_press(self)
        kinds.append(self.simulated_board().last_refresh().kind)
        return events

    monkeypatch.setattr(DevicePresenter, "press_and_wait", recording_press)
    out = str(tmp_path / "demo")
    assert main(["demo", "--answer", "slosh", "--out", out, *GAME, *options]) == 0
    check_windows(pushes, fast)
    # One press a turn, from the first suggestion to the second.
    assert kinds and set(kinds) == ({"fast"} if fast else {"full"})


@pytest.mark.parametrize(("options", "fast"), SWITCH)
def test_web(monkeypatch, pushes, options: list[str], fast: bool) -> None:
    pytest.importorskip("starlette")
    import epdle.web.server

    def serve(app, sock) -> None:  # type: ignore[no-untyped-def]
        """Instead of serving: the page's opening push, as its first request brings it."""
        sock.close()
        session = app.state.session
        session.start()
        session.controller.catch_up()
        session.close()

    monkeypatch.setattr(epdle.web.server, "serve", serve)
    listen = ["--listen", "127.0.0.1:0", "--no-browser"]
    assert main(["web", "--port", "sim://", *listen, *GAME, *options]) == 0
    check_windows(pushes, fast)


@pytest.mark.parametrize("command", ["play", "daemon", "demo", "web", "push"])
def test_help_says_what_full_refresh_costs(command: str, capsys) -> None:
    assert main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "--full-refresh refresh the panel fully (three colours) for every frame, about 17 s "
        "a press instead of about 1 s, for a panel that shows ghosts"
    ) in text
