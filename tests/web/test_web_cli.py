"""`epdle web` as a user runs it: a process that prints its address and stops on a signal."""

from __future__ import annotations

import json
import pathlib
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from starlette.testclient import TestClient

from epdle.cli import main
from epdle.cli.web import parse_listen
from epdle.web.security import Guard
from epdle.web.server import create_app
from epdle.web.state import WebSession


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


def test_a_request_body_half_sent_at_sigterm_gets_a_503_and_no_traceback() -> None:
    """The app waits for the rest of the body as the server stops: it is answered 503 and
    closed at once; before, uvicorn cancelled it 2 s later with a 45-line traceback."""
    with epdle_web("--listen", "127.0.0.1:0") as (process, url):
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
            conn.sendall(
                b"POST /api/guess HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nExpect: 100-continue\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n" % port
            )
            # The app is reading the body once it asks for it (100 Continue).
            reader = conn.makefile("rb")
            assert reader.readline().startswith(b"HTTP/1.1 100 ")
            assert reader.readline() == b"\r\n"
            conn.sendall(b'{"word": ')
            process.send_signal(signal.SIGTERM)
            answer = reader.read()
        assert answer.startswith(b"HTTP/1.1 503 "), answer[:80]
        assert b"stopping" in answer
        assert process.wait(timeout=15) == 0
        _, stderr = process.communicate(timeout=5)
        assert "Traceback" not in stderr and "ERROR" not in stderr, stderr


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


@pytest.mark.parametrize("listen", ["8000", "127.0.0.1:http", "127.0.0.1:70000", ":80", ""])
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
        # A host alone: the default port.
        ("0.0.0.0", ("0.0.0.0", 8000)),
        ("localhost", ("localhost", 8000)),
        ("[::1]", ("::1", 8000)),
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
    assert web._open_browser("http://127.0.0.1:8000/", Guard.for_address("127.0.0.1", 8000)) is None
    monkeypatch.setenv("DISPLAY", ":0")
    web._open_browser("http://127.0.0.1:8001/", Guard.for_address("127.0.0.1", 8001))
    deadline = time.monotonic() + 5
    while not opened and time.monotonic() < deadline:
        time.sleep(0.05)
    assert opened == ["http://127.0.0.1:8001/"]


def test_the_browser_is_started_without_the_token(
    monkeypatch: pytest.MonkeyPatch, session: WebSession
) -> None:
    """A browser's command line is every local user's to read (`ps`): it gets a file only
    this user may read, which sends it on to the address with the token; the file is gone
    once the page has traded the token for its cookie."""
    from epdle.cli import web

    opened: list[str] = []
    monkeypatch.setattr(web.webbrowser, "open", opened.append)
    monkeypatch.setenv("DISPLAY", ":0")
    guard = Guard.for_address("192.0.2.7", 8000)
    assert guard.token is not None
    url = f"http://192.0.2.7:8000/?token={guard.token}"
    through = web._open_browser(url, guard)
    assert through is not None
    deadline = time.monotonic() + 5
    while not opened and time.monotonic() < deadline:
        time.sleep(0.05)
    assert opened == [through.url] and guard.token not in through.url
    assert through.url.startswith("file://")
    path = pathlib.Path(through.path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert f'url={url}"' in path.read_text()
    with TestClient(create_app(session, guard), base_url="http://192.0.2.7:8000") as client:
        assert client.get("/api/state").status_code == 401
        assert path.exists()
        page = client.get("/", params={"token": guard.token}, follow_redirects=False)
        assert page.status_code == 303
    assert not path.parent.exists()
    through.remove()  # again, as the server's end does: nothing left to remove


def _web_without_serving(monkeypatch: pytest.MonkeyPatch, *args: str) -> dict:
    """Run `epdle web` up to serving; what it would serve and print."""
    served: dict = {}

    def serve(app, sock) -> None:
        served["session"] = app.state.session if hasattr(app.state, "session") else None
        sock.close()

    import epdle.web.server
    import epdle.web.state

    original = epdle.web.state.WebSession.__init__

    def keep(self, controller, factory) -> None:
        served["port"] = controller.presenter.port
        original(self, controller, factory)

    monkeypatch.setattr(epdle.web.server, "serve", serve)
    monkeypatch.setattr(epdle.web.state.WebSession, "__init__", keep)
    served["code"] = main(["web", "--no-browser", "--strategy", "entropy", *args])
    return served


def test_the_page_drives_a_plugged_in_device_by_default(monkeypatch, capsys) -> None:
    import epdle.link.ports

    class Found:
        device = "/dev/null"  # a path that exists, standing for the adapter's

    monkeypatch.setattr(epdle.link.ports, "one_adapter_present", lambda: True)
    monkeypatch.setattr(epdle.link.ports, "find_device_port", lambda: Found())
    served = _web_without_serving(monkeypatch, "--listen", "127.0.0.1:0")
    assert served["code"] == 0 and served["port"] == "/dev/null"
    monkeypatch.setattr(epdle.link.ports, "one_adapter_present", lambda: False)
    assert _web_without_serving(monkeypatch, "--listen", "127.0.0.1:0")["port"] == "sim://"


def test_every_address_prints_an_address_a_phone_can_open(monkeypatch, capsys) -> None:
    import ipaddress

    served = _web_without_serving(monkeypatch, "--listen", "0.0.0.0:0", "--port", "sim://")
    assert served["code"] == 0
    url = capsys.readouterr().out.splitlines()[0]
    host = url.split("//")[1].split(":")[0]
    address = ipaddress.ip_address(host)  # a number, not a name a phone may not resolve
    assert not address.is_unspecified


def test_a_missing_device_is_an_error(capsys) -> None:
    assert main(["web", "--no-browser", "--port", "/dev/nonexistent"]) == 1
    assert capsys.readouterr().err == (
        "epdle web: error: no serial device at /dev/nonexistent: plug the device in, "
        "or --port sim:// for the simulated board\n"
    )


def test_without_starlette_the_error_names_what_to_install(monkeypatch, capsys) -> None:
    import builtins

    real_import = builtins.__import__

    def no_starlette(name, *args, **kwargs):
        if name.startswith("epdle.web.server"):
            raise ImportError("No module named 'starlette'", name="starlette")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_starlette)
    assert main(["web", "--no-browser"]) == 1
    error = capsys.readouterr().err
    assert "epdle[web]" not in error  # a package that is not published
    assert "the page needs starlette: " in error and "'starlette==" in error


