"""The link's commands: push/show/info/link-bench on sim://, the pty server,
and the errors a person sees."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tty
from pathlib import Path

import pytest
from link_sim_support import encoded, small_planes

from epdle.cli import main
from epdle.link import ButtonPressed, Device, DeviceNotResponding, FrameShown, LinkError
from epdle.session.link_bench import measure_upload

HOST = Path(__file__).resolve().parents[2] / "host"


def test_info_json_names_version_capacity_frames_current(capsys: pytest.CaptureFixture) -> None:
    assert main(["info", "--port", "sim://", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["version"] == "0.1.0"
    assert info["capacity"] > 10_000
    assert info["frames"] >= 1  # the built-in frames
    assert info["current"] == 1  # frames count from 1, as everywhere people read them


def test_push_frame_files_and_show(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    paths = []
    for index, frame in enumerate(encoded(small_planes(2, seed=5))):
        paths.append(tmp_path / f"{index}.frame")
        paths[-1].write_bytes(frame)
    png_dir = tmp_path / "panel"
    url = f"sim://?png_dir={png_dir}"
    assert main(["push", "--port", url, *map(str, paths), "--show", "1"]) == 0
    assert "pushed 2 frame(s)" in capsys.readouterr().out
    assert (png_dir / "panel-1.png").exists()


@pytest.mark.parametrize(("options", "fast"), [([], True), (["--full-refresh"], False)])
def test_push_sends_fast_windows_unless_told_full_refresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: list[str], fast: bool
) -> None:
    from epdle.frames import encode
    from epdle.frames.decoder import fast_window
    from epdle.link import device as device_module

    white = b"\xff" * 2756
    paths = []
    for index, ink in enumerate((0x0F, 0xF0)):  # the same red (none), another black
        paths.append(tmp_path / f"{index}.frame")
        paths[-1].write_bytes(encode(white[:600] + bytes([ink]) * 26 + white[626:], white))
    pushed: list[bytes] = []
    real_push = device_module.Device.push

    def recording_push(self, frames, **kwargs):  # type: ignore[no-untyped-def]
        pushed.extend(frames)
        return real_push(self, frames, **kwargs)

    monkeypatch.setattr(device_module.Device, "push", recording_push)
    assert main(["push", "--port", "sim://", *options, *map(str, paths)]) == 0
    assert len(pushed) == 2
    assert all((fast_window(frame) is not None) == fast for frame in pushed)


def test_push_refuses_a_file_that_is_no_frame(tmp_path: Path, capsys) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("hello")
    assert main(["push", "--port", "sim://", str(junk)]) == 1
    assert "neither a picture nor a .frame or .hex file" in capsys.readouterr().err


def test_show_of_a_missing_frame_says_so(capsys: pytest.CaptureFixture) -> None:
    assert main(["show", "--port", "sim://", "9"]) == 1
    assert "frame 9: the device holds frames 1 to" in capsys.readouterr().err


def test_a_missing_port_is_a_clear_error() -> None:
    with pytest.raises(LinkError, match="cannot open /dev/epdle-none"):
        Device.open("/dev/epdle-none")


def test_a_silent_port_names_itself_and_the_tries() -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        with (
            Device.open(os.ttyname(slave), timeout=0.05, retries=2) as dev,
            pytest.raises(DeviceNotResponding, match=r"not responding on /dev/.* after 2 tries"),
        ):
            dev.info()
    finally:
        os.close(master)
        os.close(slave)


def test_the_upload_of_eight_suggestion_frames_meets_its_budget() -> None:
    result = measure_upload("sim://")
    assert len(result.frame_sizes) == 8
    # Real rendered suggestion frames: not trivially small (a word that cannot win has no
    # verdict in its header: about 480 bytes), within the 1 KB budget.
    assert all(400 <= size <= 1024 for size in result.frame_sizes)
    assert result.stats.payload_bytes == sum(result.frame_sizes)
    # Each 74-byte chunk costs 8 bytes of framing and an 8-byte ACK: a decoded
    # packet must fit one 80-byte RAM bank of the PIC (protocol.h).
    assert result.wire_ratio <= 1.25
    # Simulated seconds on the 115200 baud line, the device's CPU at 16 MHz (the COMMIT's
    # check of every frame takes most of it: docs/protocol.md).
    assert result.stats.seconds <= 4.0
    assert result.stats.retries == 0


def test_sim_serve_pty_talks_to_any_serial_client(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(HOST))
    server = subprocess.Popen(
        [sys.executable, "-m", "epdle", "sim", "serve", "--pty", "--png-dir", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert server.stdout is not None
        path = server.stdout.readline().strip()
        assert path.startswith("/dev/")
        planes = small_planes(2, seed=6)
        with Device.open(path) as dev:
            assert dev.info().frames >= 1
            dev.push(encoded(planes))
            dev.show(1)
            assert dev.info().frames == 2
        assert (tmp_path / "panel-1.png").exists()
    finally:
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=10)
    assert server.returncode == 0, err
    assert "stopped after" in err


def test_sim_url_options_reach_the_board(tmp_path: Path) -> None:
    vcd, log = tmp_path / "t.vcd", tmp_path / "e.jsonl"
    with Device.open(f"sim://?vcd={vcd}&epd_log={log}") as dev:
        dev.show(0)
    assert vcd.stat().st_size > 0
    assert '"cmd": 18' in log.read_text()  # DISPLAY_REFRESH reached the panel


def test_an_unknown_sim_url_option_is_named() -> None:
    with pytest.raises(LinkError, match="unknown sim:// option"):
        Device.open("sim://?baud=9600")


def test_sim_serve_link_log_and_button(tmp_path: Path) -> None:
    link = tmp_path / "epdle-tty"
    env = dict(os.environ, PYTHONPATH=str(HOST))
    server = subprocess.Popen(
        [sys.executable, "-m", "epdle", "sim", "serve", "--pty", "--link", str(link)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert server.stdout is not None and server.stdin is not None
        path = server.stdout.readline().strip()
        assert link.is_symlink() and os.readlink(link) == path
        with Device.open(str(link)) as dev:
            dev.info()
            server.stdin.write("press\n")
            server.stdin.flush()
            events = []
            for _ in range(60):
                events += dev.poll_events(timeout=0.5)
                if any(isinstance(e, FrameShown) for e in events):
                    break
            assert any(isinstance(e, ButtonPressed) for e in events)
            assert any(isinstance(e, FrameShown) and e.ok for e in events)
    finally:
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=10)
    assert server.returncode == 0, err
    assert not link.exists() and not link.is_symlink()  # removed on exit
    assert "button pressed" in err and "panel refreshed (refresh 1, full, 16.79 s)" in err


@pytest.mark.parametrize("kind", ["symlink", "dangling symlink", "file"])
def test_sim_serve_link_replaces_nothing_it_did_not_make(tmp_path: Path, kind: str) -> None:
    link = tmp_path / "epdle-tty"
    other = tmp_path / "someone-elses"
    if kind == "file":
        link.write_text("keep me")
    else:
        if kind == "symlink":
            other.write_text("theirs")
        link.symlink_to(other)
    before = (link.is_symlink(), os.readlink(link) if link.is_symlink() else link.read_text())
    # 'quit' stops a server that started all the same
    server = subprocess.run(
        [sys.executable, "-m", "epdle", "sim", "serve", "--pty", "--link", str(link)],
        input="quit\n",
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(HOST)),
        timeout=60,
    )
    assert server.returncode == 1
    assert server.stderr.splitlines() == [
        f"epdle sim serve: error: --link {link} exists: remove it, or give another path "
        "(nothing is replaced)"
    ]
    after = (link.is_symlink(), os.readlink(link) if link.is_symlink() else link.read_text())
    assert after == before
