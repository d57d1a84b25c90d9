"""`epdle web` as a user runs it: a process that prints its address and stops on a signal."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from epdle.cli import main
from epdle.cli.web import parse_listen


@contextmanager
def epdle_web(*args: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    command = [sys.executable, "-m", "epdle", "web", "--no-browser", *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        yield process, url
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=10)


def fetch(url: str, data: bytes | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET")
    if data is not None:
        request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_prints_its_address_serves_the_game_and_stops_on_a_signal(signum: int) -> None:
    with epdle_web("--listen", "127.0.0.1:0", "--strategy", "entropy", "--top", "2") as (
        process,
        url,
    ):
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        status, state = fetch(url + "api/state")
        assert status == 200
        while state["device"]["updating"]:  # the opening advice is on its way to the device
            time.sleep(0.05)
            state = fetch(url + "api/state")[1]
        assert state["settings"]["strategy"] == "entropy"
        assert len(state["suggestions"]) == 2
        assert state["device"]["connected"] and state["device"]["simulated"]
        body = json.dumps({"word": "tarse", "colours": "bbybb"}).encode()
        status, state = fetch(url + "api/guess", body)
        assert status == 200 and state["history"][0]["colours"] == "BBYBB"
        process.send_signal(signum)
        assert process.wait(timeout=15) == 0
        _, stderr = process.communicate(timeout=5)
        assert "Traceback" not in stderr


def test_another_address_prints_a_token_and_wants_it() -> None:
    # 127.0.0.2 is loopback on Linux but not the default address: it counts as "another".
    with epdle_web("--listen", "127.0.0.2:0") as (process, url):
        assert "?token=" in url
        base = url.split("?")[0]
        status, body = fetch(base + "api/state")
        assert status == 401 and "token" in body["error"]
        token = url.split("token=")[1]
        status, state = fetch(f"{base}api/state?token={token}")
        assert status == 200 and state["history"] == []
        process.terminate()
        assert process.wait(timeout=15) == 0


def test_a_busy_address_is_one_line_on_stderr() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "epdle", "web", "--no-browser", "--listen", f"127.0.0.1:{port}"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"epdle web: error: cannot listen on 127.0.0.1:{port}: ")
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "listen", ["8000", "localhost", "127.0.0.1:http", "127.0.0.1:70000", ":80"]
)
def test_a_bad_listen_address_is_a_usage_error(
    listen: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["web", "--listen", listen]) == 2
    assert "HOST:PORT" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("127.0.0.1:8000", ("127.0.0.1", 8000)),
        ("0.0.0.0:0", ("0.0.0.0", 0)),
        ("[::1]:8080", ("::1", 8080)),
        ("localhost:9000", ("localhost", 9000)),
    ],
)
def test_parse_listen(text: str, address: tuple[str, int]) -> None:
    assert parse_listen(text) == address


def test_top_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["web", "--no-browser", "--listen", "127.0.0.1:0", "--top", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("epdle web: error: argument --top: must be at least 1"), err
    assert err.count("\n") == 1


def test_without_a_desktop_no_browser_is_started(monkeypatch: pytest.MonkeyPatch) -> None:
    from epdle.cli import web

    opened: list[str] = []
    monkeypatch.setattr(web.webbrowser, "open", opened.append)
    monkeypatch.setattr(web.sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    web._open_browser("http://127.0.0.1:8000/")
    monkeypatch.setenv("DISPLAY", ":0")
    web._open_browser("http://127.0.0.1:8001/")
    deadline = time.monotonic() + 5
    while not opened and time.monotonic() < deadline:
        time.sleep(0.05)
    assert opened == ["http://127.0.0.1:8001/"]
