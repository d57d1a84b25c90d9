"""Every example a reader copies runs as written: the `epdle` lines of the README's
shell blocks, the game its play block shows, and the examples of every `--help`.

Each runs through bash in a directory holding the files the examples name (a.png and
b.png, pictures; moves.txt, a feed; build/pic/epdle.hex, a stand-in for `make pic`'s
image), and must exit 0 with no error on stderr. A device is the simulated board:
the examples that talk to one say `--port sim://`, the others fall back to it when no
USB adapter is present. `epdle web` keeps running: it must print its address, serve
the page there and stop cleanly on SIGTERM (its port is made 0, any free one, as the
example's may be taken)."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from intelhex import IntelHex
from parsers import parsers
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent  # the environment's `epdle` beside its python
PROMPT = "guess colours> "
SERVER = re.compile(r"\bepdle web\b")
WAIT_S = 120


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, re.MULTILINE | re.DOTALL)


def _epdle_lines(block: str) -> list[str]:
    """A shell block's lines that run `epdle` (`make ...` lines are the Makefile's)."""
    return [line for line in block.splitlines() if re.search(r"(^|\| )epdle ", line)]


def _readme_examples() -> Iterator[tuple[str, list[str], str]]:
    for number, block in enumerate(_blocks("sh"), 1):
        if lines := _epdle_lines(block):
            yield f"README sh block {number}", lines, ""
    for number, block in enumerate(_blocks("text"), 1):
        moves = [line[len(PROMPT) :] for line in block.splitlines() if line.startswith(PROMPT)]
        if moves:  # the game a play block shows, typed into `epdle play`
            yield f"README play block {number}", ["epdle play --port sim://"], "\n".join(moves)


EXAMPLES = [
    *_readme_examples(),
    *(
        (f"{parser.prog} --help", [line.strip() for line in parser.epilog.splitlines()[1:]], "")
        for parser in parsers()
        if (parser.epilog or "").startswith("examples:\n")
    ),
]


def test_the_examples_are_found() -> None:
    names = {name for name, _, _ in EXAMPLES}
    assert {"README play block 1", "epdle suggest --help", "epdle web --help"} <= names
    commands = [line for _, lines, _ in EXAMPLES for line in lines]
    assert any(line.startswith("epdle review --history") for line in commands)
    assert any("epdle merge" in line for line in commands)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("example-files")
    for name, shape in (("a.png", (20, 20, 190, 84)), ("b.png", (60, 10, 150, 94))):
        picture = Image.new("RGB", (212, 104), "white")
        ImageDraw.Draw(picture).ellipse(shape, fill="black", outline="red", width=6)
        picture.save(folder / name)
    (folder / "moves.txt").write_text("salet gbybb\ncrony 00200\n", encoding="utf-8")
    firmware = IntelHex()
    firmware.puts(0, bytes([0x00, 0x28] * 64))  # a few words of code, far below the store
    (folder / "build" / "pic").mkdir(parents=True)
    firmware.write_hex_file(str(folder / "build" / "pic" / "epdle.hex"))
    return folder


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return {**env, "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}", "COLUMNS": "100"}


def _assert_clean(command: str, code: int | None, stderr: str) -> None:
    errors = [line for line in stderr.splitlines() if re.search(r"error|Traceback", line, re.I)]
    assert code == 0 and not errors, f"{command!r} exited {code}:\n{stderr}"


def _address(server: subprocess.Popen[str], seconds: float) -> str:
    """The first line of the server's output that is an address (a QR code of it may come
    first), or "" when none comes within `seconds` or the output ends."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:  # all of it, so that the server never blocks on a full pipe
        for line in server.stdout or ():
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left).strip()
        except queue.Empty:
            break
        if line.startswith("http://"):
            return line
    return ""


def _serve(command: str, cwd: Path) -> None:
    """Run a server example: its address, the page there, a clean stop."""
    if "--listen" in command:
        command = re.sub(r"(--listen\s+[^\s:]+)(:\d+)?", r"\1:0", command)
    else:
        command = SERVER.sub("epdle web --listen 127.0.0.1:0", command)
    server = subprocess.Popen(
        ["bash", "-c", f"exec {command}"],
        cwd=cwd,
        env=_environment(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        address = _address(server, WAIT_S)
        assert address.startswith("http://"), f"{command!r} printed no address"
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with browser.open(address, timeout=WAIT_S) as page:  # the token becomes a cookie
            assert page.status == 200 and b"<html" in page.read().lower()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=WAIT_S)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.stderr is not None
    _assert_clean(command, server.returncode, server.stderr.read())


@pytest.mark.parametrize(
    ("lines", "stdin"), [(lines, stdin) for _, lines, stdin in EXAMPLES],
    ids=[name for name, _, _ in EXAMPLES],
)  # fmt: skip
def test_the_example_runs(lines: list[str], stdin: str, files: Path, tmp_path: Path) -> None:
    cwd = tmp_path / "examples"
    subprocess.run(["cp", "-r", str(files), str(cwd)], check=True)
    for command in lines:  # in order: an example may read what the one before wrote
        if SERVER.search(command):
            _serve(command, cwd)
            continue
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=cwd,
            env=_environment(),
            input=stdin,
            capture_output=True,
            text=True,
            timeout=600,
        )
        _assert_clean(command, done.returncode, done.stderr)
        assert done.stdout or done.stderr, f"{command!r} said nothing"
    if stdin:  # the README's game ends as it says
        assert "Solved in 3!" in done.stdout