def test_make_run_installs_what_the_page_needs() -> None:
    from pathlib import Path

    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    recipe = makefile.split("$(VENV)/.stamp-run:")[1].split("\n\n")[0]
    extras = re.search(r"pip install -q -e '\.\[([a-z,]+)\]'", recipe)
    assert extras is not None and "web" in extras.group(1).split(",")


def test_a_port_number_for_the_device_is_a_usage_error_naming_listen(capsys) -> None:
    # `--port` is the device's; a number alone is the page's port given to the wrong option.
    assert main(["web", "--no-browser", "--port", "8080"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "no serial device" not in error
    assert "8080 is not a serial device" in error
    assert "use --listen HOST:PORT, such as --listen 127.0.0.1:8080" in error


# segno's compact terminal QR: two rows of modules a character, the light ones drawn.
HALF_BLOCKS = {" ": (1, 1), "\u2580": (0, 1), "\u2584": (1, 0), "\u2588": (0, 0)}


def printed_qr(text: str) -> list[list[int]]:
    """The modules (1 dark) of the QR code printed in `text`, its quiet zone included."""
    lines = [line for line in text.splitlines() if line and set(line) <= set(HALF_BLOCKS)]
    rows: list[list[int]] = []
    for line in lines:
        pairs = [HALF_BLOCKS[char] for char in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    return rows[: len(lines[0])] if lines else []  # an odd count of rows ends in padding


def test_an_address_for_a_phone_prints_its_qr_code(monkeypatch, capsys) -> None:
    import segno

    served = _web_without_serving(monkeypatch, "--listen", "0.0.0.0:0", "--port", "sim://")
    assert served["code"] == 0
    out, err = capsys.readouterr()
    url = out.splitlines()[0]
    assert "?token=" in url  # the address as text too, token and all
    border = 4
    modules = [list(row) for row in segno.make(url, micro=False).matrix]
    width = len(modules) + 2 * border
    light = [[0] * width for _ in range(border)]
    expected = light + [[0] * border + row + [0] * border for row in modules] + light
    assert printed_qr(err) == expected
    # Another URL's code differs: the comparison sees the text the code carries.
    other = segno.make(url.replace("?token=", "?token=x"), micro=False).matrix
    assert [list(row) for row in other] != modules


def test_a_loopback_address_prints_no_qr_code(monkeypatch, capsys) -> None:
    # A phone cannot open this machine's loopback address: no code to scan.
    served = _web_without_serving(monkeypatch, "--listen", "127.0.0.1:0", "--port", "sim://")
    assert served["code"] == 0
    out, err = capsys.readouterr()
    assert out.startswith("http://127.0.0.1:")
    assert printed_qr(err) == [] and "scan" not in err
