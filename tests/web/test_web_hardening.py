"""The server against hostile or careless clients: refused requests cost no memory,
nested JSON is a 4xx, the game's rules hold whatever the client sends, a stale page's
guess is refused, and a client that sends half a request is cut off."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from starlette.testclient import TestClient

from epdle.solver.scoring import GAME_GUESSES, score
from epdle.web.security import REFUSALS_KEPT, Guard, allowed_hosts
from epdle.web.server import ServerOptions, create_app, server_config
from epdle.web.state import WebSession

JSON = {"content-type": "application/json"}
# Six wrong guesses for the answer "fizzy", each consistent with the ones before.
ANSWER = "fizzy"
WRONG = ["salet", "crony", "dumpy", "whiff", "jiffy", "dizzy"]


def guess(client: TestClient, word: str, colours: str, turn: int | None = None):
    body: dict[str, object] = {"word": word, "colours": colours}
    if turn is not None:
        body["turn"] = turn
    return client.post("/api/guess", json=body)


def test_a_flood_of_refused_requests_keeps_a_bounded_record(session: WebSession) -> None:
    app = create_app(session, Guard(None, token="secret"), ServerOptions(poll_interval=60))
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        for n in range(3 * REFUSALS_KEPT):
            response = client.get(f"/{n}" + "x" * 16384)
            assert response.status_code == 401
        guard = app.state.guard
        assert guard.refusals == 3 * REFUSALS_KEPT
        assert len(guard.refused) == REFUSALS_KEPT
        assert max(len(line) for line in guard.refused) < 300


@pytest.mark.parametrize(
    "body",
    [b"[" * 2000, b'{"word": ' + b"[" * 2000, b'{"word": "salet", "colours": ' + b'{"a":' * 700],
    ids=["lists", "in-a-field", "objects"],
)
def test_deeply_nested_json_is_a_client_error(client: TestClient, body: bytes) -> None:
    assert len(body) <= 4096
    response = client.post("/api/guess", content=body, headers=JSON)
    assert response.status_code == 400
    assert "nested too deeply" in response.json()["error"] or "not JSON" in response.json()["error"]


def test_no_seventh_guess(client: TestClient) -> None:
    for word in WRONG:
        response = guess(client, word, score(word, ANSWER))
        assert response.status_code == 200, response.text
    assert len(WRONG) == GAME_GUESSES
    for word in (ANSWER, "jazzy"):
        refused = guess(client, word, score(word, ANSWER))
        assert refused.status_code == 422
        assert f"all {GAME_GUESSES} guesses are played" in refused.json()["error"]
    assert len(client.get("/api/state").json()["history"]) == GAME_GUESSES
    # A new game takes guesses again.
    assert client.post("/api/new").status_code == 200
    assert guess(client, "salet", "BBBBB").status_code == 200


def test_feedback_that_contradicts_the_game_is_refused(client: TestClient) -> None:
    assert guess(client, "salet", "BBBBB", turn=0).status_code == 200
    for word, colours in [("sonic", "GBBBB"), ("crony", "GGGGY"), ("crony", "GGGGG")]:
        response = guess(client, word, colours, turn=1)
        if colours == "GGGGG":
            assert response.status_code == 200  # crony may be the answer
        else:
            assert response.status_code == 422, (word, colours)
    assert len(client.get("/api/state").json()["history"]) == 2


def test_two_pages_guessing_at_once_land_once(client: TestClient) -> None:
    turn = len(client.get("/api/state").json()["history"])
    first = guess(client, "salet", "BBBBB", turn=turn)
    second = guess(client, "crony", "BBBBB", turn=turn)  # the other tab saw the same game
    assert first.status_code == 200
    assert second.status_code == 409 and "moved on" in second.json()["error"]
    assert client.get("/api/state").json()["history"] == [{"word": "salet", "colours": "BBBBB"}]
    assert guess(client, "crony", "BBBBB", turn=turn + 1).status_code == 200


@pytest.mark.parametrize("turn", [-1, "1", 1.0, True, None])
def test_a_turn_that_is_no_count_is_refused(client: TestClient, turn: object) -> None:
    response = client.post(
        "/api/guess", json={"word": "salet", "colours": "BBBBB", "turn": turn}, headers=JSON
    )
    if turn is None:  # as if left out
        assert response.status_code == 200
    else:
        assert response.status_code == 400 and "turn" in response.json()["error"]


@contextmanager
def live(session: WebSession, header_timeout: float, body_timeout: float) -> Iterator[int]:
    """The app served as `epdle web` serves it (server_config), with short timeouts."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    app = create_app(
        session,
        Guard(allowed_hosts("127.0.0.1", port)),
        ServerOptions(poll_interval=60, body_timeout=body_timeout),
    )
    server = uvicorn.Server(server_config(app, header_timeout=header_timeout))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline
        time.sleep(0.02)
    try:
        yield port
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


def test_half_a_request_is_cut_off(web_session: Callable[..., WebSession]) -> None:
    with live(web_session(), header_timeout=0.5, body_timeout=0.5) as port:
        # Headers that never end.
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: " % port)
            _, closed_after = read_until_closed(conn, 10)
            assert closed_after < 5
        # A body that never ends.
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(
                b"POST /api/guess HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"wo' % port
            )
            data, closed_after = read_until_closed(conn, 10)
            assert data.startswith(b"HTTP/1.1 408")
            assert b"not complete within 0.5 s" in data
        # A whole request on a fresh connection still works.
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(
                b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port
            )
            data, _ = read_until_closed(conn, 10)
            assert data.startswith(b"HTTP/1.1 200")
