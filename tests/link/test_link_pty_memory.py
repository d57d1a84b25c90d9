"""`epdle sim serve --pty --flash FILE`: the board keeps its flash and EEPROM in FILE, so
killing the server is a power cut, not a new board; a FILE that is no board's memory is
refused in one line and left as it was."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

from link_sim_support import encoded, small_planes

from epdle.link import Device, LinkError
from epdle.sim.pty_server import MEMORY_BYTES

OLD = encoded(small_planes(2, seed=1))
NEW = encoded(small_planes(3, seed=2, black_rows=60))


def serve(memory: Path) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "epdle", "sim", "serve", "--pty", "--flash", str(memory)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    path = server.stdout.readline().strip()
    assert path, server.communicate(timeout=30)[1]
    return server, path


def power_cut(server: subprocess.Popen[str]) -> None:
    server.send_signal(signal.SIGKILL)
    server.communicate(timeout=30)


def frames_shown(path: str) -> int:
    """The set the device holds, each frame of it shown (status ok)."""
    with Device.open(path) as device:
        count = device.info().frames
        for index in range(count):
            device.show(index)
        return count


def test_a_set_outlives_a_power_cut(tmp_path: Path) -> None:
    memory = tmp_path / "board.nvm"
    server, path = serve(memory)
    try:
        with Device.open(path) as device:
            assert device.info().frames == 1  # a new board: its built-in frame
            device.push(OLD)
    finally:
        power_cut(server)
    assert memory.stat().st_size == MEMORY_BYTES
    assert not list(tmp_path.glob("*.new"))
    server, path = serve(memory)
    try:
        assert frames_shown(path) == len(OLD)
    finally:
        server.terminate()
        server.communicate(timeout=30)


def test_a_power_cut_mid_upload_leaves_the_old_set_or_the_new_one(tmp_path: Path) -> None:
    memory = tmp_path / "board.nvm"
    server, path = serve(memory)
    with Device.open(path) as device:
        device.push(OLD)
    outcomes = set()
    rng = random.Random(36)
    for _ in range(3):
        upload_started = threading.Event()

        def push_new(path: str = path, started: threading.Event = upload_started) -> None:
            try:
                with Device.open(path) as device:
                    device.push(NEW, progress=lambda done, total: started.set())
            except LinkError:
                pass  # the power went

        pusher = threading.Thread(target=push_new)
        pusher.start()
        assert upload_started.wait(30)
        threading.Event().wait(rng.uniform(0.0, 0.3))  # the cut's moment in the upload
        power_cut(server)
        pusher.join(30)
        server, path = serve(memory)
        shown = frames_shown(path)
        assert shown in (len(OLD), len(NEW))
        outcomes.add(shown)
        if shown == len(NEW):  # back to the old set for the next cut
            with Device.open(path) as device:
                device.push(OLD)
    server.terminate()
    server.communicate(timeout=30)


def test_a_file_of_something_else_is_refused_and_kept(tmp_path: Path) -> None:
    memory = tmp_path / "board.nvm"
    server, path = serve(memory)
    with Device.open(path) as device:
        device.push(OLD)
    server.terminate()
    server.communicate(timeout=30)
    whole = memory.read_bytes()
    damaged = bytearray(whole)
    damaged[100] ^= 0x01
    for content in (whole[: MEMORY_BYTES // 2], bytes(damaged), b"hello\n", b""):
        memory.write_bytes(content)
        done = subprocess.run(
            [sys.executable, "-m", "epdle", "sim", "serve", "--pty", "--flash", str(memory)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 1, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "not a board memory file" in lines[0], done.stderr
        assert "Traceback" not in done.stderr
        assert memory.read_bytes() == content
