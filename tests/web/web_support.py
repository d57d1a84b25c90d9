"""Helpers for the web tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from starlette.testclient import TestClient

from epdle.web.security import Guard, allowed_hosts
from epdle.web.server import Limits, Server, ServerOptions, create_app, server_config
from epdle.web.state import WebSession


def settle(client: TestClient) -> dict:
    """The state once the device has caught up with the advice (the push follows the
    reply: the page gets the advice first)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        state = client.get("/api/state").json()
        if not state["device"]["updating"]:
            return state
        time.sleep(0.02)
    raise AssertionError("the device never caught up")


# Colours typed wrong after TARSE, each with the command line's refusal of it: the page
# sends them as typed and shows that refusal (one board or several).
MALFORMED = {
    "not-a-mark": ("bbxbb", "'x' at position 3 is not a mark"),
    "four-letters": ("gybb", "'tarse' has 5 letters but 4 colours were given"),
    "four-squares": ("🟩🟨⬛⬛", "'tarse' has 5 letters but 4 colours were given"),
    "six-marks": ("yyyyyy", "'tarse' has 5 letters but 6 colours were given"),
}
MALFORMED_CASES = [
    pytest.param(colours, message, id=name) for name, (colours, message) in MALFORMED.items()
]


@contextmanager
def live(session: WebSession, limits: Limits) -> Iterator[tuple[int, Server]]:
    """The app served as `epdle web` serves it (server_config), with `limits` (the app
    reads bodies within `limits.body`)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    app = create_app(
        session,
        Guard(allowed_hosts("127.0.0.1", port)),
        ServerOptions(poll_interval=60, body_timeout=limits.body),
    )
    server = Server(server_config(app, limits), app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline
        time.sleep(0.02)
    try:
        yield port, server
    finally:
        server.should_exit = True
        app.state.loop.call_soon_threadsafe(app.state.hub.publish, None)
        thread.join(timeout=15)
        sock.close()


def read_until_closed(conn: socket.socket, limit: float) -> tuple[bytes, float]:
    """What the server sends until it closes the connection, and when it did."""
    started = time.monotonic()
    conn.settimeout(limit)
    data = b""
    while True:
        try:
            chunk = conn.recv(4096)
        except TimeoutError:
            return data, float("inf")
        if not chunk:
            return data, time.monotonic() - started
        data += chunk


def column_texts(page, column: str) -> list[str]:
    """The suggestions table's cells in `column`, top to bottom, once the table shows it."""
    from playwright.sync_api import expect

    table = page.get_by_role("table", name="Suggestions")
    expect(table.locator("tbody tr").first).to_be_visible()
    heads = [(h or "").strip() for h in table.locator("thead th").all_text_contents()]
    assert column in heads, heads
    cells = table.locator(f"tbody tr td:nth-child({heads.index(column) + 1})")
    return [text.strip() for text in cells.all_text_contents()]


def ranked_figures(page, column: str) -> list[float]:
    """The suggestions table's figures in `column`, top to bottom; a row the several
    boards' exact search placed first ("exact") is left out."""
    return [float(text) for text in column_texts(page, column) if text != "exact"]
